import CSQLite
import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// A store written by an earlier rhr opens in this one, its data and history intact (docs/design.md section 3).
@Suite("Store migrations")
struct StoreMigrationTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A version 1 store, made with version 1's own schema text and rows as version 1 wrote them: an Apple export
    /// and a bridge that both delivered the watch's 13 Mar, a draft the bridge replaced, heart rate from the export.
    func versionOneStore() throws -> String {
        let path = directory.file("v1.sqlite")
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        func run(_ sql: String) {
            var message: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(handle, sql, nil, nil, &message)
            #expect(rc == SQLITE_OK, "\(message.map { String(cString: $0) } ?? "")")
            sqlite3_free(message)
        }
        run(StoreSchema.migrations[0])
        let exportAt = ts("2026-03-14T09:00:00+01:00").epochSeconds, bridgeAt = ts("2026-03-14T12:00:00+01:00").epochSeconds
        let day13 = day("2026-03-13").daysSinceEpoch, day14 = day("2026-03-14").daysSinceEpoch
        let start13 = ts("2026-03-13T00:03:00+01:00").epochSeconds, end13 = ts("2026-03-13T23:50:00+01:00").epochSeconds
        let start14 = ts("2026-03-14T00:03:00+01:00").epochSeconds, end14 = ts("2026-03-14T11:50:00+01:00").epochSeconds
        run("""
            PRAGMA user_version = 1;
            UPDATE meta SET value = '2' WHERE key = 'revision';
            INSERT INTO writer(id, store, name, is_watch) VALUES (1, 'healthkit', 'Jane’s Apple Watch', 1);
            INSERT INTO stream(id, store, name, cursor, as_of, as_of_offset, as_of_day, origin, revision) VALUES
                (1, 'healthkit', 'apple-health-export', NULL, \(exportAt), 3600, \(day("2026-03-14").daysSinceEpoch), 'export of 14 Mar', 1),
                (2, 'healthkit', 'iphone', 'c2', \(bridgeAt), 3600, \(day("2026-03-14").daysSinceEpoch), 'iphone', 2);
            INSERT INTO stream_cursor(stream_id, cursor) VALUES (2, 'c1'), (2, 'c2');
            INSERT INTO sample(id, store, identity, uuid, writer_id, stream_id, day, offset_assumed, start, "end",
                               offset_seconds, value, unit, in_range) VALUES
                (1, 'healthkit', 'restingHeartRate|Jane’s Apple Watch|\(Int(start13))|\(Int(end13))', NULL, 1, 2, \(day13), 0,
                 \(start13), \(end13), 3600, 57, 'count/min', 1),
                (2, 'healthkit', 'restingHeartRate|Jane’s Apple Watch|\(Int(start14))|\(Int(end14))', 'FINAL', 1, 2, \(day14), 0,
                 \(start14), \(end14), 3600, 59, 'count/min', 1);
            INSERT INTO sample_stream(sample_id, stream_id) VALUES (1, 1), (1, 2), (2, 2);
            INSERT INTO revision(writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm, at,
                                 at_offset, origin, store_revision) VALUES
                (1, \(day14), 'DRAFT', 62, 'count/min', 1, 'deleted', 59, \(bridgeAt), 3600, 'iphone', 2),
                (1, \(day14), 'OLD', 60, 'count/min', 0, 'not-in-newer-export', 60, \(exportAt), 3600, 'export of 14 Mar', 1);
            INSERT INTO heart_rate(stream_id, writer_id, day, record_key, not_set, sedentary, active, sedentary_min,
                                   sedentary_histogram) VALUES (1, 1, \(day13), '', 2, 3, 1, 52, '52:1,55:2');
            """)
        return path
    }

    /// docs/design.md section 8, version skew: the opener is asked before a store is brought up to date, and a refusal
    /// leaves it as it was; a migration notes which rhr (version and build) made it.
    @Test func aMigrationIsAskedForAndNotesWhichRhrMadeIt() throws {
        let path = try versionOneStore()
        func version() -> Int64 {
            var handle: OpaquePointer?
            defer { sqlite3_close(handle) }
            var statement: OpaquePointer?
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
                  sqlite3_prepare_v2(handle, "PRAGMA user_version", -1, &statement, nil) == SQLITE_OK else { return -1 }
            defer { sqlite3_finalize(statement) }
            return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1
        }
        let refusal = StoreError(.database, "\(path): a daemon of another build serves it")
        #expect(throws: refusal) {
            try HealthDatabase(path: path, machineZone: utc, beforeMigrating: { _ throws(StoreError) in throw refusal })
        }
        #expect(version() == 1)
        let asked = Recorder<StoreMigration>()
        let store = try HealthDatabase(path: path, machineZone: utc, beforeMigrating: { asked.append($0) })
        #expect(asked.all == [StoreMigration(path: path, from: 1, to: StoreSchema.version)])
        #expect(try store.migratedBy() == StoreMigrator(version: RHRVersion.current, build: RHRVersion.build))
        #expect(version() == StoreSchema.version)
        // A new store is made, not migrated: nobody is asked, and it says which rhr made it.
        let fresh = try HealthDatabase(path: directory.file("new.sqlite"), machineZone: utc, beforeMigrating: { asked.append($0) })
        #expect(asked.all.count == 1)
        #expect(try fresh.migratedBy()?.build == RHRVersion.build)
    }

    @Test func aVersionOneStoreMigratesWithItsDataAndHistory() throws {
        let path = try versionOneStore()
        let store = try HealthDatabase(path: path, machineZone: utc)
        let version = try store.db.statement("PRAGMA user_version")
        #expect(try version.step() && version.int(try version.column("user_version")) == StoreSchema.version)
        version.reset()

        // The sample both roads delivered is held by both; one value a day, one sample behind it.
        let samples = try store.samples()
        #expect(samples.map(\.stream).sorted() == ["apple-health-export", "iphone", "iphone"])
        #expect(samples.first { $0.stream == "apple-health-export" }?.snapshot == true)
        // When the copies were first received is not known from before schema 7: not their last delivery.
        #expect(samples.allSatisfy { $0.firstReceived == nil })
        let days = try store.days(aggregation: .mean)
        #expect(days.map(\.bpmText) == ["57.0", "59.0"] && days.map(\.samples) == [1, 1])
        #expect(try store.heartRateDays().map(\.total) == [6])
        // The history as it was recorded, its origins without the baked-in date; "60 → 60" was never a revision.
        #expect(try store.revisions().map { $0.text(thisYear: 2026) } == ["draft 62 → 59 (iphone, 14 Mar 12:00 +01:00)"])
        #expect(try store.streams().map(\.origin) == ["Apple Health export", "iphone"])
        #expect(try store.streams().first { $0.stream == "iphone" }?.cursor == "c2")
        #expect(try store.revision() == 2)

        // The migrated store goes on: the bridge continues from its cursor, and a deletion it saw before is kept.
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-03-14T18:00:00+01:00"),
                                      cursor: .init(previous: "c2", next: "c3"), origin: "iphone"))
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: ts("2026-03-14T08:00:00+01:00"),
                                      snapshot: .init(from: nil, to: ts("2026-03-14T08:00:00+01:00")),
                                      origin: "Apple Health export"))
        #expect(try store.days(aggregation: .latest).map(\.bpmText) == ["57", "59"])
    }

    /// A phone feed stored by version 1 (a Health Auto Export token's stream) becomes a phone feed's road (version 3):
    /// the next request that says what it holds changes nothing, and no second road appears.
    @Test func aVersionOnePhoneFeedBecomesAPhoneFeedsRoad() throws {
        let path = try versionOneStore()
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        let receivedAt = ts("2026-03-14T10:00:00+01:00").epochSeconds
        let start = ts("2026-03-13T00:00:00+01:00").epochSeconds
        let identity = "restingHeartRate|Jane’s Apple Watch|\(Int(start))|\(Int(start))"
        #expect(sqlite3_exec(handle, """
            INSERT INTO stream(id, store, name, as_of, as_of_offset, as_of_day, origin, revision) VALUES
                (3, 'healthkit', 'http-phone', \(receivedAt), 3600, \(day("2026-03-14").daysSinceEpoch),
                 'Health Auto Export over HTTP', 2);
            INSERT INTO sample(id, store, identity, writer_id, stream_id, day, offset_assumed, start, "end", offset_seconds,
                               value, unit, in_range)
            VALUES (3, 'healthkit', '\(identity)', 1, 3, \(day("2026-03-13").daysSinceEpoch), 0, \(start), \(start), 3600, 56,
                    'count/min', 1);
            INSERT INTO sample_stream(sample_id, stream_id) VALUES (3, 3);
            """, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)

        let store = try HealthDatabase(path: path, machineZone: utc)
        #expect(try store.db.integer("SELECT by_day FROM layer WHERE stream_id = 3", column: "by_day") == 1)
        let again = try store.apply(SyncBatch(
            store: .healthKit, stream: "http-phone", asOf: ts("2026-03-14T10:15:00+01:00"),
            resting: [hk("2026-03-13T00:00:00+01:00", "2026-03-13T00:00:00+01:00", 56)],
            origin: "Health Auto Export over HTTP", dayFeed: .replacesDays))
        #expect(again.unchanged == 1 && !again.changedSomething)
        #expect(try store.db.integer("SELECT count(*) AS n FROM layer WHERE stream_id = 3", column: "n") == 1)
    }
}
