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
            "2026-03-14,healthkit,Jane’s Apple Watch,latest,61,1,true,false,0"))
        let second = try rhr.run(["import", apple + "/exportar.zip"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 deleted"))
        let day = try rows(["--from", "2026-03-14", "--to", "2026-03-14"])
        #expect(day.contains("2026-03-14,healthkit,Jane’s Apple Watch,latest,58,1,false,false,0"))
        #expect(!day.joined().contains(",61,"))
        #expect(try rhr.run(["summary"]).stdout.contains("draft 61, replaced by 58 in the export of 17 Mar"))
    }

    @Test func anOlderExportIsRefusedUnlessForced() throws {
        try rhr.imported(["import", apple + "/exportar.zip"])
        let before = try rhr.run(["export"]).stdout
        let older = try rhr.run(["import", apple + "/export-1.xml"])
        #expect(older.status == 1)
        #expect(older.stderr.contains("export-1.xml: export of 14 Mar"), "\(older.stderr)")
        #expect(older.stderr.contains("is older than the newest"))
        #expect(older.stderr.contains("--force"))
        #expect(try rhr.run(["export"]).stdout == before)
        // Forced, it adds back only what it has that is missing, removing nothing.
        let forced = try rhr.run(["import", "--force", apple + "/export-1.xml"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("0 deleted"))
    }

    @Test func aTruncatedExportChangesNothing() throws {
        try rhr.imported(["import", apple + "/export.zip"])
        let before = try rhr.run(["export"]).stdout
        let whole = try Data(contentsOf: URL(fileURLWithPath: apple + "/export-2.xml"))
        let cut = rhr.home + "/export-cut.xml"
        try whole.prefix(50_000).write(to: URL(fileURLWithPath: cut))
        let result = try rhr.run(["import", cut])
        #expect(result.status == 1)
        #expect(result.stderr.contains("export-cut.xml: read as an Apple Health export (XML): byte 50000: truncated"), "\(result.stderr)")
        #expect(try rhr.run(["export"]).stdout == before)
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
        #expect(summary.contains("heart-rate samples from Fitbit (com.fitbit.FitbitMobile), but no app writes resting heart rate"))
        #expect(summary.contains("does not derive resting heart rate"))
        #expect(try rhr.run(["export"]).stdout == "date,store,writer,aggregate,bpm,samples,provisional,offset_assumed,out_of_range\n")
    }
}
