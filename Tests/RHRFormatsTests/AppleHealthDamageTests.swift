import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// Exports that are cut short, damaged, or not exports at all: each is refused with the file, the byte offset and
/// what is wrong, before anything could be applied.
@Suite("Apple Health damaged exports")
struct AppleHealthDamageTests {
    /// A small export with every kind of markup the scanner meets, each of which a cut can land in.
    static let whole = appleHealthExport("""
         <!-- a comment -->
        \(appleHealthRecord(metadata: [("HKTimeZone", "Europe/Berlin")]))\(appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Jane&#x2019;s Apple Watch", device: appleHealthWatchDevice, start: "2024-03-13 10:00:00 +0100", end: "2024-03-13 10:00:00 +0100", value: "64", metadata: [("HKMetadataKeyHeartRateMotionContext", "1")])) <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health Mate" startDate="2024-03-13 08:00:00 +0100" endDate="2024-03-13 08:00:00 +0100">
          <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health Mate" unit="mmHg" startDate="2024-03-13 08:00:00 +0100" endDate="2024-03-13 08:00:00 +0100" value="124"/>
         </Correlation>
         <![CDATA[ ]]><?pi x?>

        """, prologue: "<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: 12 -->\n<!ATTLIST VisionPrescription\n  brand CDATA #IMPLIED\n<!ELEMENT RightEye EMPTY>\n]>\n")

    @Test("an export cut at any byte is reported as truncated at that byte: refused before its first record, read up to the cut after it (R14)")
    func truncatedAnywhere() throws {
        let bytes = Array(AppleHealthDamageTests.whole.utf8)
        // From the first byte the content is recognisable by, to the last byte before `</HealthData>` is whole.
        let first = Int(try #require(appleHealthByteOffset(of: "<!DOCTYPE HealthData", in: AppleHealthDamageTests.whole))) + 20
        let closing = Int(try #require(appleHealthByteOffset(of: "</HealthData>", in: AppleHealthDamageTests.whole)))
        #expect(try readAppleHealth(bytes: Array(bytes[..<(closing + 13)])).batches[0].resting.count == 1)
        let scratch = try TemporaryDirectory()
        // The first record is read once its start tag ends.
        let firstRecord = Int(try #require(appleHealthByteOffset(of: "<Record", in: AppleHealthDamageTests.whole)))
        let firstRead = firstRecord + Array(AppleHealthDamageTests.whole.utf8)[firstRecord...].firstIndex(of: UInt8(ascii: ">"))! - firstRecord + 1
        for cut in first..<(closing + 13) {
            let path = try scratch.write("export.xml", Array(bytes[..<cut]))
            for tuning in [AppleHealthReader.Tuning(), AppleHealthReader.Tuning(blockSize: 5, blocks: 2, threadedXML: false),
                           AppleHealthReader.Tuning(blockSize: 7, pieces: 3, piecesFrom: 0)] {
                do {
                    let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
                    #expect(cut >= firstRead, "cut at \(cut) was read")
                    #expect(file.notes.first?.hasPrefix("cut short at byte \(cut) (truncated") == true, "cut at \(cut): \(file.notes)")
                    // What it lost it does not speak for: it replaces nothing.
                    #expect(file.batches[0].snapshot?.coversResting == false && file.batches[0].snapshot?.coversHeartRate == false)
                } catch {
                    #expect(cut < firstRead, "cut at \(cut): \(error)")
                    #expect(error.offset == Int64(cut), "cut at \(cut): \(error)")
                    #expect(error.message.hasPrefix("truncated"), "cut at \(cut): \(error)")
                    #expect(error.path == path)
                }
            }
        }
    }

    @Test("the truncation message says where the cut is and what it cut")
    func truncationMessages() throws {
        let xml = AppleHealthDamageTests.whole
        let inTag = try #require(try appleHealthError(String(xml.prefix(upTo: xml.range(of: "unit=\"count/min\"")!.lowerBound))))
        let recordStart = try #require(appleHealthByteOffset(of: "<Record type=\"HKQuantityTypeIdentifierRestingHeartRate\"", in: xml))
        #expect(inTag.message.contains("inside a tag that starts at byte \(recordStart)"))
        // After records, the cut is said in the import's note (R14).
        let beforeEnd = try readAppleHealth(String(xml.prefix(upTo: xml.range(of: "</HealthData>")!.lowerBound)))
        #expect(beforeEnd.notes.first?.contains("before </HealthData>") == true, "\(beforeEnd.notes)")
        let inComment = try #require(try appleHealthError(String(xml.prefix(upTo: xml.range(of: " comment -->")!.lowerBound))))
        #expect(inComment.message.contains("inside a comment that starts at byte"))
        let inDoctype = try #require(try appleHealthError(String(xml.prefix(upTo: xml.range(of: "]>")!.lowerBound))))
        #expect(inDoctype.message.contains("inside the document type declaration that starts at byte"))
    }

    @Test("an export without ExportDate is read as of its latest end date, and says so (R3 needs a read time)")
    func missingExportDate() throws {
        let xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n\(appleHealthRecord())</HealthData>\n"
        #expect(try appleHealthError(xml) == nil)
        let file = try readAppleHealth(xml)
        #expect(file.batches.first?.asOf == Timestamp.parse("2024-03-13 23:30:00 +0100"))
        #expect(file.notes.first?.hasPrefix("no <ExportDate>") == true)
    }

    @Test("a record with a bad date, number or attribute is passed over with its byte offset and reason; the rest imports (R14)")
    func badRecords() throws {
        let cases: [(String, kind: String, reason: String)] = [
            (appleHealthRecord(start: "yesterday"), "RestingHeartRate whose startDate is not a date", "startDate \"yesterday\" is not a date"),
            (appleHealthRecord(end: "2024-03-13 23:30:00"), "RestingHeartRate whose endDate is not a date", "endDate \"2024-03-13 23:30:00\" is not a date"),
            (appleHealthRecord(created: "2024-02-30 10:00:00 +0100"), "RestingHeartRate whose creationDate is not a date", "creationDate \"2024-02-30"),
            (appleHealthRecord(value: "fifty"), "RestingHeartRate whose value is not a number", "value \"fifty\" is not a number"),
            (appleHealthRecord(start: "2024-03-14 00:01:00 +0100"), "RestingHeartRate whose endDate is before its startDate", "endDate is before its startDate"),
            (appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", value: ""), "HeartRate whose value is not a number", "value \"\" is not a number"),
            (appleHealthRecord(unit: "Hz"), "RestingHeartRate in a unit that is not a heart rate", "Hz"),
            (appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", unit: "mmHg"), "HeartRate in a unit that is not a heart rate", "mmHg"),
            (" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"W\" unit=\"count/min\" endDate=\"2024-03-13 23:30:00 +0100\" value=\"58\"/>\n",
             "RestingHeartRate without a startDate", "without startDate"),
            (" <Record type=\"HKQuantityTypeIdentifierHeartRate\" unit=\"count/min\" startDate=\"2024-03-13 23:30:00 +0100\" endDate=\"2024-03-13 23:30:00 +0100\" value=\"58\"/>\n",
             "HeartRate without a writer", "no sourceName"),
            (" <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W\" unit=\"count/min\" startDate=\"2024-03-13 23:30:00 +0100\" endDate=\"2024-03-13 23:30:00 +0100\"/>\n",
             "HeartRate without a value", "without value"),
            (" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"W\" startDate=\"2024-03-13 23:30:00 +0100\" endDate=\"2024-03-13 23:30:00 +0100\" value=\"58\"/>\n",
             "RestingHeartRate without a unit", "without unit"),
            (" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"W\" sourceName=\"V\" unit=\"count/min\" startDate=\"2024-03-13 23:30:00 +0100\" endDate=\"2024-03-13 23:30:00 +0100\" value=\"58\"/>\n",
             "Record with an attribute written twice", "two sourceName attributes"),
            (" <Record sourceName=\"W\" value=\"58\"/>\n", "Record without a type", "a Record without a type attribute"),
            (" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=W/>\n", "Record whose attributes do not parse", "a quote opening an attribute value"),
            (appleHealthRecord(source: ""), "RestingHeartRate without a writer", "a RestingHeartRate record with an empty sourceName"),
            (appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: ""), "HeartRate without a writer", "a HeartRate record with an empty sourceName"),
            (appleHealthRecord(source: "Jane\u{0}s Watch"), "RestingHeartRate whose writer's name holds a control character", "holds a NUL (U+0000) at character 5"),
        ]
        for (record, kind, reason) in cases {
            let xml = appleHealthExport(appleHealthRecord(source: "Fine") + record
                                        + appleHealthRecord(source: "Fine", start: "2024-03-14 00:01:00 +0100", end: "2024-03-14 23:30:00 +0100"))
            let file = try readAppleHealth(xml)
            // The records around it are read.
            #expect(file.batches[0].resting.map(\.writer.name) == ["Fine", "Fine"], "\(kind)")
            let offset = try #require(appleHealthByteOffset(of: record.dropFirst().description, in: xml))
            let passed = file.passedOver
            #expect(passed.records.count == 1, "\(kind)")
            #expect(passed.records.first?.kind == kind)
            #expect(passed.records.first?.place == "byte \(offset)", "\(kind)")
            #expect(passed.records.first?.reason.contains(reason) == true, "\(passed.records.first?.reason ?? "")")
            #expect(passed.records.first.map { record.contains($0.raw) && $0.raw.hasPrefix("<Record") } == true, "\(kind)")
        }
    }

    @Test("malformed markup is refused with its byte offset")
    func malformedMarkup() throws {
        // Text after a tag that does not parse: where the tag ends is not known, so it cannot be passed over.
        let stray = appleHealthExport(" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=W/> text\n")
        let error = try #require(try appleHealthError(stray))
        #expect(error.offset == appleHealthByteOffset(of: "W/>", in: stray))
        #expect(error.message.contains("a quote opening an attribute value"))

        let closesNothing = appleHealthExport("</Record>\n</Workout>\n")
        #expect(try appleHealthError(closesNothing)?.message.contains("closes the document element") == true)

        let mismatched = appleHealthExport(" <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"W\" unit=\"count/min\" startDate=\"2024-03-13 23:30:00 +0100\" endDate=\"2024-03-13 23:30:00 +0100\" value=\"58\">\n </Workout>\n")
        #expect(try appleHealthError(mismatched)?.message.contains("</Workout> closes the Record that starts at byte") == true)

        let secondDoctype = appleHealthExport("<!DOCTYPE HealthData>\n")
        #expect(try appleHealthError(secondDoctype)?.message.contains("document type declaration inside the document") == true)
    }

    @Test("a file whose document element is not HealthData is not an export")
    func notHealthData() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!-- <HealthData locale=\"en_US\"> -->\n<ClinicalDocument>\n</ClinicalDocument>\n"
        let error = try #require(try appleHealthError(xml))
        #expect(error.message.contains("the document element is <ClinicalDocument>, not <HealthData>"))
        #expect(error.offset == appleHealthByteOffset(of: "<ClinicalDocument>", in: xml))
    }

    @Test("files that are no export at all are refused by content")
    func notAnExport() throws {
        #expect(try appleHealthError("")?.message == "the file is empty")
        #expect(try appleHealthError("{\"data\":{}}")?.message.contains("not an Apple Health export") == true)
        let scratch = try TemporaryDirectory()
        #expect(throws: InputError.self) {
            _ = try AppleHealthReader.read(path: scratch.path + "/missing.xml", options: ImportOptions(), progress: nil)
        }
    }

    @Test("a tag longer than 1 MiB is refused instead of held in memory")
    func tagTooLong() throws {
        let long = String(repeating: "x", count: 2 * AppleHealthScanner.maxTagLength)
        let xml = appleHealthExport(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(long)\"/>\n")
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", xml)
        // Blocks smaller than the tag: the scanner must carry it and give up at the bound.
        let tuning = AppleHealthReader.Tuning(blockSize: 256 << 10, blocks: 2, threadedXML: true)
        #expect {
            _ = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
        } throws: { error in
            (error as? InputError)?.message.contains("a tag longer than") == true
                && (error as? InputError)?.offset == appleHealthByteOffset(of: "<Record type=\"HKQuantityTypeIdentifierStepCount\"", in: xml)
        }
    }

    @Test("a tag followed by more than 1 MiB of white space is well formed: read, not refused")
    func longWhiteSpaceAfterATag() throws {
        let space = String(repeating: " \n\t", count: AppleHealthScanner.maxTagLength / 2)
        for tag in [appleHealthRecord(), " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"x\"/>",
                    appleHealthRecord(metadata: [("HKTimeZone", "Europe/Berlin")])] {
            let xml = appleHealthExport(tag + space)
            let scratch = try TemporaryDirectory()
            let path = try scratch.write("export.xml", xml)
            for tuning in [AppleHealthReader.Tuning(), AppleHealthReader.Tuning(blockSize: 256 << 10, blocks: 2, threadedXML: true)] {
                let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
                #expect(file.recordsRead == 1)
            }
        }
        // After an end tag too.
        let xml = appleHealthExport(appleHealthRecord(metadata: [("HKTimeZone", "Europe/Berlin")]).replacingOccurrences(
            of: " </Record>", with: " </Record>" + space))
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", xml)
        #expect(try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil).batches.first?.resting.count == 1)
    }
}
