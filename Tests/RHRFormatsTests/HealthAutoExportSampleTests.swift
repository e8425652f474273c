import Foundation
import RHRCore
import RHRFormats
import Testing

@Suite("Health Auto Export: the bundled sample")
struct HealthAutoExportSampleTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json").path

    @Test("the sample is detected by content and read: two resting writers, the watch's heart rate, two skipped metrics")
    func sample() throws {
        #expect(try InputKind.detect(path: Self.path) == .healthAutoExportJSON)
        let file = try HealthAutoExportReader.read(path: Self.path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let batch = try #require(file.batches.first)
        #expect(Set(batch.resting.map(\.writer.name)) == ["Jane’s Apple Watch", "Oura"])
        #expect(batch.resting.count == 10)
        #expect(batch.heartRate.reduce(0) { $0 + $1.total } == 7)
        // Two other metrics' 14 points are read and skipped (the account, docs/design.md R14).
        #expect(file.skipped == ["points of other metrics": 14])
        #expect(file.recordsRead == 31)
        #expect(batch.origin == "Health Auto Export" && batch.asOf.localDay == LocalDay("2026-03-14"))
    }
}
