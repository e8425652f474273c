import RHRCore
import Testing

/// R11 labels from the facts: only Apple's own resting value is "HealthKit estimate"; any other HealthKit
/// writer is an app that wrote a number into HealthKit.
@Suite("Provenance labels")
struct ProvenanceTests {
    @Test func appleWatchIsTheHealthKitEstimate() {
        #expect(Writer(store: .healthKit, name: "Jane’s Apple Watch").provenance()
            == "HealthKit estimate by Jane’s Apple Watch")
        // A watch renamed by its owner is still one: by its product type, its device or the store's mark.
        let renamed = Writer(store: .healthKit, name: "Jane’s Watch", bundleIdentifier: "com.apple.health.5F3C",
                             productType: "Watch6,2")
        #expect(renamed.provenance() == "HealthKit estimate by Jane’s Watch")
        #expect(Writer(store: .healthKit, name: "Jane’s Watch").provenance(device: Device(model: "Watch"))
            == "HealthKit estimate by Jane’s Watch")
        #expect(Writer(store: .healthKit, name: "Jane’s Watch").provenance(isAppleWatch: true)
            == "HealthKit estimate by Jane’s Watch")
    }

    @Test func anotherHealthKitWriterWroteItsNumberIntoHealthKit() {
        #expect(Writer(store: .healthKit, name: "Withings").provenance() == "written by Withings into HealthKit")
        #expect(Writer(store: .healthKit, name: "Polar Flow").provenance() == "written by Polar Flow into HealthKit")
        #expect(Writer(store: .healthKit, name: "Oura").provenance() == "written by Oura into HealthKit")
        // Without the mark or a watch's details, a name alone is what decides.
        #expect(Writer(store: .healthKit, name: "Jane’s Watch").provenance() == "written by Jane’s Watch into HealthKit")
    }

    @Test func healthConnectWritersAreNamedWithTheirApp() {
        #expect(Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura").provenance()
            == "written by Oura (com.ouraring.oura) (Health Connect)")
        #expect(Writer(store: .healthConnect, name: "com.example.log").provenance()
            == "written by com.example.log (Health Connect)")
        // The store's watch mark is HealthKit's (R3): a Health Connect writer is never the HealthKit estimate.
        #expect(Writer(store: .healthConnect, name: "Apple Watch").provenance(isAppleWatch: true)
            == "written by Apple Watch (Health Connect)")
    }

    @Test func valuesHealthAutoExportRelayedWithoutOneWriterSaySo() {
        let combined = Writer(store: .healthKit, name: Writer.combinedName(["Jane’s Apple Watch", "Oura"]))
        #expect(combined.provenance() == "combined by Health Auto Export from Jane’s Apple Watch and Oura (HealthKit)")
        let unnamed = Writer(store: .healthKit, name: Writer.unnamedHealthAutoExport)
        #expect(unnamed.provenance() == "HealthKit values Health Auto Export sent without their writer’s name")
    }
}
