import Foundation
import RHRCore
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// Inputs as users have them: an unzipped export's folder, exports named in the phone's language with
/// `export_cda.xml` beside them, Health Auto Export CSV; and a failed import that leaves nothing behind.
@Suite("Import inputs as users have them")
struct ImportInputsCommandTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    static let export = PassedOverImportTests.export(PassedOverImportTests.resting(day: 11, value: "57"))
    static let cda = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
         <text>HealthData <Record type="HKQuantityTypeIdentifierRestingHeartRate" value="99"/></text>
        </ClinicalDocument>

        """
    static let row = "2024-03-11,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,57,1,false,false,0,0,apple-watch"

    func rows() -> [String] { rhr.exportRows() }

    /// What a Mac leaves after unzipping an export, at `folder` below the sandbox's home, with the export named `name`.
    func unzippedExport(in folder: String, named name: String) throws {
        _ = try rhr.sandbox.write("\(folder)/\(name)", Self.export)
        _ = try rhr.sandbox.write("\(folder)/export_cda.xml", Self.cda)
        _ = try rhr.sandbox.write("\(folder)/workout-routes/route_2024-03-11.gpx", "<gpx/>\n")
    }

    /// `rhr import` of the folder at `name` below the home: its lines, and that it succeeded.
    func importLines(_ name: String) -> (folder: String, lines: [String]) {
        let folder = rhr.sandbox.home + "/" + name
        let imported = rhr.run(["import", folder])
        #expect(imported.status == 0, "\(imported.stderr)")
        return (folder, imported.stdout.split(separator: "\n").map(String.init))
    }

    @Test func anUnzippedExportFolderImportsTheExportInIt() throws {
        try unzippedExport(in: "apple_health_export", named: "eksport.xml")
        let (folder, lines) = importLines("apple_health_export")
        #expect(lines == [
            "\(folder): a folder; rhr looked in it and its 1 subfolder: imports 1 file, passes by 2",
            "\(folder): imports eksport.xml",
            "\(folder): passes by export_cda.xml, workout-routes/route_2024-03-11.gpx (not a file rhr reads)",
            "\(folder)/eksport.xml: Apple Health export (XML): 1 record read; HealthKit resting samples 1 added, 0 replaced, 0 deleted",
        ], "\(lines)")
        #expect(rows() == [Self.row])
    }

    /// An unzipped export inside a download folder is found one level down; what else is there is passed by, each
    /// with why, and a folder deeper down is named as not looked into.
    @Test func aDownloadFolderIsSearchedOneLevelDown() throws {
        try unzippedExport(in: "downloads/apple_health_export", named: "export.xml")
        _ = try rhr.sandbox.write("downloads/notes.txt", "shopping list\n")
        _ = try rhr.sandbox.write("downloads/empty.json", "")
        _ = try rhr.sandbox.write("downloads/.DS_Store", "hidden\n")
        let (folder, lines) = importLines("downloads")
        #expect(lines == [
            "\(folder): a folder; rhr looked in it and its 1 subfolder: imports 1 file, passes by 4",
            "\(folder): imports apple_health_export/export.xml",
            "\(folder): passes by apple_health_export/export_cda.xml, notes.txt (not a file rhr reads); "
                + "apple_health_export/workout-routes/ (a folder two levels down, not looked into); empty.json (empty)",
            "\(folder)/apple_health_export/export.xml: Apple Health export (XML): 1 record read; HealthKit resting samples 1 added, "
                + "0 replaced, 0 deleted",
        ], "\(lines)")
        #expect(rows() == [Self.row])
    }

    @Test func aFolderWithNothingToImportSaysWhatItPassedBy() throws {
        _ = try rhr.sandbox.write("downloads/export_cda.xml", Self.cda)
        _ = try rhr.sandbox.write("downloads/deeper/still/export.xml", Self.export)
        let folder = rhr.sandbox.home + "/downloads"
        let none = rhr.run(["import", folder])
        #expect(none == SubprocessResult(status: 1, stdout: "", stderr: "rhr import: \(folder): a folder, and neither it nor its "
            + "1 subfolder holds a file rhr reads; passes by deeper/still/ (a folder two levels down, not looked into); "
            + "export_cda.xml (not a file rhr reads)\n"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    /// `rhr import Samples`: the samples are in its subfolders; every one rhr reads is imported, each on its own line.
    @Test func theSamplesFolderImportsEverySampleInItsSubfolders() throws {
        let imported = rhr.run(["import", SourceTree.samples])
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        // Counted as the folder holds them (other samples may join them).
        #expect(lines.first?.hasPrefix("\(SourceTree.samples): a folder; rhr looked in it and its ") == true, "\(imported.stdout)")
        #expect(lines.contains { $0.hasPrefix("\(SourceTree.samples): passes by ") && $0.contains("bridge/README.md")
            && $0.contains("systemd/rhr.service") && $0.contains(" (not a file rhr reads)") }, "\(imported.stdout)")
        for sample in ["apple-health/export-1.xml", "health-connect/Health Connect.zip", "batches/healthkit-iphone.jsonl",
                       "health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json", "phone-feeds/hc-webhook.json"] {
            #expect(lines.contains { $0.hasPrefix("\(SourceTree.samples)/\(sample): ") }, "\(sample): \(imported.stdout)")
        }
        #expect(!rows().isEmpty)
    }

    @Test func exportsNamedInThePhonesLanguageWithExportCDABesideThemImport() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("apple_health_export/export_cda.xml", Self.cda)
        try scratch.write("apple_health_export/export.xml", Self.export)
        let zip = try scratch.zip("exportar.zip", ["apple_health_export/export_cda.xml", "apple_health_export/export.xml"])
        let imported = rhr.run(["import", zip])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Apple Health export (zip): 1 record read"), "\(imported.stdout)")
        #expect(rows() == [Self.row])

        let other = try InProcessRHR()
        let bare = try other.sandbox.write("eksport.xml", Self.export)
        #expect(other.run(["import", bare]).status == 0)
        #expect(other.exportRows() == [Self.row])
    }

    @Test func aFailedImportCreatesNoStoreAndNoDirectory() throws {
        let dataDirectory = rhr.sandbox.dataHome + "/rhr"
        for path in [rhr.sandbox.home + "/nope.zip", try rhr.sandbox.write("notes.txt", "shopping list\n")] {
            let failed = rhr.run(["import", path])
            #expect(failed.status == 1)
            #expect(!FileManager.default.fileExists(atPath: dataDirectory), "\(path)")
        }
        let named = rhr.sandbox.home + "/stores/mine.sqlite"
        #expect(rhr.run(["import", "--store", named, rhr.sandbox.home + "/nope.zip"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.home + "/stores"))
    }

    @Test func healthAutoExportCSVImportsItsValuesOffsetAssumed() throws {
        let header = "Date,Active Energy (kcal),Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),"
            + "Heart Rate [Avg] (count/min),Resting Heart Rate (count/min),Step Count (count)"
        let path = try rhr.sandbox.write("HealthAutoExport-2024-03-11-2024-03-12.csv",
                                         header + "\n2024-03-10 00:00:00,400,47,125,70,56,6000\n2024-03-11 00:00:00,412,48,131,71,57,8123"
                                            + "\n2024-03-12 00:00:00,380,50,120,69,58,7000\n")
        let imported = rhr.run(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Of each row, a resting value and a heart-rate value were read; five columns are of other metrics.
        #expect(imported.stdout.hasPrefix("\(path): Health Auto Export CSV: 6 records read; HealthKit resting samples 3 added, "
                                          + "0 replaced, 0 deleted; 3 heart-rate readings (kept as day summaries, R8); "
                                          + "2 columns of other metrics not read"), "\(imported.stdout)")
        #expect(rows() == [
            // The CSV names no writer: a possible watch's values (R3), so the day before the file's asOf (its newest
            // value, 12 Mar) and later are provisional.
            "2024-03-10,healthkit,Health Auto Export,Health Auto Export,latest,56,1,false,true,0,0,unnamed-health-auto-export",
            "2024-03-11,healthkit,Health Auto Export,Health Auto Export,latest,57,1,true,true,0,0,unnamed-health-auto-export",
            "2024-03-12,healthkit,Health Auto Export,Health Auto Export,latest,58,1,true,true,0,0,unnamed-health-auto-export",
        ])
    }

    /// R3: a Health Auto Export value without `source`, in a file that names no watch, counts as a possible watch
    /// value: its last two days are provisional in the export, the summary and the dashboard's data alike.
    @Test func sourcelessHealthAutoExportValuesAreProvisionalForTheirLastTwoDays() throws {
        let path = try rhr.sandbox.write("HealthAutoExport.json", """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
             {"date":"2024-01-01 00:00:00 +0100","qty":54},{"date":"2024-01-02 00:00:00 +0100","qty":55},
             {"date":"2024-01-03 00:00:00 +0100","qty":57},{"date":"2024-01-03 00:00:00 +0100","qty":70,"source":"Oura"}]}]}}
            """)
        #expect(rhr.run(["import", path]).status == 0)
        #expect(rows().filter { $0.contains(",Health Auto Export,") }.map { $0.split(separator: ",")[7] } == ["false", "true", "true"])
        #expect(rows().filter { $0.contains(",Oura,") }.map { $0.split(separator: ",")[7] } == ["false"])
        let summary = rhr.run(["summary", "--days", "4000"], environment: ["TZ": "UTC"]).stdout
        #expect(summary.contains("\n2024-01-01  54\n2024-01-02  55 p\n2024-01-03  57 p   "), "\(summary)")
        // The samples the dashboard's loader reads, flags and all.
        let store = try #require(try HealthDatabase.reading(path: rhr.sandbox.storePath, machineZone: utc))
        let unnamed = try store.samples().filter { $0.sample.writer.name == Writer.unnamedHealthAutoExport }
        #expect(unnamed.sorted { $0.day < $1.day }.map(\.provisional) == [false, true, true])
    }
}
