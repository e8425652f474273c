import Foundation
import RHRCore
@testable import RHRFormats
import RHRTestSupport
import Testing

@Suite("Health Connect export: export time and exports in a row")
struct HealthConnectSnapshotTests {
    func read(_ path: String, zone: TimeZone = berlinZone) throws(InputError) -> ImportedFile {
        try HealthConnectReader.read(path: path, options: ImportOptions(machineZone: zone), progress: nil)
    }

    @Test("a bare database's asOf is the newest last_modified_time of any record table, in the machine's offset")
    func asOfFromRecords() throws {
        let db = try HealthConnectTestDatabase.scratch()
        let w = try HealthConnectThreeWriters.fill(db)
        try db.addHeartRate(uuid: "000000000000000000000000000000e1", app: w.watch, startOffset: 3600,
                            samples: [(epochMillis("2026-03-13T10:00:00Z"), 70)], modified: epochMillis("2026-03-13T10:05:00Z"))
        // Steps are not read, but their modification tells the export is at least this recent.
        try db.addSteps(uuid: "000000000000000000000000000000f1", app: w.watch, start: epochMillis("2026-03-14T07:00:00Z"),
                        modified: epochMillis("2026-03-14T07:59:30Z"))
        db.close()
        let batch = try #require(try read(db.path).batches.first)
        #expect(batch.asOf == Timestamp(epochSeconds: Double(epochMillis("2026-03-14T07:59:30Z")) / 1000, offsetSeconds: 3600))
        #expect(batch.asOf.offsetSeconds == 3600)
        #expect(batch.origin == "Health Connect export")
        #expect(batch.asOf.localDay == LocalDay("2026-03-14"))
        // Tokyo sees the same instant on the same day at +09:00.
        let tokyoBatch = try #require(try read(db.path, zone: tokyoZone).batches.first)
        #expect(tokyoBatch.asOf.epochSeconds == batch.asOf.epochSeconds)
        #expect(tokyoBatch.asOf.offsetSeconds == 9 * 3600)
    }

    @Test("a zip's asOf is its member's time when that is later than every record's modification")
    func asOfFromMemberTime() throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("built.db"))
        let bytes = try HealthConnectTestZip.bytes(of: path)
        let written = Timestamp.parse("2026-03-14T23:30:00Z")!
        let later = dir.file("later.zip")
        try HealthConnectTestZip.write(later, members: [.init(name: "health_connect_export.db", bytes: bytes, modified: written.date)])
        let batch = try #require(try read(later).batches.first)
        #expect(batch.asOf.epochSeconds == written.epochSeconds)
        #expect(batch.asOf.localDay == LocalDay("2026-03-15"))   // 00:30 in Berlin

        // A member time before the newest modification (a skewed clock or zone) never moves asOf back.
        let earlier = dir.file("earlier.zip")
        try HealthConnectTestZip.write(earlier, members: [.init(name: "health_connect_export.db", bytes: bytes,
                                                   modified: Timestamp.parse("2026-03-01T00:00:00Z")!.date)])
        let newestRecord = Double(epochMillis("2026-03-12T06:30:00+09:00")) / 1000
        #expect(try read(earlier).batches.first?.asOf.epochSeconds == newestRecord)
    }

    @Test("an export without any record takes the file's modification time")
    func emptyExport() throws {
        let db = try HealthConnectTestDatabase.scratch()
        db.close()
        let stamp = Timestamp.parse("2026-03-14T09:00:00Z")!.date
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: db.path)
        let file = try read(db.path)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.isEmpty && batch.heartRate.isEmpty)
        #expect(batch.asOf.epochSeconds == stamp.timeIntervalSince1970)
        #expect(batch.snapshot != nil)
        #expect(file.recordsRead == 0)
    }

    @Test("two exports in a row: the second no longer holds the record its writer deleted, and is newer")
    func twoExportsInARow() throws {
        let dir = try TemporaryDirectory()
        func export(_ name: String, deleteManual: Bool, written: String) throws -> String {
            let db = try HealthConnectTestDatabase(path: dir.file(name + ".db"))
            let w = try HealthConnectThreeWriters.fill(db)
            if deleteManual {
                // A week later: the manual entry was deleted by its writer; the ring wrote another week.
                try db.exec("DELETE FROM resting_heart_rate_record_table WHERE uuid = X'\(HealthConnectThreeWriters.nullOffsetRecord)'")
                for day in 0..<7 {
                    try db.addResting(uuid: String(format: "%032x", 0x5000 + day),
                                      time: epochMillis("2026-03-15T06:10:00+01:00") + Int64(day) * 86_400_000, offset: 3600,
                                      bpm: 55 + Int64(day), app: w.ring, device: w.ringDevice, method: 2)
                }
            }
            db.close()
            let zip = dir.file(name)
            try HealthConnectTestZip.write(zip, members: [.init(name: "health_connect_export.db", bytes: try HealthConnectTestZip.bytes(of: db.path),
                                                   modified: Timestamp.parse(written)!.date)])
            return zip
        }
        let first = try #require(try read(try export("Health Connect.zip", deleteManual: false, written: "2026-03-14T04:00:00Z")).batches.first)
        let second = try #require(try read(try export("Health Connect (2).zip", deleteManual: true, written: "2026-03-21T04:00:00Z")).batches.first)
        let firstIds = Set(first.resting.compactMap(\.uuid))
        let secondIds = Set(second.resting.compactMap(\.uuid))
        #expect(firstIds.contains(HealthConnectThreeWriters.nullOffsetRecord))
        #expect(!secondIds.contains(HealthConnectThreeWriters.nullOffsetRecord))
        #expect(firstIds.subtracting(secondIds) == [HealthConnectThreeWriters.nullOffsetRecord])
        #expect(secondIds.count == firstIds.count - 1 + 7)
        #expect(first.asOf < second.asOf)
        #expect(second.origin == "Health Connect export")
        #expect(first.stream == second.stream)
        #expect(first.snapshot == SyncBatch.Snapshot(from: nil, to: nil))
        #expect(second.snapshot == first.snapshot)
    }

    @Test("an export whose only change is a deletion is still newer, by its member time")
    func deletionOnlyExport() throws {
        let dir = try TemporaryDirectory()
        let path = try HealthConnectThreeWriters.database(at: dir.file("built.db"))
        let before = try HealthConnectTestZip.bytes(of: path)
        let opened = try HealthConnectTestDatabase.reopen(path)
        // The newest-modified record goes: the records alone would make this export look older.
        try opened.exec("DELETE FROM resting_heart_rate_record_table WHERE uuid = X'\(HealthConnectThreeWriters.tripRecord)'")
        opened.close()
        let after = try HealthConnectTestZip.bytes(of: path)
        try HealthConnectTestZip.write(dir.file("a.zip"), members: [.init(name: "h.db", bytes: before, modified: Timestamp.parse("2026-03-14T04:00:00Z")!.date)])
        try HealthConnectTestZip.write(dir.file("b.zip"), members: [.init(name: "h.db", bytes: after, modified: Timestamp.parse("2026-03-21T04:00:00Z")!.date)])
        let a = try #require(try read(dir.file("a.zip")).batches.first)
        let b = try #require(try read(dir.file("b.zip")).batches.first)
        #expect(a.asOf < b.asOf)
        #expect(b.resting.count == a.resting.count - 1)
    }
}
