import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// Failures of the store itself, in rhr's words with SQLite's own text kept apart for logs (docs/design.md section 8),
/// and what a new store leaves behind when its maker is killed half way.
@Suite("store failures")
struct StoreFailureTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Resting values on `count` days from 1 Jan 2020, each of its own writer: a batch that makes the store grow.
    func manyDays(_ count: Int) -> SyncBatch {
        let first = LocalDay(year: 2020, month: 1, day: 1)!
        return export("2026-01-01 08:00:00 +0100", (0..<count).map { n in
            let day = first.adding(days: n).description
            return hk("\(day) 00:10:00 +0100", "\(day) 23:00:00 +0100", 58, writer: Writer(store: .healthKit, name: "writer \(n)"))
        })
    }

    @Test("a store that cannot grow says the disk is full, keeps SQLite's words for the log, and keeps what it had")
    func fullStore() throws {
        let store = try directory.store()
        _ = try store.apply(export("2026-11-29 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 58)]))
        // What a full disk does to SQLite, on this connection only: no page may be added.
        let pages = try store.db.integer("PRAGMA page_count", column: "page_count")
        try store.db.execute("PRAGMA max_page_count = \(pages)")
        #expect(throws: StoreError(.database, "\(store.path): the disk that holds the store is full: the store could not grow; "
            + "nothing was changed; free some space on it and try again", detail: "SQLite: database or disk is full")) {
            try store.apply(manyDays(500))
        }
        #expect(try store.days(aggregation: .latest).map(\.bpm) == [58])
        #expect(try store.revision() == 1)
    }

    @Test("what a new store's maker left when it was killed is removed once old; a store being made now is left alone")
    func abandonedNewStoresAreRemoved() throws {
        let old = ".rhr.sqlite.rhr-new-4242-abcdef", fresh = ".rhr.sqlite.rhr-new-4243-ghijkl"
        for name in [old, old + "-journal", fresh, ".rhr.sqlite.notes"] { try directory.write(name, "x") }
        let hourAgo = timeval(tv_sec: time(nil) - 3600, tv_usec: 0)
        for name in [old, old + "-journal", ".rhr.sqlite.notes"] {
            #expect(utimes(directory.file(name), [hourAgo, hourAgo]) == 0)
        }
        _ = try directory.store()
        #expect(directory.entries() == [fresh, ".rhr.sqlite.notes", "rhr.sqlite"].sorted())
    }

    @Test("a new store is never seen half made: what is at its path is a whole rhr store from the first moment")
    func newStoreIsWholeAtOnce() throws {
        _ = try directory.store()
        // Its tables and its mode are those of a store, though nothing was ever written to it.
        let contents = try StoreFile.look(at: directory.storePath)
        #expect(contents.isRHR && contents.version == StoreSchema.version)
        #expect(FileMode.permissions(directory.storePath) == 0o600)
        #expect(directory.entries().filter { $0.contains("rhr-new") }.isEmpty)
    }
}
