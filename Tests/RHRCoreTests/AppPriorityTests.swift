import RHRCore
import Testing

/// Health Connect's own app priority for vitals, in words (docs/design.md section 9).
@Suite("App priority in words")
struct AppPriorityTests {
    let priority = AppPriority(packages: ["com.fitbit.FitbitMobile", "com.ouraring.oura", "com.withings.wiscale2"])
    let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")

    @Test func aWriterIsPlacedInThePhonesOrder() {
        #expect(priority.rank(of: oura) == 2)
        #expect(priority.words(for: oura) == "second of 3 in Health Connect’s own priority for vitals")
        let log = Writer(store: .healthConnect, name: "com.example.log")
        #expect(priority.rank(of: log) == nil)
        #expect(priority.words(for: log) == "not in Health Connect’s own priority for vitals")
        // HealthKit has no such order: a writer of the same name there is not in it.
        #expect(priority.words(for: Writer(store: .healthKit, name: "com.ouraring.oura")) == nil)
    }

    @Test func theWholeOrderNamesTheApps() {
        let names = ["com.fitbit.FitbitMobile": "Fitbit", "com.ouraring.oura": "Oura"]
        #expect(priority.listWords { names[$0] ?? $0 }
            == "Health Connect’s own priority for vitals (set on the phone): 1 Fitbit, 2 Oura, 3 com.withings.wiscale2; "
            + "rhr shows each writer apart.")
    }

    @Test func ordinals() {
        #expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(Wording.ordinal)
            == ["first", "second", "third", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"])
    }
}
