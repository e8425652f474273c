import CSQLite
import Foundation
import RHRCore

/// SQLite's failures in rhr's words, by kind (docs/design.md section 8): what cannot be done, why, that nothing was
/// changed, and what to do. A user never reads SQLite's own text ("database or disk is full"); it is kept in the
/// error's `detail`, for the daemon's log.
enum StoreFailure {
    /// The failure SQLite reported: its extended result `code`, the system's `errno` behind it (0 when none) and its
    /// own words.
    static func error(_ path: String, code: Int32, systemError: Int32, said: String) -> StoreError {
        let detail = "SQLite: \(said)"
        let system = systemError == 0 ? nil : String(cString: strerror(systemError))
        func failed(_ words: String) -> StoreError { StoreError(.database, "\(path): \(words)", detail: detail) }
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL:
            return busy(path, detail: detail)
        case SQLITE_FULL:
            return failed("the disk that holds the store is full: the store could not grow; nothing was changed; free some "
                + "space on it and try again")
        case SQLITE_READONLY:
            if code == SQLITE_READONLY | (4 << 8) {  // SQLITE_READONLY_DBMOVED
                return failed("the store's file was moved or removed while rhr had it open; nothing was changed; run the "
                    + "command again")
            }
            return cannotWrite(path, detail: detail)
        case SQLITE_CANTOPEN:
            if let unwritable = unwritableDirectory(path) { return cannotWrite(path, directory: unwritable, detail: detail) }
            return failed("cannot open the store or a file SQLite keeps beside it (its -wal or -shm): "
                + "\(system ?? "SQLite could not open it"); nothing was changed")
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return damaged(path, detail: detail)
        case SQLITE_IOERR:
            if code == SQLITE_IOERR | (12 << 8) { return outOfMemory(path, detail: detail) }  // SQLITE_IOERR_NOMEM
            // SQLITE_IOERR_SHORT_READ: the file ends before the pages it says it has.
            if code == SQLITE_IOERR | (2 << 8) { return damaged(path, detail: detail) }
            let why = system.map { ": \($0)" } ?? " of its disk or file system"
            return failed("reading or writing the store failed (an I/O error\(why)); nothing was changed; check the disk, "
                + "then try again")
        case SQLITE_TOOBIG:
            return failed("a value is too large for the store (over the most SQLite keeps in one); nothing was changed")
        case SQLITE_CONSTRAINT:
            if code == SQLITE_CONSTRAINT | (7 << 8) {  // SQLITE_CONSTRAINT_TRIGGER: rhr makes no trigger
                return failed("the store refused the change: a trigger in it, which rhr never makes, refused it (another "
                    + "program has changed the store), so nothing of this import or request was applied")
            }
            // SQLite's own words name tables and columns (`UNIQUE constraint failed: sample.store, …`), which tell a
            // user nothing.
            return failed("cannot read or change the store: the store refused a change that would break one of its own "
                + "rules, so nothing of this import or request was applied; this is a bug in rhr, please report it")
        case SQLITE_NOMEM:
            return outOfMemory(path, detail: detail)
        case SQLITE_PERM, SQLITE_AUTH:
            return failed("the system refused rhr access to the store (\(system ?? "permission denied")); nothing was changed")
        case SQLITE_ERROR:
            // A table or column missing (`no such table: sample`): another program changed the file.
            return failed("the store's tables are not as rhr made them (has another program changed the file?); nothing "
                + "was changed")
        case SQLITE_SCHEMA:
            return failed("the store's tables changed while rhr used them (another rhr brought them up to date?); nothing "
                + "was changed; try again")
        default:
            return failed("SQLite could not do what rhr asked of the store (its result code \(code)); nothing was changed; "
                + "this is a fault in rhr, please report it")
        }
    }

    /// SQLite's "database is locked", worded: another process writes the store for longer than the busy wait.
    static func busy(_ path: String, detail: String? = nil) -> StoreError {
        StoreError(.busy, "\(path): another process (an import, or another rhr) has been writing the store for longer than "
            + "rhr waits; nothing was changed; try again when it is done", detail: detail)
    }

    /// Pages that are not what SQLite wrote: refused, with the way out.
    static func damaged(_ path: String, detail: String?) -> StoreError {
        StoreError(.database, "\(path): the store is damaged: some of its pages are not what SQLite wrote there; nothing "
            + "was changed. Restore it from a backup, or save what can still be read: sqlite3 \(PathText.shellWord(path)) .recover | "
            + "sqlite3 recovered.sqlite", detail: detail)
    }

    private static func outOfMemory(_ path: String, detail: String) -> StoreError {
        StoreError(.database, "\(path): rhr ran out of memory while using the store; nothing was changed", detail: detail)
    }

    /// A store this process may not write, and why: its directory (where SQLite keeps the `-wal` and `-shm`), the file
    /// itself, or one of the files beside it.
    static func cannotWrite(_ path: String, directory: String? = nil, detail: String? = nil) -> StoreError {
        let why: String
        if let directory = directory ?? unwritableDirectory(path) {
            why = " here: \(AccessWording.mayNotBeWritten("its directory \(directory)")), and SQLite keeps the store's "
                + "-wal and -shm there"
        } else if access(path, W_OK) != 0 {
            why = ": " + AccessWording.mayNotBeWritten("the file")
        } else {
            why = ": " + AccessWording.mayNotBeWritten("a file SQLite keeps beside it (its -wal or -shm)")
        }
        return StoreError(.database, "\(path): the store cannot be written\(why); nothing was changed; commands that only "
            + "read it (status, export, summary, the dashboard) can", detail: detail)
    }

    /// The store's directory when this process may not write in it (make or remove the `-wal` and `-shm`).
    static func unwritableDirectory(_ path: String) -> String? {
        let directory = PathText.parent(path)
        return access(directory, W_OK | X_OK) == 0 ? nil : directory
    }
}
