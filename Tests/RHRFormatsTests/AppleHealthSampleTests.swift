import Foundation
import RHRCore
import RHRFormats
import Testing

/// The committed samples (made by `scripts/make-apple-health-samples`, never run here) say what their script's
/// header says.
@Suite("Apple Health export: the bundled samples")
struct AppleHealthSampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/apple-health").path

    func read(_ name: String) throws -> ImportedFile {
        try AppleHealthReader.read(path: AppleHealthSampleTests.folder + "/" + name, options: ImportOptions(), progress: nil)
    }

    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")

    @Test("each zip holds the same export as its XML, under the member name its language gives")
    func zipsMatchXML() throws {
        let first = try read("export.zip"), second = try read("exportar.zip")
        #expect(first.kind == .appleHealthZip(member: "apple_health_export/export.xml"))
        #expect(second.kind == .appleHealthZip(member: "apple_health_export/exportar.xml"))
        #expect(try first.batches == read("export-1.xml").batches)
        #expect(try second.batches == read("export-2.xml").batches)
    }

    @Test("the first export: two writers, a watch draft for the export day, an out-of-range zero, motion contexts")
    func firstExport() throws {
        let file = try read("export-1.xml")
        let batch = try #require(file.batches.first)
        #expect(batch.asOf == Timestamp.parse("2026-03-14 08:30:00 +0100"))
        #expect(batch.origin == "Apple Health export" && batch.asOf.localDay == LocalDay("2026-03-14"))
        #expect(Set(batch.resting.map(\.writer.name)) == ["Jane’s Apple Watch", "Oura"])
        #expect(batch.watchWriters == ["Jane’s Apple Watch"])
        #expect(batch.resting.count == 42)
        #expect(batch.resting.filter { !$0.isInRange }.map(\.value) == [0])
        #expect(batch.resting.contains { $0.writer.name == "Oura" && $0.value != $0.value.rounded() })
        let draft = try #require(batch.resting.first { $0.writer == Self.watch && $0.end == Timestamp.parse("2026-03-14 08:10:00 +0100")?.date })
        #expect(draft.value == 61)
        #expect(draft.timeZoneIdentifier == "Europe/Berlin")
        // Top-level records only: the correlation's two and the HRV beats are not counted again.
        #expect(file.recordsRead == 187)
        let contexts = batch.heartRate.reduce(into: [0, 0, 0]) { $0[0] += $1.notSet; $0[1] += $1.sedentary; $0[2] += $1.active }
        #expect(contexts == [40, 62, 20])
        #expect(batch.heartRate.allSatisfy { $0.writer == Self.watch })
    }

    @Test("the second export: Apple replaced the 14 Mar draft, and there is a new draft for 17 Mar")
    func secondExport() throws {
        let batch = try #require(try read("export-2.xml").batches.first)
        #expect(batch.asOf == Timestamp.parse("2026-03-17 21:10:00 +0100"))
        let watch = batch.resting.filter { $0.writer == Self.watch }
        let march14 = watch.filter { LocalDayRule.day(of: $0, machineZone: TimeZone(identifier: "UTC")!).day == LocalDay("2026-03-14")! }
        #expect(march14.map(\.value) == [58])
        #expect(march14.first?.end == Timestamp.parse("2026-03-14 23:40:00 +0100")?.date)
        #expect(watch.last?.value == 60)
        #expect(watch.last?.end == Timestamp.parse("2026-03-17 20:50:00 +0100")?.date)
    }
}
