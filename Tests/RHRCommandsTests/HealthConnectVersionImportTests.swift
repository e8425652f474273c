import Foundation
import RHRTestSupport
import Testing

/// `rhr import` of the first export as phones of each database version write it (`Samples/health-connect/versions/`),
/// into a real store: the same rows as the export it grew from, and nothing of the medical records, the synthetic
/// packages or the device identifiers anywhere in the store's bytes (docs/design.md sections 2 and 8).
@Suite("rhr import: Health Connect exports of every database version")
struct HealthConnectVersionImportTests {
    static let versions = ["v9.zip", "v18.zip", "v20.zip", "v23.zip", "v23-upgraded.zip"]

    /// The import line and the rows `rhr export` prints of the latest and of the lowest values, in a fresh store.
    func imported(_ sample: String) throws -> (line: String, rows: [String], rhr: InProcessRHR) {
        let rhr = try InProcessRHR()
        let result = rhr.run(["import", InProcessRHR.sample("health-connect/" + sample)])
        try #require(result.status == 0, "\(result.stderr)")
        return (result.stdout, rhr.exportRows() + rhr.exportRows(["--aggregate", "lowest"]), rhr)
    }

    @Test("each version's export is stored as the export it grew from", arguments: versions)
    func sameRows(version: String) throws {
        let grownFrom = try imported("Health Connect.zip")
        let file = try imported("versions/" + version)
        #expect(file.rows.count == grownFrom.rows.count && !file.rows.isEmpty)
        #expect(file.rows == grownFrom.rows)
    }

    @Test("the import line says a version newer than rhr knows was read by column names")
    func importLine() throws {
        let line = try imported("versions/v23.zip").line
        #expect(line.contains("Health Connect export (zip): "), "\(line)")
        #expect(line.hasSuffix("; version 23, newer than rhr knows; read by column names\n"), "\(line)")
        #expect(!(try imported("versions/v20.zip").line.contains("newer than rhr knows")))
    }

    /// Every text of the fixture that must stay out of the store: the medical tables' values and the app that
    /// wrote them, the synthetic packages' device parts, the devices' ids and UDIs, the salt of the synthetic packages.
    func secrets(of sample: String) throws -> [String] {
        let dir = try TemporaryDirectory()
        let unzip = try #require(Subprocess.which("unzip"), "scripts/setup installs unzip")
        let unzipped = try Subprocess.run(unzip, ["-q", SourceTree.samples + "/health-connect/" + sample, "-d", dir.path])
        try #require(unzipped.status == 0, "\(unzipped.stderr)")
        let db = dir.file("health_connect_export.db")
        let queries = [
            "SELECT display_name, fhir_base_uri FROM medical_data_source_table",
            "SELECT fhir_resource_id, fhir_data FROM medical_resource_table",
            "SELECT package_name, app_name FROM application_info_table WHERE row_id IN (SELECT app_info_id FROM medical_data_source_table)",
            // A synthetic package past `com.android.healthconnect.`, which a redacted name may keep.
            "SELECT substr(package_name, 27) FROM application_info_table WHERE package_name LIKE 'com.android.healthconnect.%'",
            "SELECT device_id, udi FROM device_info_table",
            "SELECT value FROM preference_table WHERE key = 'synthetic_package_name_salt'",
        ]
        let texts = try queries.flatMap { try SQLiteFile.rows($0, at: db).flatMap { $0.compactMap { $0 } } }
        try #require(texts.count >= 12, "\(texts)")
        return texts
    }

    @Test("no medical record, synthetic package or device identifier reaches the store", arguments: ["v23.zip", "v23-upgraded.zip"])
    func nothingMedicalStored(version: String) throws {
        let rhr = try imported("versions/" + version).rhr
        var store: [UInt8] = []
        for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: rhr.sandbox.storePath + suffix) {
            store += try Array(Data(contentsOf: URL(fileURLWithPath: rhr.sandbox.storePath + suffix)))
        }
        let bytes = Data(store)
        #expect(bytes.count > 10_000)
        #expect(bytes.range(of: Data("com.ouraring.oura".utf8)) != nil, "the store holds the import")
        for secret in try secrets(of: "versions/" + version) {
            // Every 12-byte stretch of each text, so a part of one is found too.
            let utf8 = Array(secret.utf8)
            for start in stride(from: 0, through: max(0, utf8.count - 12), by: 4) {
                let piece = Data(utf8[start..<min(utf8.count, start + 12)])
                #expect(bytes.range(of: piece) == nil, "\(String(decoding: piece, as: UTF8.self)) of \(secret)")
            }
        }
    }
}
