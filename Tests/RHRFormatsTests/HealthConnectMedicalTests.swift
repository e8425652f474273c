import Foundation
import RHRCore
@testable import RHRFormats
import RHRSystem
import RHRTestSupport
import Testing

/// A person's clinical records (the `medical_*` tables of a newer export) are never read (docs/design.md sections 2
/// and 8), and a bare database is dated by its newest record and the previous export it remembers (R12).
@Suite("Health Connect export: medical records untouched, the export's time")
struct HealthConnectMedicalTests {
    func read(_ path: String, scratch: String? = nil) throws(InputError) -> ImportedFile {
        try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil,
                                     scratchRoot: scratch ?? TemporaryFiles.defaultRoot, whileExtracted: nil)
    }

    /// The three writers, then the medical tables with `page`-sized damage over the root page of each: SQLite fails
    /// on any read of them.
    func databaseWithDamagedMedicalTables(_ dir: TemporaryDirectory) throws -> String {
        let db = try HealthConnectTestDatabase(path: dir.file("health_connect_export.db"), version: 23)
        try HealthConnectThreeWriters.fill(db)
        try db.addMedicalRecords(modified: epochMillis("2026-03-20T08:00:00Z"))
        db.close()
        let roots = try SQLiteFile.rows("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name LIKE 'medical%'",
                                        at: db.path).compactMap { $0[0].flatMap(Int.init) }
        try #require(roots.count == 3)
        var bytes = try HealthConnectTestZip.bytes(of: db.path)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        for root in roots {
            let start = (root - 1) * pageSize
            bytes.replaceSubrange(start..<start + pageSize, with: repeatElement(0xA5, count: pageSize))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: db.path))
        #expect(throws: TestFailure.self, "the damage is where a read would find it") {
            try SQLiteFile.rows("SELECT max(last_modified_time) FROM medical_resource_table", at: db.path)
        }
        return db.path
    }

    @Test("medical tables are never read: damage in every one of them costs nothing, bare or zipped")
    func neverRead() throws {
        let dir = try TemporaryDirectory()
        let path = try databaseWithDamagedMedicalTables(dir)
        let bare = try read(path)
        #expect(bare.batches.first?.resting.count == 5)
        // Their times say nothing of the export: it is as of its newest record.
        #expect(bare.batches.first?.asOf.date == Timestamp.parse("2026-03-11T21:30:00Z")!.date)
        let zip = dir.file("Health Connect.zip")
        try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try HealthConnectTestZip.bytes(of: path))])
        let scratch = try TemporaryDirectory(prefix: "rhr-scratch")
        #expect(try read(zip, scratch: scratch.path).batches.first?.resting == bare.batches.first?.resting)
        #expect(scratch.entries().isEmpty, "the private copy, medical pages and all, is gone")
    }

    @Test("a bare database is dated by the later of its newest record and the previous export it remembers",
          arguments: [
              // The previous export after every record: the export is at least as late as it.
              ("1773619200000", "2026-03-16T00:00:00Z"),
              // Before the newest record: the record dates it.
              ("1773100000000", "2026-03-11T21:30:00Z"),
              // Not a time: passed over.
              ("next week", "2026-03-11T21:30:00Z"),
          ])
    func datedByPreviousExport(value: String, asOf: String) throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try HealthConnectThreeWriters.fill(db)
        try db.addPreference("export_period_key", "7")
        try db.addPreference("last_successful_export_key", value)
        db.close()
        let batch = try #require(try read(db.path).batches.first)
        #expect(batch.asOf.date == Timestamp.parse(asOf)!.date)
        #expect(batch.asOf.offsetSeconds == 3600, "in the machine's offset")
    }

    @Test("a database without records or a previous export falls back to the file's time")
    func emptyDatabase() throws {
        let db = try HealthConnectTestDatabase.scratch(version: 23)
        try db.addPreference("export_period_key", "7")
        db.close()
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: db.path)[.modificationDate] as? Date)
        let asOf = try #require(try read(db.path).batches.first?.asOf.date)
        #expect(abs(asOf.timeIntervalSince(modified)) < 0.001, "to the millisecond a timestamp keeps")
    }
}
