import CSQLite
import Foundation
import Testing
@testable import RHRStore
import RHRTestSupport

@Suite("Store file")
struct StoreFileTests {
    @Test func createdPrivateInWALMode() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("rhr.sqlite")
        let store = try HealthDatabase(path: path, machineZone: utc)
        _ = try store.apply(export("2026-11-29 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 58)]))
        for file in [path, path + "-wal"] {
            #expect(FileMode.permissions(file) == 0o600, "\(file)")
        }
        let mode = try store.db.statement("PRAGMA journal_mode")
        #expect(try mode.step() && mode.text(try mode.column("journal_mode")) == "wal")
        mode.reset()
    }

    @Test func reopensWithItsData() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("rhr.sqlite")
        do {
            let store = try HealthDatabase(path: path, machineZone: utc)
            _ = try store.apply(export("2026-11-29 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 58)]))
        }
        let again = try HealthDatabase(path: path, machineZone: utc)
        #expect(try again.days(aggregation: .latest).map(\.bpm) == [58])
        #expect(try again.revision() == 1)
    }

    @Test func refusesAFileThatIsNotAnRHRStore() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("other.sqlite")
        try SQLiteFile.execute("CREATE TABLE steps(n INTEGER); INSERT INTO steps VALUES (1)", at: path)
        #expect { try HealthDatabase(path: path) } throws: { error in
            (error as? StoreError)?.message.contains("not an rhr store") == true
        }
        // Nothing was changed in it.
        var handle: OpaquePointer?
        sqlite3_open(path, &handle)
        var stmt: OpaquePointer?
        sqlite3_prepare_v2(handle, "SELECT count(*) FROM sqlite_master", -1, &stmt, nil)
        sqlite3_step(stmt)
        #expect(sqlite3_column_int(stmt, 0) == 1)
        sqlite3_finalize(stmt)
        sqlite3_close(handle)
    }

    @Test func refusesANewerSchema() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("rhr.sqlite")
        _ = try HealthDatabase(path: path)
        try SQLiteFile.execute("PRAGMA user_version = 99", at: path)
        #expect { try HealthDatabase(path: path) } throws: { error in
            (error as? StoreError)?.message.contains("schema version 99") == true
        }
    }

    @Test func unwritablePlaceIsAClearError() {
        #expect { try HealthDatabase(path: "/nonexistent-dir/rhr.sqlite") } throws: { error in
            (error as? StoreError)?.message == "/nonexistent-dir/rhr.sqlite: cannot make the store in /nonexistent-dir: No such "
                + "file or directory; nothing was changed"
        }
    }
}
