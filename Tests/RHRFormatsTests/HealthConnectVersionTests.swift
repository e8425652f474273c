import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

/// The first export as phones of each database version write it (`Samples/health-connect/versions/`, made by
/// scripts/make-health-connect-samples): read by what the database holds, not by its number (docs/design.md
/// section 2).
@Suite("Health Connect export: every database version from 9 on")
struct HealthConnectVersionTests {
    static let folder = SourceTree.samples + "/health-connect"

    func read(_ name: String) throws -> ImportedFile {
        try HealthConnectReader.read(path: Self.folder + "/" + name, options: ImportOptions(machineZone: berlinZone), progress: nil)
    }

    /// What a resting sample says, the device left out (a device data provider names its device anew).
    func facts(_ batch: SyncBatch) -> [String] {
        batch.resting.map {
            "\($0.uuid ?? "") \($0.writer.name) \($0.writer.appName ?? "") \($0.start.timeIntervalSince1970) "
                + "\($0.offsetSeconds.map(String.init) ?? "nil") \($0.value) \($0.recordingMethod?.rawValue ?? -1) "
                + "\($0.lastModified?.timeIntervalSince1970 ?? -1) \($0.clientRecordId ?? "") \($0.clientRecordVersion ?? -1)"
        }
    }

    func heartRate(_ batch: SyncBatch) -> [String] {
        batch.heartRate.map { "\($0.writer.name) \($0.day) \($0.notSet) \($0.sedentary) \($0.active)" }
    }

    @Test("each version holds the first export's values, read the same", arguments: [
        "versions/v9.zip", "versions/v18.zip", "versions/v20.zip", "versions/v23.zip", "versions/v23-upgraded.zip",
    ])
    func sameValues(name: String) throws {
        let grownFrom = try #require(try read("Health Connect.zip").batches.first)
        let file = try read(name)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.count == 31)
        #expect(facts(batch) == facts(grownFrom))
        #expect(heartRate(batch) == heartRate(grownFrom))
        #expect(batch.asOf == grownFrom.asOf, "the zip's own time, later than every record's")
        #expect(file.recordsRead == grownFrom.resting.count + batch.heartRate.reduce(0) { $0 + $1.total })
        #expect(file.passedOver.isEmpty && file.skipped.isEmpty)
    }

    @Test("a version newer than rhr knows is read by column names, and the import line says so")
    func newerVersionNoted() throws {
        #expect(try read("versions/v23.zip").notes == ["version 23, newer than rhr knows; read by column names"])
        #expect(try read("versions/v23-upgraded.zip").notes == ["version 23, newer than rhr knows; read by column names"])
        for known in ["versions/v9.zip", "versions/v18.zip", "versions/v20.zip"] {
            #expect(try read(known).notes.isEmpty, "\(known)")
        }
    }

    @Test("a record written through a device data provider is the provider app's, on its device by its display name",
          arguments: ["versions/v23.zip", "versions/v23-upgraded.zip"])
    func deviceDataProviders(name: String) throws {
        let batch = try #require(try read(name).batches.first)
        let ring = batch.resting.filter { $0.writer.name == "com.ouraring.oura" }
        #expect(ring.count == 14)
        let provided = ring.filter { LocalDayRule.day(of: $0, machineZone: berlinZone).day >= LocalDay("2026-03-08")! }
        #expect(provided.count == 7)
        #expect(provided.allSatisfy {
            $0.device == Device(name: "Jane's Oura Ring", manufacturer: "Oura", model: "Oura Ring Gen3", type: 4)
        })
        #expect(provided.first?.device?.summary == "Jane's Oura Ring (ring)")
        // Before the ring's app wrote through a provider, its records name the device as they always did.
        #expect(ring.filter { !provided.contains($0) }.allSatisfy {
            $0.device == Device(manufacturer: "Oura", model: "Oura Ring Gen3", type: 4)
        })
        #expect(batch.resting.contains { $0.device?.name == "Galaxy Watch6 (Jane)" && $0.writer.appName == "Samsung Health" })
        // No synthetic package is ever a writer, of a resting or a heart-rate record.
        let writers = Set(batch.resting.map(\.writer.name) + batch.heartRate.map(\.writer.name))
        #expect(writers == ["com.ouraring.oura", "com.samsung.android.wear.shealth", "com.google.android.apps.fitness"])
        #expect(batch.writerSpellings.isEmpty)
    }
}
