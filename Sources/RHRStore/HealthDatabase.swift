import CSQLite
import Foundation
import RHRCore

/// rhr's store: one SQLite file (mode 0600, WAL) that several processes may use at once.
/// One instance is one connection; use it from one thread at a time.
///
/// Opening never touches a file that is not rhr's (docs/design.md section 8): what is at the path is looked at
/// first, by its header and then on a read-only connection, and only an rhr store (or nothing, or an empty file)
/// is opened for writing. Readers (`reading(path:machineZone:)`) never create or change anything.
public final class HealthDatabase {
    public let path: String
    /// R5: whose offset a null Health Connect offset assumes.
    public let machineZone: TimeZone
    let db: SQLiteConnection

    /// How long first-time setup keeps trying while other processes set up the same new store.
    static let setupPatience: Double = 15

    /// Opens the store at `path` for reading and writing, creating it (mode 0600) and migrating its schema as
    /// needed. Many processes may do this at once on one new path: each ends with the same store.
    public init(path: String, machineZone: TimeZone = .current) throws(StoreError) {
        self.path = path
        self.machineZone = machineZone
        if path != ":memory:" {
            switch try StoreFile.inspect(path) {
            case .missing: try HealthDatabase.createPrivately(path)
            case .empty: break
            case .sqlite:
                if let refusal = StoreFile.refusal(try StoreFile.look(at: path), path: path) { throw refusal }
            }
            try HealthDatabase.makePrivate(path)
        }
        db = try SQLiteConnection(path: path)
        if db.isReadOnly {
            throw StoreError(.database, "\(path): the store cannot be written (permission denied); "
                + "commands that only read it (status, export, summary, the dashboard) can")
        }
        // The busy timeout first: another process may hold the write lock while we set up.
        try db.execute("PRAGMA busy_timeout = 10000")
        try HealthDatabase.retryingWhileBusy(db) { () throws(StoreError) in
            try setUp()
        }
    }

    /// Opens the store at `path` for reading only, or returns nil when there is none (no file, or an empty one).
    /// Nothing at the path is created or changed; a read-only store, or one in a read-only directory, reads.
    /// A store of an older schema is brought up to date first when it can be written, like any rhr store.
    public static func reading(path: String, machineZone: TimeZone = .current) throws(StoreError) -> HealthDatabase? {
        switch try StoreFile.inspect(path) {
        case .missing, .empty: return nil
        case .sqlite: break
        }
        let connection = try StoreFile.readOnly(path)
        let contents = try StoreFile.contents(of: connection)
        if let refusal = StoreFile.refusal(contents, path: path) { throw refusal }
        // An empty SQLite file is no store yet.
        if !contents.hasTables { return nil }
        if contents.version < StoreSchema.version {
            // Bringing it up to date writes the file and its directory (the journal): say so where neither may be.
            guard access(path, W_OK) == 0, access(PathText.parent(path), W_OK) == 0 else {
                throw StoreError(.database, "\(path): the store was written by an earlier rhr (schema \(contents.version); "
                    + "this one reads \(StoreSchema.version)) and cannot be brought up to date here (permission denied); "
                    + "run rhr import or rhr daemon on it once where it can be written")
            }
            return try HealthDatabase(path: path, machineZone: machineZone)
        }
        try connection.execute("PRAGMA busy_timeout = 10000; PRAGMA query_only = 1")
        return HealthDatabase(path: path, machineZone: machineZone, connection: connection)
    }

    /// An empty store in memory: what a reading command shows where the default store is not made yet.
    public static func empty(machineZone: TimeZone = .current) throws(StoreError) -> HealthDatabase {
        try HealthDatabase(path: ":memory:", machineZone: machineZone)
    }

    private init(path: String, machineZone: TimeZone, connection: SQLiteConnection) {
        self.path = path
        self.machineZone = machineZone
        self.db = connection
    }

    /// WAL mode and the schema, each safe to run while other processes run it too.
    private func setUp() throws(StoreError) {
        let mode = try db.statement("PRAGMA journal_mode = WAL")
        let got = try mode.step() ? mode.text(try mode.column("journal_mode")) : ""
        mode.reset()
        if got.lowercased() != "wal" && path != ":memory:" {
            throw StoreError(.database, "\(path): cannot switch the store to WAL mode (got \(got))")
        }
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        try migrate()
    }

    /// Runs `body` again while another connection holds a lock SQLite does not wait for (two processes
    /// switching one new file to WAL), with a short random pause, for up to `setupPatience` seconds.
    static func retryingWhileBusy<T>(_ db: SQLiteConnection, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let deadline = Date().addingTimeInterval(setupPatience)
        while true {
            do {
                return try body()
            } catch {
                guard db.lastErrorWasBusy, Date() < deadline else { throw error }
                usleep(useconds_t.random(in: 1_000...20_000))
            }
        }
    }

    /// Creates an empty file readable by its owner only, so SQLite's WAL and shm files inherit 0600. Another
    /// process creating it at the same moment is fine: one of the two makes it.
    private static func createPrivately(_ path: String) throws(StoreError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 || errno == EEXIST else {
            throw StoreError(.database, "\(path): cannot open the store: \(String(cString: strerror(errno)))")
        }
        if fd >= 0 { close(fd) }
    }

    /// An rhr store (or the empty file of one) that others may read is made the owner's only.
    private static func makePrivate(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & 0o077 != 0 { chmod(path, 0o600) }
    }

    /// Brings the schema up to date. The version is read again inside the write transaction: another process
    /// may have migrated the store between this one's look and its lock.
    private func migrate() throws(StoreError) {
        if try db.integer("PRAGMA user_version", column: "user_version") == StoreSchema.version { return }
        try db.transaction { () throws(StoreError) in
            let contents = try StoreFile.contents(of: db)
            if let refusal = StoreFile.refusal(contents, path: path) { throw refusal }
            guard contents.version < StoreSchema.version else { return }
            for step in StoreSchema.migrations[Int(contents.version)...] {
                try db.execute(step)
            }
            try db.execute("PRAGMA user_version = \(StoreSchema.version)")
        }
    }
}
