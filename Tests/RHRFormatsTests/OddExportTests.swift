import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

/// Real exports that do not look like a recent iPhone's (docs/design.md section 2): `Samples/odd-exports/`.
@Suite("Apple Health exports of other shapes")
struct OddExportTests {
    static func sample(_ name: String) -> String { SourceTree.samples + "/odd-exports/" + name }

    func read(_ name: String) throws -> ImportedFile {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.sample(name))))
        return try readAppleHealth(bytes: bytes, name: name, options: ImportOptions(machineZone: utc))
    }

    @Test("iOS 8–9: the writer in source=, compact dates in ExportDate and records")
    func iOS9() throws {
        let file = try read("ios9-export.xml")
        let batch = try #require(file.batches.first)
        #expect(file.recordsRead == 6)
        #expect(batch.asOf == Timestamp.parse("2015-11-07 17:19:24 +0100"))
        #expect(batch.asOf.offsetSeconds == 3600)
        #expect(batch.resting.isEmpty)
        #expect(batch.heartRate.map { "\($0.writer.name) \($0.day) \($0.total)" } == [
            "Jane’s Apple Watch 2015-11-05 2", "Jane’s Apple Watch 2015-11-06 1", "Polar H7 2015-11-06 1",
        ])
        #expect(batch.heartRate.last?.histogramText.contains("150") == false)   // not sedentary: context not set
        #expect(file.notes.isEmpty)
    }

    @Test("compact dates and source= on a resting record too; sourceName wins when both are there")
    func compactResting() throws {
        let xml = appleHealthExport("""
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" source="Jane’s Apple Watch" unit="count/min" creationDate="20171105235900+0100" startDate="20171105000000+0100" endDate="20171105235000+0100" value="58"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" source="old" sourceName="Oura" unit="count/min" startDate="2017-11-05 07:00:00 +0100" endDate="2017-11-05 07:00:00 +0100" value="52"/>

            """, exportDate: "20171107171924+0100")
        let batch = try #require(try readAppleHealth(xml).batches.first)
        #expect(batch.resting.map(\.writer.name) == ["Jane’s Apple Watch", "Oura"])
        #expect(batch.resting[0].start == Timestamp.parse("2017-11-05 00:00:00 +0100")!.date)
        #expect(batch.resting[0].created == Timestamp.parse("2017-11-05 23:59:00 +0100")!.date)
        #expect(batch.asOf == Timestamp.parse("2017-11-07 17:19:24 +0100"))
        // A date that is neither form is passed over, naming the attribute (R14).
        let bad = try #require(try readAppleHealth(appleHealthExport(appleHealthRecord(start: "2017110500000+0100"))).passedOver.records.first)
        #expect(bad.reason.contains("startDate \"2017110500000+0100\" is not a date"))
    }

    @Test("a record without any source is passed over, naming both attributes")
    func noSource() throws {
        let xml = appleHealthExport("""
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" unit="count/min" startDate="2024-03-13 00:00:00 +0100" endDate="2024-03-13 23:00:00 +0100" value="58"/>

            """)
        #expect(try readAppleHealth(xml).passedOver.records.map(\.reason) == ["a RestingHeartRate record with no sourceName (or source)"])
    }

    @Test("no ExportDate: asOf is the latest end date in the file, and a note says so")
    func trimmed() throws {
        let file = try read("trimmed-export.xml")
        let batch = try #require(file.batches.first)
        // The step record ends last: every record's end counts, not only the heart records'.
        #expect(batch.asOf == Timestamp.parse("2024-05-03 21:15:00 +0200"))
        #expect(batch.resting.map(\.value) == [56, 59])
        #expect(file.notes == ["no <ExportDate>: taken as of the latest end date in the file, 2024-05-03T21:15:00+02:00"])
        // R3 relative to that: the watch's 3 May is provisional, so is 2 May (the day before).
        #expect(batch.resting.allSatisfy {
            ProvisionalRule.isProvisional(store: .healthKit, writerIsWatch: true, day: LocalDayRule.day(of: $0, machineZone: utc).day,
                                          asOf: batch.asOf)
        })
    }

    @Test("no ExportDate and no record: as of the file's time")
    func emptyAndUndated() throws {
        let xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n</HealthData>\n"
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", Array(xml.utf8))
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        let file = try AppleHealthReader.read(path: path, options: ImportOptions(machineZone: utc), progress: nil)
        #expect(file.batches.first?.asOf.epochSeconds == modified.timeIntervalSince1970)
        #expect(file.notes.first?.hasPrefix("no <ExportDate> and no dated record: taken as of the file's time") == true)
    }

    @Test("an export without any heart data still gives a batch: the store remembers it")
    func noHeartData() throws {
        let file = try read("no-heart-data-2019.xml")
        let batch = try #require(file.batches.first)
        #expect(batch.resting.isEmpty && batch.heartRate.isEmpty)
        #expect(batch.asOf == Timestamp.parse("2019-07-19 10:36:11 -0700"))
        #expect(file.recordsRead == 2)
    }
}

@Suite("Apple Health writers' spellings")
struct AppleHealthWriterSpellingTests {
    @Test("spellings of one writer are one writer with its spellings kept; a name with a NUL is passed over, never cut")
    func spellings() throws {
        let xml = appleHealthExport(appleHealthRecord(source: "Jane's Apple Watch")
            + appleHealthRecord(source: "Jane’s\u{a0}Apple Watch", start: "2024-03-12 00:01:00 +0100", end: "2024-03-12 23:30:00 +0100")
            + appleHealthRecord(source: "Jane’s Apple Watch|Jane’s Apple Watch", start: "2024-03-11 00:01:00 +0100", end: "2024-03-11 23:30:00 +0100")
            + appleHealthRecord(source: "Jane’s Apple Watch\u{0}X", start: "2024-03-10 00:01:00 +0100", end: "2024-03-10 23:30:00 +0100"))
        let file = try readAppleHealth(xml)
        let batch = file.batches[0]
        #expect(Set(batch.resting.map(\.writer.name)) == ["Jane’s Apple Watch"])
        #expect(batch.resting.count == 3)
        #expect(batch.writerSpellings == ["Jane’s Apple Watch": ["Jane's Apple Watch", "Jane’s Apple Watch|Jane’s Apple Watch",
                                                                 "Jane’s\u{a0}Apple Watch"]])
        #expect(file.passedOver.records.map(\.reason) == [#"sourceName "Jane’s Apple Watch<null>X" holds a NUL (U+0000) at character 19"#])
    }
}
