import CSQLite
import Foundation
import RHRCore

/// A new store is made whole under a name of its own beside its path, then linked into place (docs/design.md
/// section 8, "Many processes, one new store"): whatever is at a store's path is a whole rhr store from its first
/// moment, so an empty or half-made file there is never rhr's, and is refused rather than taken over.
///
/// Many processes may make one at once: each makes its own, `link(2)` puts one in place and fails with `EEXIST` for
/// the others, which throw theirs away and open the one that won. `link` never replaces what is there, so no store is
/// ever put over another one already in use.
enum NewStore {
    /// What the temporary names carry after the store's name: `.rhr.sqlite.rhr-new-PID-XXXXXX`.
    static let marker = ".rhr-new-"
    /// A temporary store older than this was left by an rhr killed while making it (making one takes milliseconds).
    static let abandonedAfter: Double = 600

    /// Makes a store at `path`, where there was nothing when looked at; false when another process put one there first.
    static func create(_ path: String) throws(StoreError) -> Bool {
        let directory = PathText.parent(path)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var temporary = "", fd: Int32 = -1
        for _ in 0..<20 {
            let random = String((0..<6).map { _ in alphabet.randomElement() ?? "x" })
            temporary = PathText.join(directory, "." + PathText.lastComponent(path) + marker + "\(getpid())-" + random)
            fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw cannotMake(path, errno) }
        // The umask may only narrow the mode; make it exactly the owner's. SQLite's -wal and -shm take it over.
        fchmod(fd, 0o600)
        close(fd)
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
        do {
            try setUp(temporary)
        } catch {
            // Said of the store the user named, not of the name it was made under.
            throw StoreError(error.code, error.message.replacingOccurrences(of: temporary, with: path), detail: error.detail)
        }
        if link(temporary, path) == 0 {
            syncDirectory(directory)
            return true
        }
        let code = errno
        if code == EEXIST { return false }
        if code == EPERM || code == EOPNOTSUPP {
            throw StoreError(.database, "\(path): cannot make the store: the file system of \(directory) has no hard links "
                + "(FAT, exFAT), which rhr needs to put a new store in place whole; nothing was changed; keep the store on another "
                + "file system")
        }
        throw cannotMake(path, code)
    }

    /// The schema, in rollback-journal mode so that all of it is in the file itself, then WAL, which a store keeps
    /// from then on; the connection is closed when this returns, leaving no `-wal` with anything in it.
    private static func setUp(_ temporary: String) throws(StoreError) {
        let db = try SQLiteConnection(path: temporary)
        try HealthDatabase.migrate(db, path: temporary)
        try HealthDatabase.switchToWAL(db, path: temporary)
    }

    private static func cannotMake(_ path: String, _ code: Int32) -> StoreError {
        let directory = PathText.parent(path)
        if code == EACCES || code == EPERM || code == EROFS {
            return StoreError(.database, "\(path): cannot make the store: "
                + "\(AccessWording.mayNotBeWritten("its directory \(directory)")); nothing was changed")
        }
        return StoreError(.database, "\(path): cannot make the store in \(directory): \(String(cString: strerror(code))); "
            + "nothing was changed")
    }

    /// So that the new name survives a power cut as the store's commits do.
    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Removes what an rhr killed while making a store beside `path` left there (its temporary store and SQLite's
    /// files beside it): this user's regular files of the temporary names, untouched for `abandonedAfter` seconds.
    /// They hold a schema and no health data.
    static func removeAbandoned(beside path: String) {
        let directory = PathText.parent(path), prefix = "." + PathText.lastComponent(path) + marker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let now = time(nil)
        for name in names where name.hasPrefix(prefix) {
            let file = PathText.join(directory, name)
            var info = stat()
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
                  Double(now - info.st_mtim.tv_sec) > abandonedAfter else { continue }
            unlink(file)
        }
    }
}
