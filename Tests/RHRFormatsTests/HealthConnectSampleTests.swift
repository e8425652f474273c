import Foundation
import RHRCore
import RHRFormats
import RHRTestSupport
import Testing

/// The committed samples (made by `scripts/make-health-connect-samples`, never run here) say what their
/// script's header says.
@Suite("Health Connect export: the bundled samples")
struct HealthConnectSampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/health-connect").path

    func read(_ name: String) throws -> SyncBatch {
        let file = try HealthConnectReader.read(path: HealthConnectSampleTests.folder + "/" + name,
                                                options: ImportOptions(machineZone: berlinZone), progress: nil)
        #expect(file.kind == .healthConnectZip(member: "health_connect_export.db"))
        return try #require(file.batches.first)
    }

    @Test("the first export: three writers, a trip, a null offset, a zero, the watch's heart rate")
    func firstExport() throws {
        let batch = try read("Health Connect.zip")
        #expect(Set(batch.resting.map(\.writer.name)) == [
            "com.ouraring.oura", "com.samsung.android.wear.shealth", "com.google.android.apps.fitness",
        ])
        #expect(batch.resting.contains { $0.offsetSeconds == 9 * 3600 })
        #expect(batch.resting.filter { $0.offsetSeconds == nil }.count == 1)
        #expect(batch.resting.contains { $0.value == 0 })
        #expect(batch.resting.contains { $0.recordingMethod == .manualEntry })
        #expect(batch.resting.first { $0.writer.name == "com.ouraring.oura" }?.device?.type == 4)
        #expect(Set(batch.heartRate.map(\.writer.name)) == ["com.samsung.android.wear.shealth"])
        #expect(batch.origin == "Health Connect export" && batch.asOf.localDay == LocalDay("2026-03-14"))
        // The member's time (with its UTC extended timestamp) is later than the newest record: it is asOf.
        #expect(batch.asOf == Timestamp.parse("2026-03-14T23:50:00+01:00"))
    }

    @Test("the export a week later: a week more, and the manual writer's deleted record is gone")
    func secondExport() throws {
        let first = try read("Health Connect.zip")
        let second = try read("Health Connect (2).zip")
        let gone = Set(first.resting.compactMap(\.uuid)).subtracting(second.resting.compactMap(\.uuid))
        #expect(gone.count == 1)
        #expect(first.resting.first { $0.uuid == gone.first }?.writer.name == "com.google.android.apps.fitness")
        #expect(first.asOf < second.asOf)
        #expect(second.origin == "Health Connect export" && second.asOf.localDay == LocalDay("2026-03-21"))
    }

    @Test("the heart-rate-only export has heart rate and no resting writer")
    func heartRateOnly() throws {
        let batch = try read("heart-rate-only.zip")
        #expect(batch.resting.isEmpty)
        #expect(batch.heartRate.reduce(0) { $0 + $1.total } == 7 * 48)
        #expect(Set(batch.heartRate.map(\.writer.name)) == ["com.fitbit.FitbitMobile"])
    }

    @Test("rhr import finds the reader by content: zip under any name, bare database, Health Auto Export JSON")
    func dispatchByContent() throws {
        let zip = try FileImporter.read(path: HealthConnectSampleTests.folder + "/Health Connect (2).zip",
                                        options: ImportOptions(machineZone: berlinZone))
        #expect(zip.kind == .healthConnectZip(member: "health_connect_export.db"))
        #expect(zip.batches.first?.stream == "health-connect-export")

        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("no extension"))
        let bare = try FileImporter.read(path: path, options: ImportOptions(machineZone: berlinZone))
        #expect(bare.kind == .healthConnectDatabase)
        #expect(bare.batches.first?.resting.count == 5)

        let hae = try FileImporter.read(path: HealthAutoExportSampleTests.path, options: ImportOptions(machineZone: berlinZone))
        #expect(hae.kind == .healthAutoExportJSON)
        #expect(hae.batches.first?.stream == "health-auto-export")
    }
}
