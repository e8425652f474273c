import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

@Suite("Health Connect export: heart-rate series for the empty state")
struct HealthConnectHeartRateTests {
    @Test("series samples are counted per writer and local day in the record's start offset")
    func perWriterAndDay() throws {
        let db = try HealthConnectTestDatabase.scratch()
        let watch = try db.addApp("com.samsung.android.wear.shealth", name: "Samsung Health")
        let band = try db.addApp("com.fitbit.FitbitMobile", name: nil)
        // In Tokyo (+09:00) 16:30Z is already the 11th; 14:00Z is still the 10th.
        try db.addHeartRate(uuid: "000000000000000000000000000000a1", app: watch, startOffset: 9 * 3600, samples: [
            (epochMillis("2026-03-10T14:00:00Z"), 70), (epochMillis("2026-03-10T16:30:00Z"), 64), (epochMillis("2026-03-10T16:31:00Z"), 66),
        ])
        try db.addHeartRate(uuid: "000000000000000000000000000000a2", app: band, startOffset: 0, samples: [
            (epochMillis("2026-03-10T23:59:00Z"), 80),
        ])
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.isEmpty)
        let summaries = batch.heartRate.map { "\($0.writer.name) \($0.day) \($0.notSet) \($0.sedentary) \($0.active) \($0.recordKey)" }
        #expect(summaries == [
            "com.fitbit.FitbitMobile 2026-03-10 1 0 0 ",
            "com.samsung.android.wear.shealth 2026-03-10 1 0 0 ",
            "com.samsung.android.wear.shealth 2026-03-11 2 0 0 ",
        ])
        #expect(batch.heartRate.allSatisfy { $0.writer.store == .healthConnect })
        #expect(batch.heartRate.first { $0.writer.name == "com.samsung.android.wear.shealth" }?.writer.appName == "Samsung Health")
        #expect(file.recordsRead == 4)
    }

    @Test("a null start offset places samples by the machine's zone", arguments: [
        ("Asia/Tokyo", "2026-03-11"), ("America/New_York", "2026-03-10"),
    ])
    func nullOffsetUsesMachineZone(zone: String, day: String) throws {
        let db = try HealthConnectTestDatabase.scratch()
        let watch = try db.addApp("com.samsung.android.wear.shealth", name: nil)
        try db.addHeartRate(uuid: "000000000000000000000000000000b1", app: watch, startOffset: nil,
                            samples: [(epochMillis("2026-03-10T16:30:00Z"), 64)])
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: TimeZone(identifier: zone)!),
                                                progress: nil)
        #expect(file.batches.first?.heartRate.map(\.day) == [LocalDay(day)!])
    }

    @Test("an export with heart rate and no resting writer gives counts for the empty state (R9)")
    func heartRateOnly() throws {
        let db = try HealthConnectTestDatabase.scratch()
        let watch = try db.addApp("com.samsung.android.wear.shealth", name: "Samsung Health")
        let start = epochMillis("2026-03-10T08:00:00+01:00")
        try db.addHeartRate(uuid: "000000000000000000000000000000c1", app: watch, startOffset: 3600,
                            samples: (0..<120).map { (start + Int64($0) * 60_000, 60 + Int64($0 % 20)) })
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.isEmpty)
        let total = batch.heartRate.reduce(0) { $0 + $1.total }
        #expect(total == 120)
        let contents = StoreContents(store: .healthConnect, heartRateSamples: total,
                                     heartRateWriters: Array(Set(batch.heartRate.map(\.writer))))
        #expect(DataDiagnosis([contents]) == .noRestingWriter([contents]))
        #expect(DataDiagnosis.explanation(contents).contains("120 heart-rate samples from Samsung Health (com.samsung.android.wear.shealth)"))
    }

    @Test("a heart-rate record whose app is missing is passed over once, naming the record")
    func danglingHeartRateApp() throws {
        let db = try HealthConnectTestDatabase.scratch()
        try db.addHeartRate(uuid: "000000000000000000000000000000d1", app: 7, startOffset: 0,
                            samples: [(epochMillis("2026-03-10T16:30:00Z"), 64), (epochMillis("2026-03-10T16:31:00Z"), 65),
                                      (epochMillis("2026-03-10T16:32:00Z"), 66)])
        db.close()
        let file = try HealthConnectReader.read(path: db.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        // The record is kept once, however many samples it has.
        #expect(file.passedOver.records.map(\.reason) == ["row_id 1: app_info_id 7 has no row in application_info_table"])
        #expect(file.passedOver.records.map(\.place) == ["heart_rate_record_table row_id 1"])
        #expect(file.batches[0].heartRate.isEmpty)
    }
}
