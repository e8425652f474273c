import Foundation
import RHRCore
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

    @Test func anUnzippedExportFolderImportsTheExportInIt() throws {
        _ = try rhr.sandbox.write("apple_health_export/eksport.xml", Self.export)
        _ = try rhr.sandbox.write("apple_health_export/export_cda.xml", Self.cda)
        _ = try rhr.sandbox.write("apple_health_export/workout-routes/route_2024-03-11.gpx", "<gpx/>\n")
        let folder = rhr.sandbox.home + "/apple_health_export"
        let imported = rhr.run(["import", folder])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("\(folder)/eksport.xml: Apple Health export (XML): 1 record read"), "\(imported.stdout)")
        #expect(rows() == [Self.row])
    }

    @Test func aFolderWithoutOneExportSaysWhichFileToGive() throws {
        _ = try rhr.sandbox.write("downloads/export_cda.xml", Self.cda)
        _ = try rhr.sandbox.write("downloads/HealthAutoExport.json", #"{"data":{"metrics":[]}}"#)
        let folder = rhr.sandbox.home + "/downloads"
        let none = rhr.run(["import", folder])
        #expect(none.status == 1)
        #expect(none.stderr == "rhr import: \(folder): is a folder, and it holds no Apple Health export; give one of the files "
            + "to import: HealthAutoExport.json\n", "\(none.stderr)")
        _ = try rhr.sandbox.write("downloads/export.xml", Self.export)
        _ = try rhr.sandbox.write("downloads/eksport.xml", Self.export)
        let two = rhr.run(["import", folder])
        #expect(two.status == 1)
        #expect(two.stderr.contains("is a folder holding 2 Apple Health exports (eksport.xml, export.xml); give the one to import"))
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
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
                                         header + "\n2024-03-11 00:00:00,412,48,131,71,57,8123\n2024-03-12 00:00:00,380,50,120,69,58,7000\n")
        let imported = rhr.run(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Of each row, a resting value and a heart-rate value were read; five columns are of other metrics.
        #expect(imported.stdout.hasPrefix("\(path): Health Auto Export CSV: 4 records read; HealthKit resting samples 2 added, "
                                          + "0 replaced, 0 deleted; 2 heart-rate readings (kept as day summaries, R8); "
                                          + "2 columns of other metrics not read"), "\(imported.stdout)")
        #expect(rows() == [
            // A writer Health Auto Export did not name is no possible watch: never provisional (docs/design.md section 2).
            "2024-03-11,healthkit,Health Auto Export,Health Auto Export,latest,57,1,false,true,0,0,unnamed-health-auto-export",
            "2024-03-12,healthkit,Health Auto Export,Health Auto Export,latest,58,1,false,true,0,0,unnamed-health-auto-export",
        ])
    }
}
