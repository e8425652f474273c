import Foundation
import RHRTestSupport
import Testing

/// Export files through the real binary into a real store: snapshots (R4), older exports, truncation.
@Suite("rhr import of export files")
struct ExportFileImportTests {
    let rhr: RHRSandbox

    init() throws { rhr = try RHRSandbox() }
    var apple: String { SourceTree.samples + "/apple-health" }
    var healthConnect: String { SourceTree.samples + "/health-connect" }

    func rows(_ args: [String]) throws -> [String] {
        try rhr.run(["export"] + args).stdout.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test func twoAppleExportsInARowReplaceTheDraft() throws {
        #expect(try rhr.run(["import", apple + "/export.zip"]).status == 0)
        #expect(try rows(["--from", "2026-03-14", "--to", "2026-03-14"]).contains(
            "2026-03-14,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,61,1,true,false,0,0,apple-watch"))
        let second = try rhr.run(["import", apple + "/exportar.zip"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 deleted"))
        let day = try rows(["--from", "2026-03-14", "--to", "2026-03-14"])
        #expect(day.contains("2026-03-14,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,58,1,false,false,0,0,apple-watch"))
        #expect(!day.joined().contains(",61,"))
        #expect(try rhr.run(["summary"]).stdout.contains("draft 61 → 58 (Apple Health export, 17 Mar 20:10 +00:00)"))
    }

    /// What every view of the store says: the export under each aggregation, and the summary.
    func everything(_ sandbox: RHRSandbox) throws -> [String] {
        try ["latest", "lowest", "mean"].flatMap { a in
            [try sandbox.run(["export", "--aggregate", a]).stdout, try sandbox.run(["export", "--format", "json", "--aggregate", a]).stdout]
        } + [try sandbox.run(["summary", "--days", "60"]).stdout]
    }

    @Test func anOlderExportImportedLateIsAnOlderRoadNotARefusal() throws {
        try rhr.imported(["import", apple + "/exportar.zip"])
        let before = try rhr.run(["export"]).stdout
        let older = try rhr.run(["import", apple + "/export-1.xml"])
        #expect(older.status == 0, "\(older.stderr)")
        // It decides nothing the newer export holds: the trend is the newer export's (R12).
        #expect(older.stdout.contains("0 added, 0 replaced, 0 deleted"), "\(older.stdout)")
        #expect(try rhr.run(["export"]).stdout == before)
        // Its draft of 14 Mar is in the history, replaced by the newer export's value.
        #expect(try rhr.run(["summary"]).stdout.contains("draft 61 → 58 (Apple Health export, 17 Mar 20:10 +00:00)"))
        // The other order ends in the same store.
        let other = try RHRSandbox()
        try other.imported(["import", apple + "/export-1.xml"])
        try other.imported(["import", apple + "/exportar.zip"])
        #expect(try everything(other) == everything(rhr))
        // --force is accepted for scripts written for older versions, and changes nothing.
        let forced = try rhr.run(["import", "--force", apple + "/export-1.xml"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("0 added, 0 replaced, 0 deleted"))
        #expect(try rhr.run(["import", "--help"]).stdout.contains("accepted and ignored"))
    }

    @Test func aTruncatedExportChangesNothing() throws {
        try rhr.imported(["import", apple + "/export.zip"])
        let before = try rhr.run(["export"]).stdout
        let whole = try Data(contentsOf: URL(fileURLWithPath: apple + "/export-2.xml"))
        let cut = rhr.home + "/export-cut.xml"
        try whole.prefix(50_000).write(to: URL(fileURLWithPath: cut))
        // Cut after its first record (R14): what came before the cut is read, the cut said, and nothing replaced.
        let result = try rhr.run(["import", cut])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("; cut short at byte 50000 (truncated: the file ends inside a tag that starts at byte "),
                "\(result.stdout)")
        #expect(try rhr.run(["export"]).stdout == before)
        // Cut before it: refused, and named as truncated.
        let early = rhr.home + "/export-early.xml"
        try whole.prefix(600).write(to: URL(fileURLWithPath: early))
        let refused = try rhr.run(["import", early])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("export-early.xml: read as an Apple Health export (XML): byte 600: truncated"), "\(refused.stderr)")
        // A zip cut short is refused the same way.
        let zip = try Data(contentsOf: URL(fileURLWithPath: apple + "/exportar.zip"))
        let cutZip = rhr.home + "/cut.zip"
        try zip.prefix(zip.count / 2).write(to: URL(fileURLWithPath: cutZip))
        let zipResult = try rhr.run(["import", cutZip])
        #expect(zipResult.status == 1)
        #expect(zipResult.stderr.contains("cut.zip"))
        #expect(zipResult.stderr.contains("the zip is truncated or damaged"), "\(zipResult.stderr)")
        #expect(zipResult.stderr.hasSuffix("; copy it again from the phone\n"), "\(zipResult.stderr)")
        #expect(try rhr.run(["export"]).stdout == before)
    }

    @Test func healthConnectExportsInARowHonourADeletion() throws {
        #expect(try rhr.run(["import", healthConnect + "/Health Connect.zip"]).status == 0)
        let first = try rhr.run(["export"]).stdout
        let second = try rhr.run(["import", healthConnect + "/Health Connect (2).zip"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 deleted"))
        let after = try rhr.run(["export", "--to", "2026-03-14"]).stdout
        let firstRows = Set(first.split(separator: "\n").filter { $0.prefix(10) <= "2026-03-14" || $0.hasPrefix("date") })
        let afterRows = Set(after.split(separator: "\n"))
        // Exactly one writer-day disappeared: the record the writer deleted.
        #expect(firstRows.subtracting(afterRows).count == 1)
        #expect(afterRows.subtracting(firstRows).isEmpty)
    }

    @Test func heartRateOnlyExportSaysThereIsNoRestingWriter() throws {
        #expect(try rhr.run(["import", healthConnect + "/heart-rate-only.zip"]).status == 0)
        let summary = try rhr.run(["summary"]).stdout
        #expect(summary.contains("heart-rate samples from Fitbit (com.fitbit.FitbitMobile) and no resting heart rate."))
        #expect(summary.contains("does not derive resting heart rate"))
        #expect(try rhr.run(["export"]).stdout == "date,store,writer,writer_name,aggregate,bpm,samples,provisional,offset_assumed,out_of_range,implausible_date,derivation\n")
    }
}
