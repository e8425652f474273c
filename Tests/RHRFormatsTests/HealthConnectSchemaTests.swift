import CSQLite
import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

@Suite("Health Connect export: what is not one")
struct HealthConnectSchemaTests {
    func read(_ path: String) throws(InputError) -> ImportedFile {
        try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil)
    }

    @Test("a SQLite file that is not a Health Connect export: the error names the missing table")
    func notHealthConnect() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("notes.db")
        try SQLiteFile.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hi')",
                               at: path)
        let error = try #require(throws: InputError.self) { try read(path) }
        #expect(error.path == path)
        #expect(error.message.contains("not a Health Connect export"))
        #expect(error.message.contains("no table resting_heart_rate_record_table"))
        #expect(error.message.contains("schema version 0"))
    }

    @Test("each table rhr reads is required by name, and the error says what rhr needs it for", arguments: [
        ("resting_heart_rate_record_table", "read resting heart rate records"),
        ("application_info_table", "name the apps that wrote the records"),
        ("device_info_table", "name the devices records came from"),
        ("heart_rate_record_table", "read heart-rate records"), ("heart_rate_record_series_table", "read heart-rate samples"),
    ])
    func missingTable(table: String, need: String) throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"), omitTable: table)
        db.close()
        let error = try #require(throws: InputError.self) { try read(db.path) }
        #expect(error.message == "not a Health Connect export: it has no table \(table), which rhr needs to \(need)")
    }

    @Test("a required column missing is an error naming table and column", arguments: [
        ("resting_heart_rate_record_table", "beats_per_minute"), ("resting_heart_rate_record_table", "zone_offset"),
        ("resting_heart_rate_record_table", "uuid"), ("application_info_table", "package_name"),
        ("heart_rate_record_series_table", "epoch_millis"), ("heart_rate_record_table", "start_zone_offset"),
    ])
    func missingColumn(table: String, column: String) throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"), omitColumn: (table, column))
        db.close()
        let error = try #require(throws: InputError.self) { try read(db.path) }
        #expect(error.message.hasPrefix("table \(table) has no column \(column), which rhr needs to "), "\(error.message)")
        #expect(error.message.hasSuffix(" (schema version 17): not a Health Connect export rhr can read"))
    }

    @Test("optional metadata columns may be absent: the records are read without them")
    func optionalColumnAbsent() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"),
                                               omitColumn: ("resting_heart_rate_record_table", "client_record_version"))
        let app = try db.addApp("com.ouraring.oura", name: "Oura")
        try db.exec("""
            INSERT INTO resting_heart_rate_record_table (uuid, time, zone_offset, beats_per_minute, app_info_id, last_modified_time,
              client_record_id) VALUES (X'6f1c9a2e4b7d4e0f8a3b2c1d0e9f8a7b', \(epochMillis("2026-03-10T06:12:00Z")), 0, 57, \(app), 1, 'x')
            """)
        db.close()
        let sample = try #require(try read(db.path).batches.first?.resting.first)
        #expect(sample.clientRecordId == "x")
        #expect(sample.clientRecordVersion == nil)
        #expect(sample.value == 57)
    }

    @Test("every version from 9 on is read by the tables and columns it holds", arguments: [9, 12, 18, 19, 20, 21, 23, 42])
    func versionsFromNine(version: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("export.db"), version: version)
        let file = try read(path)
        #expect(file.batches.first?.resting.count == 5)
        // Above the newest version rhr was tested with, the import line says how it was read.
        #expect(file.notes == (version > 20 ? ["version \(version), newer than rhr knows; read by column names"] : []))
    }

    @Test("a version before 9, which the platform itself no longer upgrades from, is refused by its number", arguments: [0, 8])
    func olderVersion(version: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("export.db"), version: version)
        let error = try #require(throws: InputError.self) { try read(path) }
        #expect(error.message == "Health Connect schema version \(version) is older than any rhr reads (it reads version 9 and later)")
    }

    @Test("a file that is neither a zip nor SQLite is refused by name")
    func neitherZipNorSQLite() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("Health Connect.zip")
        try Data("{\"data\":{}}".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: InputError.self) { try read(path) }
        #expect(error.path == path)
        #expect(error.message.contains("neither a zip archive nor a SQLite database"))
        #expect(FileManager.default.createFile(atPath: dir.file("empty"), contents: Data()))
        #expect(throws: InputError(path: dir.file("empty"), message: "the file is empty")) { try read(dir.file("empty")) }
        #expect(throws: InputError.cannotOpen(dir.file("absent.db"), code: ENOENT)) { try read(dir.file("absent.db")) }
    }

    @Test("a database cut short is reported as damaged, not read")
    func truncatedDatabase() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"))
        try HealthConnectThreeWriters.fill(db)
        for i in 0..<200 {
            try db.addResting(uuid: String(format: "%032x", 1000 + i), time: epochMillis("2026-01-01T06:00:00Z") + Int64(i) * 86_400_000,
                              offset: 0, bpm: 50 + Int64(i % 20), app: 1)
        }
        db.close()
        let bytes = try HealthConnectTestZip.bytes(of: db.path)
        let cut = dir.file("cut.db")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        let error = try #require(throws: InputError.self) { try read(cut) }
        #expect(error.path == cut)
        #expect(error.message == "the database is damaged or cut short (a copy that did not finish?): rhr read nothing from it")
    }

    @Test("a file with SQLite's header and nothing of a database after it: rhr's words, never SQLite's")
    func headerOnly() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("export.db")
        var bytes = Array("SQLite format 3\0".utf8)
        bytes += [UInt8](repeating: 0xA5, count: 4096 - bytes.count)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: InputError.self) { try read(path) }
        #expect(error.path == path)
        #expect(error.message == "the file is not an SQLite database, so not a Health Connect export")
    }
}
