import CSQLite
import Foundation
import RHRCore

/// rhr's store: one SQLite file (mode 0600, WAL) that several processes may use at once.
/// One instance is one connection; use it from one thread at a time.
///
/// Opening never touches a file that is not rhr's (docs/design.md section 8): what is at the path is looked at
/// first, by `lstat`, its header and then on a read-only connection, and only an rhr store is opened for writing,
/// after SQLite's `quick_check` found its pages sound; where there is nothing, a whole new store is put in place
/// (`NewStore`). Readers (`reading(path:machineZone:)`) never create or change anything.
public final class HealthDatabase {
    public let path: String
    /// R5: whose offset a null Health Connect offset assumes.
    public let machineZone: TimeZone
    /// The machine's clock, asked when batches arrive: R13 dates a delivery that claims a time after it by when it was
    /// read (`SyncBatch.datedByReceipt`). Tests set another.
    public var clock: @Sendable () -> Date = { Date() }
    let db: SQLiteConnection
    /// Asked before this connection brings the store's schema up to date.
    private let beforeMigrating: MigrationCheck?

    /// How long first-time setup keeps trying while other processes set up the same new store.
    static let setupPatience: Double = 15
    /// How long SQLite waits for another process's write lock before a write fails as busy (`StoreError.busy`).
    static let busyTimeoutMilliseconds = 10_000

    /// Opens the store at `path` for reading and writing, creating it (mode 0600) and migrating its schema as
    /// needed, once `beforeMigrating` let it (docs/design.md section 8, version skew). Many processes may do this at
    /// once on one new path: each ends with the same store.
    public init(path: String, machineZone: TimeZone = .current, beforeMigrating: MigrationCheck? = nil) throws(StoreError) {
        self.path = path
        self.machineZone = machineZone
        self.beforeMigrating = beforeMigrating
        let made = path == ":memory:" ? true : try HealthDatabase.prepare(path)
        db = try SQLiteConnection(path: path)
        if db.isReadOnly { throw StoreFailure.cannotWrite(path) }
        // The busy timeout first: another process may hold the write lock while we set up.
        try db.execute("PRAGMA busy_timeout = \(HealthDatabase.busyTimeoutMilliseconds)")
        try HealthDatabase.retryingWhileBusy(db) { () throws(StoreError) in
            // Before anything is written: a store this process did not just make may be damaged.
            if !made { try checkPages() }
            try setUp()
        }
    }

    /// Runs `body` with SQLite waiting at most `seconds` for another process's write lock instead of the usual time:
    /// for work that can as well be done later (the folder watch tries a file again), so that the thread that owns
    /// the store is not held up meanwhile.
    public func waitingForLocks<T, Failure: Error>(atMost seconds: Double, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        try? db.execute("PRAGMA busy_timeout = \(Int(seconds * 1000))")
        defer { try? db.execute("PRAGMA busy_timeout = \(HealthDatabase.busyTimeoutMilliseconds)") }
        return try body()
    }

    /// Looks at what is at `path`, refusing what is not an rhr store, and puts a new store there when there is
    /// nothing; true when this process made it.
    private static func prepare(_ path: String) throws(StoreError) -> Bool {
        NewStore.removeAbandoned(beside: path)
        // A store another process put in place first is looked at like any other; one that vanished again, made anew.
        for _ in 0..<3 {
            switch try StoreFile.inspect(path) {
            case .missing:
                if try NewStore.create(path) { return true }
            case .sqlite:
                if let refusal = StoreFile.refusal(try StoreFile.look(at: path), path: path) { throw refusal }
                makePrivate(path)
                return false
            }
        }
        throw StoreError(.database, "\(path): cannot open the store: another program removes it as soon as it is made")
    }

    /// Opens the store at `path` for reading only, or returns nil when there is none.
    /// Nothing at the path is created or changed; a read-only store, or one in a read-only directory, reads.
    /// A store of an older schema is brought up to date first when it can be written, like any rhr store.
    public static func reading(path: String, machineZone: TimeZone = .current,
                               beforeMigrating: MigrationCheck? = nil) throws(StoreError) -> HealthDatabase? {
        if try StoreFile.inspect(path) == .missing { return nil }
        let connection = try StoreFile.readOnly(path)
        let contents = try StoreFile.contents(of: connection)
        if let refusal = StoreFile.refusal(contents, path: path) { throw refusal }
        if contents.version < StoreSchema.version {
            // Bringing it up to date writes the file and its directory (the journal): say so where neither may be.
            guard access(path, W_OK) == 0, access(PathText.parent(path), W_OK) == 0 else {
                throw StoreError(.database, "\(path): the store was written by an earlier rhr (schema \(contents.version); "
                    + "this one reads \(StoreSchema.version)) and cannot be brought up to date here (permission denied); "
                    + "run rhr import or rhr daemon on it once where it can be written")
            }
            return try HealthDatabase(path: path, machineZone: machineZone, beforeMigrating: beforeMigrating)
        }
        try connection.execute("PRAGMA busy_timeout = \(HealthDatabase.busyTimeoutMilliseconds); PRAGMA query_only = 1")
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
        beforeMigrating = nil
    }

    /// Refuses what is at `path` unless it is nothing or an rhr store (a link, a directory, an empty file, another
    /// program's file), touching nothing: for a command that keeps files beside a store without opening it
    /// (`rhr token`).
    public static func checkPath(_ path: String) throws(StoreError) {
        if try StoreFile.inspect(path) == .sqlite, let refusal = StoreFile.refusal(try StoreFile.look(at: path), path: path) {
            throw refusal
        }
    }

    /// WAL mode and the schema, each safe to run while other processes run it too.
    private func setUp() throws(StoreError) {
        if path != ":memory:" { try HealthDatabase.switchToWAL(db, path: path) }
        try db.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
        try HealthDatabase.migrate(db, path: path, check: beforeMigrating)
    }

    static func switchToWAL(_ db: SQLiteConnection, path: String) throws(StoreError) {
        let mode = try db.statement("PRAGMA journal_mode = WAL")
        let got = try mode.step() ? mode.text(try mode.column("journal_mode")) : ""
        mode.reset()
        if got.lowercased() != "wal" {
            throw StoreError(.database, "\(path): cannot switch the store to WAL mode (got \(got))")
        }
    }

    /// SQLite's `quick_check` (every page's structure, not the indexes' agreement with their tables): a store with
    /// pages that are not what SQLite wrote is refused before the daemon serves it or an import writes to it. It
    /// reads the whole file (docs/design.md section 8 gives the time on a ten-year store).
    func checkPages() throws(StoreError) {
        let check = try db.statement("PRAGMA quick_check(5)")
        defer { check.reset() }
        var problems: [String] = []
        let column = try check.column("quick_check")
        while try check.step() {
            let line = check.text(column)
            if line != "ok" { problems.append(line) }
        }
        if !problems.isEmpty {
            throw StoreFailure.damaged(path, detail: "SQLite quick_check: " + problems.joined(separator: "; "))
        }
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

    /// An rhr store that others may read is made the owner's only, through a descriptor of the file itself (no link
    /// followed). A file this process has a connection on was made private when that connection opened.
    private static func makePrivate(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        _ = try? OpenStoreFiles.unlessOpen(OpenStoreFiles.FileID(info)) { () throws(StoreError) in
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return }
            fchmod(fd, 0o600)
            close(fd)
        }
    }

    /// Brings the schema up to date (from nothing: a `NewStore` being made), and notes which rhr did. A store that
    /// holds a schema already is first shown to `check`, outside any transaction (it may ask a daemon over its socket).
    /// The version is read again inside the write transaction: another process may have migrated the store between
    /// this one's look and its lock.
    static func migrate(_ db: SQLiteConnection, path: String, check: MigrationCheck? = nil) throws(StoreError) {
        let version = try db.integer("PRAGMA user_version", column: "user_version")
        if version == StoreSchema.version { return }
        if version > 0, version < StoreSchema.version, let check {
            try check(StoreMigration(path: path, from: version, to: StoreSchema.version))
        }
        try db.transaction { () throws(StoreError) in
            let contents = try StoreFile.contents(of: db)
            if contents.hasTables, let refusal = StoreFile.refusal(contents, path: path) { throw refusal }
            guard contents.version < StoreSchema.version else { return }
            for step in StoreSchema.migrations[Int(contents.version)...] {
                try db.execute(step)
            }
            try StoreMigrator.recordThisOne(db)
            try db.execute("PRAGMA user_version = \(StoreSchema.version)")
        }
    }
}
