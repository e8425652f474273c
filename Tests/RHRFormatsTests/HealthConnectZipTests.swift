import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

@Suite("Health Connect export: the zip and its private copy")
struct HealthConnectZipTests {
    /// A database with the three writers, as bytes.
    func exportBytes(_ dir: TemporaryDirectory, version: Int = 17) throws -> [UInt8] {
        let path = try HealthConnectThreeWriters.database(at: dir.file("built.db"), version: version)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try HealthConnectTestZip.bytes(of: path)
    }

    func read(_ path: String, scratch: String, whileExtracted: ((String) -> Void)? = nil) throws(InputError) -> ImportedFile {
        try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil,
                                     scratchRoot: scratch, whileExtracted: whileExtracted)
    }

    @Test("the database is found by its SQLite header, under any name, in a zip under any name")
    func anyNames() throws {
        let dir = try TemporaryDirectory()
        let bytes = try exportBytes(dir)
        let zip = dir.file("Health Connect (2).zip")
        try HealthConnectTestZip.write(zip, members: [
            .init(name: "README.txt", bytes: Array("exported by Health Connect".utf8)),
            .init(name: "backup/hc copy.sqlite", bytes: bytes),
        ])
        try FileManager.default.createDirectory(atPath: dir.file("scratch"), withIntermediateDirectories: false)
        let file = try read(zip, scratch: dir.file("scratch"))
        #expect(file.kind == .healthConnectZip(member: "backup/hc copy.sqlite"))
        #expect(file.path == zip)

        let bare = dir.file("health_connect_export.db")
        try Data(bytes).write(to: URL(fileURLWithPath: bare))
        let direct = try read(bare, scratch: dir.file("scratch"))
        #expect(file.batches.first?.resting == direct.batches.first?.resting)
        #expect(file.batches.first?.resting.count == 5)
        #expect(dir.entries("scratch").isEmpty)
    }

    @Test("the temporary copy is 0600 in a fresh 0700 directory, and both are gone afterwards")
    func privateCopy() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try exportBytes(dir))])
        let scratch = dir.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        let seen = Recorder<String>()
        let file = try read(zip, scratch: scratch) { path in
            #expect(FileMode.permissions(path) == 0o600)
            let parent = PathText.parent(path)
            #expect(FileMode.permissions(parent) == 0o700)
            #expect(PathText.parent(parent) == scratch)
            #expect(FileMode.status(parent)?.st_uid == getuid())
            seen.append(path)
        }
        #expect(file.batches.first?.resting.count == 5)
        let path = try #require(seen.all.first)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: PathText.parent(path)))
        #expect(dir.entries("scratch").isEmpty)
    }

    @Test("the temporary copy is removed when the database in the zip is refused")
    func removedOnError() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try exportBytes(dir, version: 8))])
        let scratch = dir.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        let seen = Recorder<String>()
        let error = try #require(throws: InputError.self) { try read(zip, scratch: scratch) { seen.append($0) } }
        #expect(error.path == zip)
        #expect(error.message == "health_connect_export.db: Health Connect schema version 8 is older than any rhr reads "
            + "(it reads version 9 and later)")
        #expect(seen.all.count == 1)
        #expect(dir.entries("scratch").isEmpty)
    }

    @Test("a truncated zip is an error with a byte offset; nothing is produced and nothing is left behind")
    func truncatedZip() throws {
        let dir = try TemporaryDirectory()
        // Enough varied rows that the compressed member is large and the cut falls inside it.
        let db = try HealthConnectTestDatabase(path: dir.file("built.db"))
        let w = try HealthConnectThreeWriters.fill(db)
        var seed: UInt64 = 42
        for i in 0..<3000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            try db.addResting(uuid: String(format: "%016llx%016llx", seed, UInt64(i)), time: epochMillis("2020-01-01T06:00:00Z") + Int64(i) * 3_600_000,
                              offset: 3600, bpm: 40 + Int64(seed >> 58), app: w.watch, clientId: String(seed, radix: 36))
        }
        db.close()
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try HealthConnectTestZip.bytes(of: db.path))])
        let whole = try HealthConnectTestZip.bytes(of: zip)
        let cut = dir.file("Health Connect (cut).zip")
        try Data(whole.prefix(whole.count * 6 / 10)).write(to: URL(fileURLWithPath: cut))
        let scratch = dir.file("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        let error = try #require(throws: InputError.self) { try read(cut, scratch: scratch) }
        #expect(error.path == cut)
        let offset = try #require(error.offset)
        // Where the file ends.
        #expect(offset == Int64(whole.count * 6 / 10))
        #expect(error.message == "the zip is truncated or damaged (ZIP decompression failed); copy it again from the phone")
        #expect(dir.entries("scratch").isEmpty)
        // The whole zip reads.
        #expect(try read(zip, scratch: scratch).batches.first?.resting.count == 3005)
    }

    @Test("a zip without a SQLite member says what it holds")
    func zipWithoutDatabase() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.file("export.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "apple_health_export/export.xml", bytes: Array("<HealthData locale=\"en\">".utf8))])
        let error = try #require(throws: InputError.self) { try read(zip, scratch: dir.path) }
        #expect(error.message == "a zip archive without a SQLite database, so not a Health Connect export: "
            + "its members are apple_health_export/export.xml")
    }

    @Test("a non-Health-Connect database in a zip is named by member and missing table")
    func foreignDatabaseInZip() throws {
        let dir = try TemporaryDirectory()
        let db = try HealthConnectTestDatabase(path: dir.file("built.db"), omitTable: "resting_heart_rate_record_table")
        db.close()
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try HealthConnectTestZip.bytes(of: db.path))])
        let error = try #require(throws: InputError.self) { try read(zip, scratch: dir.path) }
        #expect(error.description == "\(zip): health_connect_export.db: not a Health Connect export: "
            + "it has no table resting_heart_rate_record_table, which rhr needs to read resting heart rate records")
    }
}
