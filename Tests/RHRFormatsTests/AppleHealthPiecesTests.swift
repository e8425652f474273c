import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// A bare export scanned in pieces on several threads reads exactly as in one piece, wherever the pieces start:
/// a start that is no boundary between top-level records is found out, and the piece before reads on.
@Suite("Apple Health export in pieces")
struct AppleHealthPiecesTests {
    /// What reading a file gave: its batches and counts, or the error.
    private enum Outcome: Equatable {
        case read(batches: [SyncBatch], records: Int, notes: [String], skipped: [String: Int])
        case failed(offset: Int64?, message: String)

        var isError: Bool {
            if case .failed = self { return true }
            return false
        }
    }

    private static func outcome(_ path: String, _ tuning: AppleHealthReader.Tuning) -> Outcome {
        do {
            let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
            return .read(batches: file.batches, records: file.recordsRead, notes: file.notes, skipped: file.skipped)
        } catch {
            return .failed(offset: error.offset, message: error.message)
        }
    }

    /// Reads `xml` in one piece, then in two pieces split at every byte (and in three, at every `stride`th), and
    /// expects the same every time; returns the one-piece outcome.
    @discardableResult
    private static func expectSameAtEverySplit(_ xml: String, stride: Int = 1,
                                               sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", Array(xml.utf8))
        let size = Int64(xml.utf8.count)
        let whole = outcome(path, AppleHealthReader.Tuning(blockSize: 64, pieces: 1))
        for split in Swift.stride(from: Int64(1), to: size, by: stride) {
            let two = outcome(path, AppleHealthReader.Tuning(blockSize: 64, pieceStarts: [0, split]))
            #expect(two == whole, "split at \(split)", sourceLocation: sourceLocation)
        }
        for split in Swift.stride(from: Int64(1), to: size / 2, by: stride * 7) {
            let three = outcome(path, AppleHealthReader.Tuning(blockSize: 5, pieceStarts: [0, split, size / 2 + split]))
            #expect(three == whole, "splits at \(split) and \(size / 2 + split)", sourceLocation: sourceLocation)
        }
        return whole
    }

    @Test("every kind of markup, split at every byte: comments, CDATA, DTD, correlations, metadata, entities")
    func everyMarkup() throws {
        let whole = try Self.expectSameAtEverySplit(AppleHealthDamageTests.whole)
        #expect(!whole.isError)
    }

    @Test("records at one space of indent that are not top-level, split at every byte")
    func lookalikeBoundaries() throws {
        // Each of these holds `\n <Record `, where the pieces' starts are guessed, at a place that is no boundary.
        let xml = appleHealthExport("""
             <!--
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="X" unit="count/min" startDate="2024-03-13 00:01:00 +0100" endDate="2024-03-13 23:30:00 +0100" value="99"/>
             -->
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health Mate" startDate="2024-03-13 08:00:00 +0100" endDate="2024-03-13 08:00:00 +0100">
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Y" unit="count/min" startDate="2024-03-13 00:01:00 +0100" endDate="2024-03-13 23:30:00 +0100" value="98"/>
             </Correlation>
             <Note><![CDATA[
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Z"/>
             ]]></Note>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2024-03-13 10:00:00 +0100" endDate="2024-03-13 10:00:00 +0100" value="64">
             <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
             </Record>
            \(appleHealthRecord(type: "HKQuantityTypeIdentifierStepCount", source: "Jane’s iPhone", device: appleHealthPhoneDevice, unit: "count", value: "12"))\(appleHealthRecord(type: "HKQuantityTypeIdentifierStepCount", source: "Jane’s Watch", device: appleHealthWatchDevice, unit: "count", value: "12"))\(appleHealthRecord(value: "57"))
            """)
        let whole = try Self.expectSameAtEverySplit(xml)
        #expect("\(whole)".contains("Jane’s Watch"))
    }

    @Test("errors are the first in the file, at their byte, wherever the pieces start")
    func errors() throws {
        let good = appleHealthRecord(value: "57")
        let bad = appleHealthRecord(start: "2024-13-13 00:01:00 +0100")
        // A record rhr cannot use is passed over, the same wherever the pieces start (R14).
        let passed = try Self.expectSameAtEverySplit(appleHealthExport(good + bad + good + bad))
        guard case .read(let batches, _, _, _) = passed else { Issue.record("\(passed)"); return }
        #expect(batches[0].passedOver.records.count == 2 && batches[0].resting.count == 2)
        for xml in [appleHealthExport(good + good + "<!x y z w>\n" + good), appleHealthExport(good + good) + "<HealthData>"] {
            let whole = try Self.expectSameAtEverySplit(xml)
            #expect(whole.isError, "\(whole)")
        }
        // Cut short after records: what came before the cut, the same wherever the pieces start.
        for xml in [String(appleHealthExport(good + good).dropLast(9)), appleHealthExport(good + " <!-- " + good)] {
            let whole = try Self.expectSameAtEverySplit(xml)
            guard case .read(let batches, _, let notes, _) = whole else { Issue.record("\(whole)"); continue }
            #expect(notes.first?.hasPrefix("cut short at byte") == true, "\(notes)")
            #expect(batches[0].resting.count >= 1)
        }
    }

    @Test("where blocks end never changes what is read: a value running past its tag's >, a value's quote at a block's end, a malformed tag, text after a tag, a raw < in a value")
    func blockBoundaries() throws {
        // Found by the fuzz target: each of these was read differently by different block sizes.
        let runOn = appleHealthExport(appleHealthRecord(), exportDate: "2024-03-14 21:05:33 +0100/>\n <!-- a comment -->\n <Me x=")
        let glued = appleHealthExport(appleHealthRecord()).replacingOccurrences(of: "+0100\"/>", with: "+0100\"x=\"y\"/>")
        let unquoted = appleHealthExport(" <Foo a=b/> x>\n" + appleHealthRecord())
        // Text between elements, which Apple never writes, with a `>` in it: the next `<` bounds the tag before.
        let textAfter = appleHealthExport(" text x>\n" + appleHealthRecord())
        for xml in [runOn, glued, unquoted, textAfter] {
            #expect(try appleHealthError(xml) != nil)
            #expect(try Self.expectSameAtEverySplit(xml).isError)
        }
        #expect(try appleHealthError(runOn)?.message.hasPrefix("ExportDate value \"2024-03-14 21:05:33 +0100/>  <!-- a comment -->") == true)
        #expect(try appleHealthError(glued)?.message == "expected white space between attributes in ExportDate")

        // A raw `<` in a value: the block may end inside the record after it, which is then read again, and counted once.
        let rawLess = appleHealthExport(appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", device: "a -->\n<!-- b --> c",
            start: "2024-03-13 10:00:00 +0100", end: "2024-03-13 10:00:00 +0100", value: "64") + appleHealthRecord())
        let file = try readAppleHealth(rawLess)
        #expect(file.recordsRead == 2)
        #expect(file.batches[0].heartRate.map(\.total) == [1])
        try Self.expectSameAtEverySplit(rawLess)
    }

    @Test("an export without ExportDate, or with a second one, reads the same in pieces")
    func exportDates() throws {
        let records = appleHealthRecord(value: "57") + appleHealthRecord(type: "HKQuantityTypeIdentifierStepCount",
            source: "Phone", unit: "count", end: "2024-03-14 23:30:00 +0100", value: "12") + appleHealthRecord(value: "58")
        let missing = try Self.expectSameAtEverySplit("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n\(records)</HealthData>\n")
        #expect("\(missing)".contains("no <ExportDate>"))
        try Self.expectSameAtEverySplit(appleHealthExport(records + " <ExportDate value=\"2024-04-01 10:00:00 +0200\"/>\n" + records))
    }

    @Test("the bundled sample exports read the same in pieces")
    func samples() throws {
        for name in ["export-1.xml", "export-2.xml"] {
            let xml = try String(contentsOfFile: AppleHealthSampleTests.folder + "/" + name, encoding: .utf8)
            try Self.expectSameAtEverySplit(xml, stride: 997)
        }
    }

    @Test("pieces start at a record at the start of a line, one per share of the file")
    func starts() throws {
        let records = (0..<40).map { appleHealthRecord(value: "\(50 + $0)") }.joined()
        let xml = appleHealthExport(records)
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", Array(xml.utf8))
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let starts = AppleHealthPieces.starts(descriptor: file.descriptor, size: file.size, pieces: 3)
        #expect(starts.count == 3)
        #expect(starts.first == 0)
        let bytes = Array(xml.utf8)
        for (k, start) in starts.enumerated().dropFirst() {
            #expect(start >= file.size * Int64(k) / 3)
            #expect(Array(bytes[Int(start - 2)..<Int(start + 8)]) == Array("\n <Record ".utf8))
        }
        // Read in those pieces (the default reads a file this small in one).
        let tuning = AppleHealthReader.Tuning(blockSize: 100, pieces: 3, piecesFrom: 0)
        #expect(Self.outcome(path, tuning) == Self.outcome(path, AppleHealthReader.Tuning(pieces: 1)))
        #expect(try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
            .batches[0].resting.map(\.value) == (0..<40).map { Double(50 + $0) })
    }
}
