import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// The account of an import (docs/design.md R14): the import line names what became of every record read, and the
/// counts add up to the records read; a file of which nothing could be used exits 1 and dates no road. And R13's last
/// clause through `rhr import`: a file whose own time is later than the machine's clock is dated by when it was read.
@Suite("Every import's account adds up; no file dates a road into the future")
struct ImportAccountLineTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    // MARK: - The account of every reader

    /// Files of each kind with records rhr passes over or skips: an Apple export, Health Auto Export JSON and CSV, HC
    /// Webhook JSON, and sync batches with a Health Connect heart-rate record of several samples.
    func damagedFiles() throws -> [String] {
        let apple = PassedOverImportTests.export(PassedOverImportTests.resting(day: 11, value: "57")
            + PassedOverImportTests.resting(day: 12, value: "abc") + PassedOverImportTests.heartRate("2024-03-12 10:00:00 +0100", value: nil)
            + PassedOverImportTests.heartRate("2024-03-12 10:30:00 +0100", value: "70")
            + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"iPhone\" unit=\"count\" "
            + "startDate=\"2024-03-12 10:00:00 +0100\" endDate=\"2024-03-12 10:05:00 +0100\" value=\"120\"/>\n")
        let hae = """
            {"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-01-02 00:00:00 +0100","qty":5},
            {"date":"2024-01-03 00:00:00 +0100","qty":6}]},{"name":"resting_heart_rate","units":"count/min","data":[
            {"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"Watch"},{"date":"2024-01-03 00:00:00 +0100","qty":"abc","source":"Watch"}]},
            {"name":"heart_rate","units":"count/min","data":[{"date":"2024-01-02 09:00:00 +0100","Min":60,"Avg":65,"Max":70,"source":"Watch"}]}]}}
            """
        let csv = "Date,Resting Heart Rate (count/min),Heart Rate [Avg] (count/min),Step Count (count)\n"
            + "2024-01-02 00:00:00,55,66,100\n2024-01-03 00:00:00,abc,67,100\nnot a date,56,,\n2024-01-04 00:00:00,,68,\n"
        let webhook = """
            {"timestamp":"2024-01-03T07:00:00Z","app_version":"2.4.0","resting_heart_rate":[{"bpm":57,"time":"2024-01-02T05:58:00Z",
            "metadata":{"data_origin":"com.ouraring.oura"}},{"bpm":"x","time":"2024-01-02T05:58:00Z","metadata":{"data_origin":"com.ouraring.oura"}}],
            "heart_rate":[{"bpm":71,"time":"2024-01-02T06:00:00Z","metadata":{"data_origin":"com.ouraring.oura"}}],"steps":[{"count":5}]}
            """
        let batches = """
            {"store":"healthconnect","stream":"pixel","asOf":"2024-01-03T08:00:00+01:00","upserted":[\
            {"type":"RestingHeartRate","time":"2024-01-02T05:40:00Z","zoneOffset":"+01:00","beatsPerMinute":54,"metadata":{"id":"r1","dataOrigin":"com.ouraring.oura"}},\
            {"type":"RestingHeartRate","time":"yesterday","beatsPerMinute":54,"metadata":{"id":"r2","dataOrigin":"com.ouraring.oura"}},\
            {"type":"HeartRate","startTime":"2024-01-02T06:00:00Z","endTime":"2024-01-02T06:10:00Z","samples":[\
            {"time":"2024-01-02T06:00:00Z","beatsPerMinute":70},{"time":"2024-01-02T06:05:00Z","beatsPerMinute":72},\
            {"time":"2024-01-02T06:10:00Z","beatsPerMinute":71}],"metadata":{"id":"h1","dataOrigin":"com.ouraring.oura"}}],\
            "deleted":["r0","bad\\u0000id"]}
            """
        return [try rhr.sandbox.write("export.xml", apple), try rhr.sandbox.write("hae.json", hae),
                try rhr.sandbox.write("hae.csv", csv), try rhr.sandbox.write("webhook.json", webhook),
                try rhr.sandbox.write("batches.jsonl", batches + "\n")]
    }

    @Test func everyReadersRecordsAddUpAndEverySampleIsAccountedFor() throws {
        let samples = try FileManager.default.subpathsOfDirectory(atPath: SourceTree.samples).sorted()
            .filter { [".xml", ".zip", ".json", ".jsonl"].contains(where: $0.hasSuffix) }
            .map { SourceTree.samples + "/" + $0 }
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        for path in try damagedFiles() + samples {
            let file = try FileImporter.read(path: path, options: ImportOptions(machineZone: utc))
            #expect(file.recordsRead == file.accounted, "\(path): \(file.recordsRead) read, \(file.accounted) accounted")
            let outcomes = try store.apply(file.batches)
            #expect(outcomes.map(\.samples.accounted) == file.batches.map(\.resting.count), "\(path)")
        }
        // The damaged files did pass over and skip some of each.
        let batches = try FileImporter.read(path: rhr.sandbox.directory.file("batches.jsonl"), options: ImportOptions(machineZone: utc))
        #expect(batches.recordsRead == 4 && batches.heartRateRead == 1 && batches.passedOver.total == 2)
        let hae = try FileImporter.read(path: rhr.sandbox.directory.file("hae.json"), options: ImportOptions(machineZone: utc))
        #expect(hae.skipped == ["points of other metrics": 2] && hae.recordsRead == 5)
    }

    @Test func theImportLineNamesEachOutcome() throws {
        let path = try damagedFiles()[0]
        let imported = rhr.run(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let expected: String = "\(path): Apple Health export (XML): 5 records read; HealthKit resting samples 1 added, "
            + "0 replaced, 0 deleted; 1 heart-rate reading (kept as day summaries, R8); 1 skipped: records of other types; "
            + "2 records passed over (kept in the store, rhr status lists them)\n"
        #expect(imported.stdout.hasPrefix(expected), "\(imported.stdout)")
    }

    /// The issue's case: an older export after a newer one said "0 added, 0 replaced, 0 deleted" and nothing else.
    @Test func anOlderExportAfterANewerOneSaysWhatBecameOfItsValues() throws {
        #expect(rhr.run(["import", InProcessRHR.sample("apple-health/exportar.zip")]).status == 0)
        let older = InProcessRHR.sample("apple-health/export-1.xml")
        let imported = rhr.run(["import", older])
        #expect(imported.status == 0)
        // 42 resting samples: 41 as the newer export has them, one it covers with another value; 122 heart rate, 23 others.
        let expected: String = "\(older): Apple Health export (XML): 187 records read; HealthKit resting samples 0 added, "
            + "0 replaced, 0 deleted, 41 unchanged, 1 set aside (a newer export covers their days); 1 out of range among them "
            + "(kept, excluded from the trend); 122 heart-rate readings (kept as day summaries, R8); 23 skipped: records of other "
            + "types\n"
        #expect(imported.stdout == expected)
    }

    // MARK: - Nothing could be used

    /// The issue's case: a spreadsheet re-saved a Health Auto Export CSV's dates, and all 750 rows were passed over.
    /// The file exits 1, keeps its passed-over rows, and the store's "as of" stays where it was.
    @Test func aFileOfWhichNothingCouldBeUsedExits1AndMovesNoAsOf() throws {
        #expect(rhr.run(["import", InProcessRHR.sample("odd-exports/hae-unwrapped.json")]).status == 0)
        let before = rhr.run(["status"]).stdout
        let export = rhr.run(["export"]).stdout
        let rows = (1...750).map { "12/\($0 % 28 + 1)/2023 0:00,\(50 + $0 % 10)," }
        let path = try rhr.sandbox.write("resaved.csv", (["Date,Resting Heart Rate (count/min),Heart Rate [Avg] (count/min)"] + rows)
            .joined(separator: "\n") + "\n")
        let imported = rhr.run(["import", path])
        #expect(imported.status == 1)
        #expect(imported.stdout.isEmpty)
        let expected: String = "rhr import: nothing in \(path) could be used: 750 records passed over, kept in the store "
            + "(rhr status lists them): 750 Health Auto Export rows whose date is not a date (first at line 2)\n"
        #expect(imported.stderr == expected, "\(imported.stderr)")
        let after = rhr.run(["status"]).stdout
        #expect(after.contains("passed over: 750 records, kept in the store raw:"), "\(after)")
        // The streams, their "as of" and the values are as they were.
        func streams(_ status: String) -> [String] { status.split(separator: "\n").filter { $0.contains("as of") }.map(String.init) }
        #expect(streams(after) == streams(before) && !streams(before).isEmpty)
        #expect(rhr.run(["export"]).stdout == export)
        // In a new store too: nothing but the passed-over rows, no road.
        let fresh = try InProcessRHR()
        #expect(fresh.run(["import", path]).status == 1)
        #expect(!fresh.run(["status"]).stdout.contains("as of"))
    }

    // MARK: - R13: no file dates a road into the future

    /// Today plus `days`, written as an Apple export writes a date.
    static func appleDate(_ days: Double) -> String {
        Timestamp(date: Date().addingTimeInterval(days * 86_400), offsetSeconds: 0).iso8601
            .replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "+00:00", with: " +0000").prefix(19) + " +0000"
    }

    static func appleExport(exportDate: String, days: [(String, Int)]) -> String {
        PassedOverImportTests.export(days.map { day, value in
            " <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"Withings\" unit=\"count/min\" "
                + "startDate=\"\(day) 07:00:00 +0000\" endDate=\"\(day) 07:00:00 +0000\" value=\"\(value)\"/>\n"
        }.joined()).replacingOccurrences(of: "2024-03-20 21:00:00 +0100", with: exportDate)
    }

    @Test func anAppleExportDated2099IsDatedByWhenItWasReadAndALaterOneIsNotWedged() throws {
        let today = Timestamp(date: Date(), offsetSeconds: 0).localDay
        let yesterday = today.adding(days: -1).description
        let future = try rhr.sandbox.write("future.xml", Self.appleExport(exportDate: "2099-01-01 09:00:00 +0100",
                                                                          days: [(yesterday, 61), ("2098-12-30", 40)]))
        let imported = rhr.run(["import", future])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("; export dated 1 Jan 2099, later than this machine's clock: dated by when it was read ("),
                "\(imported.stdout)")
        #expect(!rhr.run(["status"]).stdout.contains("2099"))
        // The value dated 2098 is kept and flagged, never a trend's or the chart's: the export's last day is yesterday.
        #expect(rhr.exportRows().map { $0.split(separator: ",").prefix(1).joined() } == [yesterday, "2098-12-30"])
        #expect(rhr.exportRows().last?.hasSuffix(",latest,,0,false,false,0,1,withings") == true, "\(rhr.exportRows())")
        // An export made an hour from now is believed, and decides.
        let genuine = try rhr.sandbox.write("genuine.xml", Self.appleExport(exportDate: Self.appleDate(1 / 24.0), days: [(yesterday, 59)]))
        let later = rhr.run(["import", genuine])
        #expect(later.status == 0 && !later.stdout.contains("later than this machine's clock"), "\(later.stdout)")
        #expect(later.stdout.contains("1 replaced"), "\(later.stdout)")
        #expect(rhr.exportRows().first?.contains(",latest,59,") == true, "\(rhr.exportRows())")
    }

    /// A Health Auto Export file carries no time but its own modification time, which orders files of one instant
    /// (R12): a file whose clock said 2099 would win every tie for ever; its time is not used.
    @Test func aHealthAutoExportFileMadeIn2099IsNotLater() throws {
        let dir = try TemporaryDirectory()
        let paths = try SameInstantFilesTests.files([65, 64], in: dir)
        try FileManager.default.setAttributes([.modificationDate: date("2099-01-01T00:00:00Z")], ofItemAtPath: paths[0])
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: paths[1])
        let first = rhr.run(["import", paths[0]])
        #expect(first.stdout.contains("; file dated 1 Jan 2099, later than this machine's clock: its time is not used"),
                "\(first.stdout)")
        // The genuine file, made an hour from now, is the one made later: it decides.
        #expect(rhr.run(["import", paths[1]]).status == 0)
        #expect(rhr.exportRows(["--from", "2023-06-30"]).first?.contains(",latest,64,") == true, "\(rhr.exportRows())")
    }

    @Test func aBatchFileDated2099IsDatedByWhenItWasRead() throws {
        let line = #"{"store":"healthkit","stream":"iphone","asOf":"2099-01-01T08:00:00+01:00","cursor":{"previous":null,"next":"a1"},"#
            + #""upserted":[{"type":"restingHeartRate","uuid":"A","start":"2026-11-27T00:05:00+01:00","end":"2026-11-27T22:00:00+01:00","#
            + #""value":61,"unit":"count/min","source":{"name":"Withings"}}]}"#
        let path = try rhr.sandbox.write("future.jsonl", line + "\n")
        let imported = rhr.run(["import", path])
        #expect(imported.stdout.contains("; batch dated 1 Jan 2099, later than this machine's clock: dated by when it was read ("),
                "\(imported.stdout)")
        #expect(!rhr.run(["status"]).stdout.contains("2099"))
    }
}
