import CSQLite
import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// Reads in one snapshot, rows read by column name, the schema version, and the store naming a replacement by
/// R7's own rule.
@Suite("Store reads")
struct StoreReadTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }
    var path: String { directory.file("rhr.sqlite") }

    func batch(_ next: String, previous: String?, _ value: Double, day: String) -> SyncBatch {
        live("\(day)T23:59:00+01:00", previous: previous, next: next,
             [hk("\(day)T00:05:00+01:00", "\(day)T23:40:00+01:00", value, uuid: next)])
    }

    @Test func aReadSeesOneSnapshotWhileAnotherConnectionWrites() throws {
        let reader = try HealthDatabase(path: path, machineZone: utc)
        let writer = try HealthDatabase(path: path, machineZone: utc)
        _ = try writer.apply(batch("a1", previous: nil, 58, day: "2026-11-27"))
        let seen = try reader.read { tx throws(StoreError) in
            let before = (try tx.revision(), try tx.samples().count)
            // Another connection commits between two queries of the same read (as `rhr import` or the daemon may).
            _ = try writer.apply(batch("a2", previous: "a1", 61, day: "2026-11-28"))
            let after = (try tx.revision(), try tx.samples().count, try tx.streams().first?.cursor,
                         try tx.contents().first { $0.store == .healthKit }?.restingSamples)
            return (before, after)
        }
        #expect(seen.0 == (1, 1))
        #expect(seen.1 == (1, 1, "a1", 1), "the second query saw the write made after the first")
        // The next read sees the write.
        #expect(try reader.read { tx throws(StoreError) in (try tx.revision(), try tx.samples().count) } == (2, 2))
        // Queries outside one `read` are separate snapshots: this is what `read` is for.
        let first = try reader.revision()
        _ = try writer.apply(batch("a3", previous: "a2", 59, day: "2026-11-29"))
        #expect(try reader.samples().count == 3 && first == 2)
    }

    @Test func rowsAreReadByColumnName() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let select = try store.db.statement("SELECT 7 AS seven, 'x' AS letter, NULL AS absent")
        defer { select.reset() }
        // The order of the SELECT list does not matter to a reader: it asks by name.
        let letter = try select.column("letter"), seven = try select.column("seven"), nothing = try select.column("absent")
        #expect(try select.step())
        #expect(select.int(seven) == 7 && select.text(letter) == "x" && select.optionalText(nothing) == nil)
        #expect(throws: StoreError(.database, "\(path): no column sevne in \"SELECT 7 AS seven, 'x' AS letter, NULL AS absent…\"")) {
            try select.column("sevne")
        }
        // Every column of a sample row is found by its name in the query that joins the sample table.
        #expect(throws: Never.self) {
            try SampleRow.Columns(try store.db.statement("SELECT s.id, \(SampleRow.qualifiedColumns) FROM sample s"))
        }
    }

    @Test func theSchemaVersionIsTheNumberOfMigrations() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let version = try store.db.statement("PRAGMA user_version")
        #expect(try version.step() && version.int(try version.column("user_version")) == StoreSchema.version)
        version.reset()

        // A store from a newer rhr (one migration more) is refused, naming both versions.
        let newer = directory.file("newer.sqlite")
        _ = try HealthDatabase(path: newer, machineZone: utc)
        try SQLiteFile.execute("PRAGMA user_version = \(StoreSchema.migrations.count + 1)", at: newer)
        #expect(throws: StoreError(.database, "\(newer): the store has schema version \(StoreSchema.migrations.count + 1); "
                                   + "this rhr knows up to \(StoreSchema.migrations.count). Use a newer rhr.")) {
            try HealthDatabase(path: newer, machineZone: utc)
        }
    }

    /// "62, replaced by …" names the value R7's `latest` shows for the day, ties and all: the same rule, not a copy.
    @Test func theReplacementIsTheLatestByR7() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        func record(_ id: String, _ time: String, _ bpm: Int64, modified: String) -> RestingSample {
            RestingSample.healthConnect(id: id, writer: oura, time: date(time), zoneOffset: 3600, beatsPerMinute: bpm,
                                        lastModified: date(modified))
        }
        // b and c end at the same time; c was modified later, so c is the day's latest once d is gone.
        _ = try store.apply(live("2026-11-28T23:00:00+01:00", previous: nil, next: "t1", [
            record("a", "2026-11-28T05:00:00Z", 60, modified: "2026-11-28T05:01:00Z"),
            record("b", "2026-11-28T06:00:00Z", 55, modified: "2026-11-28T09:00:00Z"),
            record("c", "2026-11-28T06:00:00Z", 53, modified: "2026-11-28T09:30:00Z"),
            record("d", "2026-11-28T08:00:00Z", 62, modified: "2026-11-28T08:01:00Z"),
        ], store: .healthConnect))
        _ = try store.apply(live("2026-11-28T23:30:00+01:00", previous: "t1", next: "t2", deleted: ["d"], store: .healthConnect))
        let shown = DaySeries(try store.samples()).values(by: .latest)
        #expect(shown.map(\.bpm) == [53])
        #expect(try store.revisions().map(\.replacedByBPM) == [53])
    }
}
