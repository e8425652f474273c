import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// `export.zip` as the phone makes it, under whatever name its language gives: the XML member is found by its
/// content, everything else in the archive is passed over. Zips are made with Info-ZIP's `zip` (scripts/setup).
@Suite("Apple Health export zips")
struct AppleHealthZipTests {
    static let export = appleHealthExport(appleHealthRecord(device: appleHealthWatchDevice, metadata: [("HKTimeZone", "Europe/Madrid")])
        + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Jane’s Apple Watch", device: appleHealthWatchDevice,
                            start: "2024-03-13 10:00:00 +0100", end: "2024-03-13 10:00:00 +0100", value: "64",
                            metadata: [("HKMetadataKeyHeartRateMotionContext", "1")]))

    /// Clinical records: a valid XML file full of text that must not be taken for the export.
    static let cda = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
        \(String(repeating: " <!-- padding past the first KiB -->\n", count: 40)) <text>HealthData <Record type="HKQuantityTypeIdentifierRestingHeartRate" value="99"/></text>
        </ClinicalDocument>

        """

    @Test("a zip under another name, whose XML member has another name, with export_cda.xml first")
    func anotherName() throws {
        let scratch = try TemporaryDirectory()
        let bare = try scratch.write("bare.xml", AppleHealthZipTests.export)
        try scratch.write("apple_health_export/export_cda.xml", AppleHealthZipTests.cda)
        try scratch.write("apple_health_export/exportar.xml", AppleHealthZipTests.export)
        try scratch.write("apple_health_export/workout-routes/route_2024-03-13_6.00pm.gpx", "<gpx><trk/></gpx>\n")
        try scratch.write("apple_health_export/electrocardiograms/ecg_2024-03-13.csv", "Name,Jane\n")
        let zip = try scratch.zip("exportar.zip", ["apple_health_export/export_cda.xml",
                                                   "apple_health_export/workout-routes/route_2024-03-13_6.00pm.gpx",
                                                   "apple_health_export/exportar.xml",
                                                   "apple_health_export/electrocardiograms/ecg_2024-03-13.csv"])
        let fromZip = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: nil)
        let fromXML = try AppleHealthReader.read(path: bare, options: ImportOptions(), progress: nil)
        #expect(fromZip.kind == .appleHealthZip(member: "apple_health_export/exportar.xml"))
        #expect(fromZip.path == zip)
        #expect(fromZip.batches == fromXML.batches)
        #expect(fromZip.recordsRead == 2)
        #expect(fromZip.batches[0].resting.map(\.value) == [58])
        #expect(fromZip.batches[0].resting.first?.timeZoneIdentifier == "Europe/Madrid")
        #expect(fromZip.batches[0].heartRate.map(\.sedentary) == [1])
        #expect(try InputKind.detect(path: zip) == fromZip.kind)
    }

    @Test("tiny blocks through the inflating thread read the same", arguments: [1, 3, 100, 4 << 20])
    func blocks(_ blockSize: Int) throws {
        let scratch = try TemporaryDirectory()
        let bare = try scratch.write("bare.xml", AppleHealthZipTests.export)
        try scratch.write("apple_health_export/vienti.xml", AppleHealthZipTests.export)
        let zip = try scratch.zip("vienti.zip", ["apple_health_export/vienti.xml"])
        let tuning = AppleHealthReader.Tuning(blockSize: blockSize, blocks: 2)
        let fromZip = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: nil, tuning: tuning)
        let fromXML = try AppleHealthReader.read(path: bare, options: ImportOptions(), progress: nil)
        #expect(fromZip.batches == fromXML.batches)
    }

    @Test("ZIP64 archives are read")
    func zip64() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("apple_health_export/export.xml", AppleHealthZipTests.export)
        let zip = try scratch.zip("export.zip", ["apple_health_export/export.xml"], extraOptions: ["-fz"])
        // Info-ZIP marks ZIP64 with a "zip64 end of central directory" record: PK\x06\x06.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        #expect(bytes.range(of: Data([0x50, 0x4B, 0x06, 0x06])) != nil)
        let file = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: nil)
        #expect(file.batches[0].resting.count == 1)
    }

    @Test("a zip without an export says what it holds")
    func noExport() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("apple_health_export/export_cda.xml", AppleHealthZipTests.cda)
        let zip = try scratch.zip("export.zip", ["apple_health_export/export_cda.xml"])
        #expect {
            _ = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: nil)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.message.contains("without an Apple Health export.xml")
                && error.message.contains("apple_health_export/export_cda.xml")
        }
    }

    @Test("an export cut short inside the zip is reported as truncated, naming the member and its byte")
    func truncatedMember() throws {
        let scratch = try TemporaryDirectory()
        let whole = AppleHealthZipTests.export
        let cut = String(whole.prefix(upTo: whole.range(of: "</HealthData>")!.lowerBound))
        try scratch.write("apple_health_export/export.xml", cut)
        let zip = try scratch.zip("export.zip", ["apple_health_export/export.xml"])
        let file = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: nil)
        #expect(file.notes.first?.hasPrefix("cut short at byte \(cut.utf8.count) of apple_health_export/export.xml (truncated") == true,
                "\(file.notes)")
    }

    @Test("a zip archive cut short is refused")
    func truncatedArchive() throws {
        let scratch = try TemporaryDirectory()
        let big = appleHealthExport((0..<3000).map { i in
            appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", start: "2024-03-13 10:00:00 +0100",
                              end: "2024-03-13 10:00:00 +0100", value: "\(50 + i % 97)")
        }.joined())
        try scratch.write("apple_health_export/export.xml", big)
        let zip = try scratch.zip("export.zip", ["apple_health_export/export.xml"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: zip))
        let cutZip = try scratch.write("cut.zip", Array(bytes.prefix(bytes.count / 2)))
        #expect(throws: InputError.self) {
            _ = try AppleHealthReader.read(path: cutZip, options: ImportOptions(), progress: nil)
        }
    }

    @Test("progress on a zip counts compressed bytes up to the archive's size")
    func progress() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("apple_health_export/export.xml", AppleHealthZipTests.export)
        let zip = try scratch.zip("export.zip", ["apple_health_export/export.xml"])
        let size = Int64(try FileManager.default.attributesOfItem(atPath: zip)[.size] as! Int)
        let calls = ProgressLog()
        _ = try AppleHealthReader.read(path: zip, options: ImportOptions(), progress: { calls.append(($0, $1)) })
        #expect(calls.all.last.map { $0 == (size, size) } == true)
    }
}
