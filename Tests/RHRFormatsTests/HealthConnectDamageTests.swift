import Foundation
import RHRCore
@testable import RHRFormats
import RHRSystem
import RHRTestSupport
import Testing

/// Health Connect exports that are damaged or hostile: a zip bomb, a log beside a bare database, text where
/// integers belong (docs/design.md sections 2 and 8).
@Suite("Health Connect export: bombs, logs and text in integer columns")
struct HealthConnectDamageTests {
    func options(limit: Int64 = TemporaryCopyLimit.defaultBytes) -> ImportOptions {
        var options = ImportOptions(machineZone: berlinZone)
        options.temporaryCopyLimit = limit
        return options
    }

    func read(_ path: String, scratch: String, limit: Int64 = TemporaryCopyLimit.defaultBytes,
              whileExtracted: ((String) -> Void)? = nil) throws(InputError) -> ImportedFile {
        try HealthConnectReader.read(path: path, options: options(limit: limit), progress: nil, scratchRoot: scratch,
                                     whileExtracted: whileExtracted)
    }

    /// A database with the three writers, padded at its end with `padding` zero bytes (SQLite reads only the
    /// pages its header counts, so the padding changes nothing but the size).
    func paddedDatabase(_ dir: TemporaryDirectory, padding: Int) throws -> [UInt8] {
        let path = try HealthConnectThreeWriters.database(at: dir.file("built.db"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try HealthConnectTestZip.bytes(of: path) + [UInt8](repeating: 0, count: padding)
    }

    // MARK: - The temporary copy is bounded

    @Test("a database member larger than the limit is refused by its stated size, and nothing is written")
    func statedSizeOverTheLimit() throws {
        let dir = try TemporaryDirectory()
        let bytes = try paddedDatabase(dir, padding: 1 << 20)
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: bytes)])
        let scratch = try TemporaryDirectory(prefix: "rhr-scratch")
        let error = try #require(throws: InputError.self) { try read(zip, scratch: scratch.path, limit: 256 << 10) }
        #expect(error.description == "\(zip): health_connect_export.db: the database is larger than 256 KiB, the limit for "
            + "its temporary copy; RHR_TEMP_LIMIT raises it (such as RHR_TEMP_LIMIT=16G)")
        #expect(scratch.entries().isEmpty)
        // Under a limit it fits, it reads.
        #expect(try read(zip, scratch: scratch.path, limit: 2 << 20).batches.first?.resting.count == 5)
        #expect(scratch.entries().isEmpty)
    }

    @Test("a streamed member, its size not stated, is cut off at the limit and its copy removed")
    func streamedMemberOverTheLimit() throws {
        let dir = try TemporaryDirectory()
        try Data(try paddedDatabase(dir, padding: 2 << 20)).write(to: URL(fileURLWithPath: dir.file("padded.db")))
        // Info-ZIP reading from stdin streams the member: its sizes come after its data, not in its header.
        guard let zipTool = Subprocess.which("zip") else { throw TestFailure("zip is not installed; scripts/setup installs it") }
        let zipped = try Subprocess.run("/bin/sh", ["-c", "'\(zipTool)' -q - - < padded.db > streamed.zip"], directory: dir.path)
        try #require(zipped.status == 0, "\(zipped.stderr)")
        let zip = dir.file("streamed.zip")
        let scratch = try TemporaryDirectory(prefix: "rhr-scratch")
        let error = try #require(throws: InputError.self) { try read(zip, scratch: scratch.path, limit: 1 << 20) }
        #expect(error.message == "-: the database is larger than 1 MiB, the limit for its temporary copy; "
            + "RHR_TEMP_LIMIT raises it (such as RHR_TEMP_LIMIT=16G)")
        #expect(scratch.entries().isEmpty)
    }

    @Test("RHR_TEMP_LIMIT takes bytes or K, M, G, and anything else is a mistake")
    func limitFromTheEnvironment() throws {
        #expect(try TemporaryCopyLimit.bytes(environment: [:]) == 4 << 30)
        #expect(try TemporaryCopyLimit.bytes(environment: ["RHR_TEMP_LIMIT": "512M"]) == 512 << 20)
        #expect(try TemporaryCopyLimit.bytes(environment: ["RHR_TEMP_LIMIT": "8g"]) == 8 << 30)
        #expect(try TemporaryCopyLimit.bytes(environment: ["RHR_TEMP_LIMIT": "100000"]) == 100_000)
        for bad in ["", "lots", "-1G", "0", "1.5G", "99999999999T"] {
            #expect(throws: TemporaryCopyLimit.Failure.self, "\(bad)") {
                try TemporaryCopyLimit.bytes(environment: ["RHR_TEMP_LIMIT": bad])
            }
        }
        #expect(ByteSize.words(4 << 30) == "4 GiB" && ByteSize.words(1000) == "1000 bytes")
    }

    // MARK: - A bare database with its -wal

    /// A database whose -wal deletes the ring's record, changes the trip's value to 66 and adds one: the file
    /// alone still says what it said before. Both are copied while the connection that wrote them is open, as a
    /// copy taken while Android had the database open would be.
    func databaseWithWAL(_ dir: TemporaryDirectory) throws -> String {
        let db = try HealthConnectTestDatabase(path: dir.file("built.db"))
        try HealthConnectThreeWriters.fill(db)
        try db.exec("PRAGMA journal_mode = WAL")
        try db.exec("PRAGMA wal_autocheckpoint = 0")
        try db.exec("DELETE FROM resting_heart_rate_record_table WHERE uuid = X'\(HealthConnectThreeWriters.ringRecord)'")
        try db.exec("UPDATE resting_heart_rate_record_table SET beats_per_minute = 66 WHERE uuid = X'\(HealthConnectThreeWriters.tripRecord)'")
        try db.addResting(uuid: "99999999999999999999999999999999", time: epochMillis("2026-03-13T06:00:00+01:00"), offset: 3600,
                          bpm: 52, app: 1)
        let path = dir.file("export/health_connect_export.db")
        try FileManager.default.createDirectory(atPath: dir.file("export"), withIntermediateDirectories: false)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: db.path + suffix, toPath: path + suffix)
        }
        db.close()
        try #require(FileMode.size(path + "-wal") ?? 0 > 0, "the -wal holds the changes")
        return path
    }

    @Test("a bare database is read with the commits of the -wal beside it, and the user's files stay as they were")
    func bareDatabaseWithWAL() throws {
        let dir = try TemporaryDirectory()
        let path = try databaseWithWAL(dir)
        let before = try dir.entries("export").map { ($0, try HealthConnectTestZip.bytes(of: dir.file("export/" + $0))) }
        let scratch = try TemporaryDirectory(prefix: "rhr-scratch")
        let seen = Recorder<String>()
        let file = try read(path, scratch: scratch.path) { copy in
            seen.append(copy)
            #expect(FileMode.permissions(copy) == 0o600)
        }
        let values = Dictionary(uniqueKeysWithValues: try #require(file.batches.first).resting.map { ($0.uuid ?? "", $0.value) })
        #expect(values[HealthConnectThreeWriters.ringRecord] == nil, "the record the -wal deleted is not read")
        #expect(values[HealthConnectThreeWriters.tripRecord] == 66, "the value the -wal changed is read as changed")
        #expect(values["99999999999999999999999999999999"] == 52, "the record the -wal added is read")
        #expect(values.count == 5)
        #expect(seen.all.count == 1, "read from a private copy")
        let after = try dir.entries("export").map { ($0, try HealthConnectTestZip.bytes(of: dir.file("export/" + $0))) }
        #expect(after.elementsEqual(before) { $0 == $1 }, "\(after.map(\.0))")
        #expect(scratch.entries().isEmpty)
    }

    @Test("the copy of a database and its -wal is bounded too")
    func bareDatabaseWithWALOverTheLimit() throws {
        let dir = try TemporaryDirectory()
        let path = try databaseWithWAL(dir)
        let scratch = try TemporaryDirectory(prefix: "rhr-scratch")
        let error = try #require(throws: InputError.self) { try read(path, scratch: scratch.path, limit: 8 << 10) }
        #expect(error.description.hasPrefix("\(path): the database with its -wal file is larger than 8 KiB"))
        #expect(scratch.entries().isEmpty)
    }

    // MARK: - Text in integer columns

    @Test("rows with text in integer columns are passed over, each named by row and column, the rest read")
    func textInIntegerColumns() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"))
        let w = try HealthConnectThreeWriters.fill(db)
        for i in 0..<5 {
            try db.addResting(uuid: String(format: "%032x", 100 + i), time: epochMillis("2026-03-14T06:00:00Z"), offset: 0,
                              bpm: 55, app: w.ring)
        }
        try db.exec("UPDATE resting_heart_rate_record_table SET time = 'noon' WHERE row_id IN (6, 8, 10)")
        try db.exec("UPDATE resting_heart_rate_record_table SET beats_per_minute = 'sixty' WHERE row_id = 7")
        try db.exec("UPDATE resting_heart_rate_record_table SET zone_offset = X'00' WHERE row_id = 9")
        db.close()
        let file = try read(db.path, scratch: dir.path)
        #expect(file.passedOver.records.map(\.reason) == [
            "row_id 6: time is text, not an integer", "row_id 7: beats_per_minute is text, not an integer",
            "row_id 8: time is text, not an integer", "row_id 9: zone_offset is a blob, not an integer",
            "row_id 10: time is text, not an integer"])
        #expect(file.passedOver.records[0].raw.contains("time='noon'"), "\(file.passedOver.records[0].raw)")
        #expect(file.batches[0].resting.count == 5)
    }

    @Test("hundreds of MB of text in integer columns are passed over, each kept to 4 KiB a value")
    func muchTextIsPassedOverCut() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("export.db"))
        let w = try HealthConnectThreeWriters.fill(db)
        // 64 rows, each with 2 MB of text in time and in last_modified_time: 256 MB.
        try db.exec("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64)
            INSERT INTO resting_heart_rate_record_table (uuid, time, zone_offset, beats_per_minute, app_info_id, last_modified_time)
            SELECT randomblob(16), printf('%.*c', 2000000, 'x'), 0, 55, \(w.ring), printf('%.*c', 2000000, 'y') FROM n
            """)
        db.close()
        let file = try read(db.path, scratch: dir.path)
        #expect(file.passedOver.total == 64)
        #expect(file.passedOver.records.first?.reason == "row_id 6: time is text, not an integer")
        // Each 2 MB value is shown as its first 4 KiB and an ellipsis.
        let time = "time='\(String(repeating: "x", count: 4096))'…,", modified = "last_modified_time='\(String(repeating: "y", count: 4096))'…,"
        #expect(file.passedOver.records.allSatisfy { $0.raw.contains(time) && $0.raw.contains(modified) })
    }
}
