import CSQLite
import Foundation
import RHRCore

/// rhr's store: one SQLite file (mode 0600, WAL) that several processes may use at once.
/// One instance is one connection; use it from one thread at a time.
public final class HealthDatabase {
    public let path: String
    /// R5: whose offset a null Health Connect offset assumes.
    public let machineZone: TimeZone
    let db: SQLiteConnection

    /// Opens the store at `path`, creating it (mode 0600) and migrating its schema as needed.
    public init(path: String, machineZone: TimeZone = .current) throws(StoreError) {
        self.path = path
        self.machineZone = machineZone
        try HealthDatabase.createPrivately(path)
        db = try SQLiteConnection(path: path)
        // The busy timeout first: another process may hold the write lock while we set up.
        try db.execute("PRAGMA busy_timeout = 10000")
        let mode = try pragma("journal_mode", " = WAL")
        if mode.lowercased() != "wal" && path != ":memory:" {
            throw StoreError(.database, "\(path): cannot switch the store to WAL mode (got \(mode))")
        }
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        try migrate()
    }

    /// Creates an empty file readable by its owner only, so SQLite's WAL and shm files inherit 0600.
    private static func createPrivately(_ path: String) throws(StoreError) {
        guard path != ":memory:" else { return }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError(.database, "\(path): cannot open the store: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        close(fd)
    }

    /// A pragma's value: the pragma's name is its result column's (`PRAGMA user_version` → `user_version`).
    private func pragma(_ name: String, _ assignment: String = "") throws(StoreError) -> String {
        let statement = try db.statement("PRAGMA \(name)\(assignment)")
        defer { statement.reset() }
        return try statement.step() ? statement.text(try statement.column(name)) : ""
    }

    private func migrate() throws(StoreError) {
        let version = Int64(try pragma("user_version")) ?? 0
        let known = StoreSchema.version
        if version > known {
            throw StoreError(.database, "\(path): the store has schema version \(version); this rhr knows up to \(known). Use a newer rhr.")
        }
        if version == 0 {
            let tables = try db.statement("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table'")
            defer { tables.reset() }
            if try tables.step(), tables.int(try tables.column("tables")) > 0 {
                throw StoreError(.database, "\(path): not an rhr store (it holds other tables); nothing was changed")
            }
        } else {
            let meta = try db.statement("SELECT value FROM meta WHERE key = 'application'")
            defer { meta.reset() }
            guard try meta.step(), meta.text(try meta.column("value")) == "rhr" else {
                throw StoreError(.database, "\(path): not an rhr store; nothing was changed")
            }
        }
        guard version < known else { return }
        try db.transaction { () throws(StoreError) in
            for step in StoreSchema.migrations[Int(version)...] {
                try db.execute(step)
            }
            try db.execute("PRAGMA user_version = \(known)")
        }
    }
}
