import CSQLite
import Foundation
import RHRCore

/// What lies at a store's path, found out without changing anything there: no chmod, no journal mode, no
/// `-wal` or `-shm` beside it (docs/design.md section 8, "refuse before touching"). Only nothing, or an SQLite
/// database, is let through: rhr never leaves an empty or half-made file at a store's path (`NewStore`), so anything
/// else there is not rhr's.
enum StoreFile {
    /// Nothing at the path.
    case missing
    /// An SQLite database; whether it is rhr's is `StoreFile.look(at:)`'s question.
    case sqlite

    /// Looks at what is at the path (`lstat`, which opens nothing and follows no link), then reads the first bytes of
    /// the file (the 16 of SQLite's header), and refuses what is no database. A file this process has a connection
    /// on is not opened again: it was looked at when that connection opened, and closing a descriptor of it would
    /// drop the connection's locks (`OpenStoreFiles`).
    static func inspect(_ path: String) throws(StoreError) -> StoreFile {
        var info = stat()
        if lstat(path, &info) != 0 {
            let code = errno
            if code == ENOENT { return .missing }
            throw StoreError(.database, "\(path): cannot open the store: \(String(cString: strerror(code)))")
        }
        try refuseUnlessStoreFile(info, path)
        if let look = try OpenStoreFiles.unlessOpen(OpenStoreFiles.FileID(info), { () throws(StoreError) in try readHeader(path) }) {
            return look
        }
        return .sqlite
    }

    /// What `lstat` tells: a link, a directory, another kind of file or an empty file is refused.
    private static func refuseUnlessStoreFile(_ info: stat, _ path: String) throws(StoreError) {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if info.st_size == 0 {
                throw StoreError(.database, "\(path): not an rhr store (an empty file); nothing was changed; rhr makes a new "
                    + "store only where there is no file")
            }
        case S_IFLNK:
            throw symbolicLink(path)
        case S_IFDIR:
            throw StoreError(.database, "\(path): is a directory, not an rhr store")
        default:
            throw StoreError(.database, "\(path): not an rhr store (not a regular file); nothing was changed")
        }
    }

    /// A link at the store's path is not followed: what rhr makes private and writes is the file the user named.
    private static func symbolicLink(_ path: String) -> StoreError {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &target, target.count - 1)
        let to = length > 0 ? " (to \(String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)))" : ""
        return StoreError(.database, "\(path): is a symbolic link\(to); rhr does not follow a link at the store's path, so "
            + "nothing was changed; give the file itself with --store")
    }

    private static func readHeader(_ path: String) throws(StoreError) -> StoreFile {
        // Non-blocking, so a FIFO put at the path since the `lstat` is refused instead of waiting for a writer; no
        // link followed, should one have been put there.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .missing }
            if code == ELOOP { throw symbolicLink(path) }
            throw StoreError(.database, "\(path): cannot open the store: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw StoreError(.database, "\(path): cannot open the store: \(String(cString: strerror(errno)))")
        }
        // What the descriptor is, in case the path changed since the `lstat`.
        try refuseUnlessStoreFile(info, path)
        var header = [UInt8](repeating: 0, count: 16)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 16, 0) }
        guard n == 16, header == Array("SQLite format 3\0".utf8) else {
            throw StoreError(.database, "\(path): not an rhr store (not a SQLite database); nothing was changed")
        }
        return .sqlite
    }

    /// What a database's own tables say about it, read on a read-only connection.
    struct Contents {
        /// `PRAGMA user_version`: the schema version of an rhr store.
        var version: Int64
        /// Whether it holds any table at all.
        var hasTables: Bool
        /// Whether its `meta` table names rhr as its application.
        var isRHR: Bool
    }

    /// Looks inside an SQLite file on a read-only connection that changes nothing (`StoreFile.readOnly`).
    static func look(at path: String) throws(StoreError) -> Contents {
        try contents(of: try readOnly(path))
    }

    /// The contents as the connection sees them (inside a write transaction when it holds one).
    static func contents(of db: SQLiteConnection) throws(StoreError) -> Contents {
        let version = try db.integer("PRAGMA user_version", column: "user_version")
        let hasTables = try db.integer("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table'", column: "tables") > 0
        let hasMeta = try db.integer("SELECT count(*) AS meta FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
                                     column: "meta") > 0
        var isRHR = false
        if hasMeta {
            isRHR = try db.integer("SELECT count(*) AS rhr FROM meta WHERE key = 'application' AND value = 'rhr'", column: "rhr") > 0
        }
        return Contents(version: version, hasTables: hasTables, isRHR: isRHR)
    }

    /// The refusal for a database that is not rhr's, or of a schema this rhr does not know; nil when it is fine.
    static func refusal(_ contents: Contents, path: String) -> StoreError? {
        if !contents.hasTables {
            // A store is whole from its first moment (`NewStore`): an SQLite file without tables is someone else's.
            return StoreError(.database, "\(path): not an rhr store (an SQLite database with no tables); nothing was changed")
        }
        if !contents.isRHR {
            return StoreError(.database, "\(path): not an rhr store (it holds other tables); nothing was changed")
        }
        if contents.version > StoreSchema.version {
            return StoreError(.database, "\(path): the store has schema version \(contents.version); this rhr knows up to "
                + "\(StoreSchema.version). Use a newer rhr.")
        }
        return nil
    }

    /// A read-only connection that writes nothing beside the file, whatever may be written to it.
    ///
    /// A store in WAL mode is read through its `-shm` index, which SQLite creates when missing. It cannot where
    /// the directory is read-only, and a reader of a file it may not write should not leave files there that the
    /// owner cannot change either. Where the `-wal` file holds nothing, the database file alone is the whole
    /// database, and SQLite can read it as immutable: no lock, no `-shm`. Where the `-wal` holds commits,
    /// they must be read through the index (docs/design.md section 8).
    static func readOnly(_ path: String) throws(StoreError) -> SQLiteConnection {
        let walHasCommits = fileSize(path + "-wal") > 0
        // A file this process may not write has no writer in this process's name: nothing changes it under us.
        if !walHasCommits && access(path, W_OK) != 0 {
            return try SQLiteConnection(path: path, mode: .immutable)
        }
        let db = try SQLiteConnection(path: path, mode: .readOnly)
        try db.execute("PRAGMA busy_timeout = 10000")
        do {
            // Opening is lazy: the first read is what finds out whether the index can be had. Another process setting
            // up a new store holds a lock SQLite does not wait for: look again, for a while.
            _ = try HealthDatabase.retryingWhileBusy(db) { () throws(StoreError) in
                try db.integer("SELECT count(*) AS tables FROM sqlite_master", column: "tables")
            }
            return db
        } catch {
            // Only an index that cannot be had is read around; anything else (busy, a damaged file) is what it is.
            guard db.lastErrorKind == SQLITE_CANTOPEN || db.lastErrorKind == SQLITE_READONLY else { throw error }
            guard !walHasCommits else {
                throw StoreError(.database, "\(path): cannot read the store: its \(PathText.lastComponent(path))-wal "
                    + "holds changes that SQLite reads through a -shm file it cannot create here "
                    + "(\(db.lastSystemError ?? "permission denied")); open the store once where its directory can be written",
                    detail: error.detail)
            }
            return try SQLiteConnection(path: path, mode: .immutable)
        }
    }

    /// The size of a regular file, 0 when there is none.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int64(info.st_size) : 0
    }
}
