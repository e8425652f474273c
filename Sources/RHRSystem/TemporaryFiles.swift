import CTemporaryFiles
import Foundation
import RHRCore
import Synchronization

/// The temporary copies of health data rhr makes: each lives in a `ScratchDirectory`, which is removed when it is
/// done with, and also when the process is ended by a signal half way (docs/design.md section 8).
public enum TemporaryFiles {
    /// From now on SIGINT, SIGTERM, SIGHUP and a crash remove every scratch directory before the process dies
    /// of the signal. A command that makes temporary copies calls it first; a handler installed later (the
    /// dashboard's, the daemon's graceful SIGTERM) takes over its signals and cleans up the ordinary way.
    public static func removeOnSignals() {
        rhr_temporary_install_signal_cleanup()
    }

    /// Removes every scratch directory this process still has: the daemon calls it on its way out, when a
    /// folder import may still be reading.
    public static func removeAll() {
        rhr_temporary_remove_all()
    }

    /// Where scratch directories go: `$TMPDIR`, else /tmp.
    public static var defaultRoot: String { FileManager.default.temporaryDirectory.path }

    /// Removes the scratch directories in `root` whose owner is gone: an rhr killed outright (SIGKILL, the
    /// kernel's OOM killer) ran no handler, so its copy of health data stays until the next rhr comes here. A
    /// directory's owner holds a lock on its `.owner` file for as long as it lives, and the kernel lets go of
    /// that lock when the process dies however it dies (in any PID namespace that shares the directory): a lock
    /// this process can take on an `.owner` its owner had written to belongs to nobody. Directories of other
    /// users, without an `.owner` yet, or behind a link are passed over.
    public static func removeAbandoned(in root: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for name in names where name.hasPrefix("rhr-") {
            let directory = PathText.join(root, name)
            var info = stat()
            guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
            let fd = open(directory + "/" + ScratchDirectory.ownerFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var owner = stat()
            // An empty `.owner` is one whose maker may not hold its lock yet.
            guard fstat(fd, &owner) == 0, owner.st_size > 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The roots this process has already swept: once each is enough.
    fileprivate static let swept = Mutex<Set<String>>([])
}

/// A fresh directory only its owner can enter, for files named up front, registered with `TemporaryFiles` before
/// it is made: a signal at any moment finds it. `remove()` (or the value going away) deletes it and its files.
public final class ScratchDirectory {
    public let path: String
    private let names: [String]
    private var entry: Int32
    /// Locked (flock) from just after the directory is made until it is removed: see `removeAbandoned`.
    static let ownerFile = ".owner"
    private var ownerLock: Int32 = -1

    /// Why a scratch directory could not be made, in words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Makes `root/rhr-PURPOSE-PID-XXXXXX` (0700) for the files `names`; SQLite's companions of each name
    /// (`-wal`, `-shm`, `-journal`) are registered too, since opening a database may make them.
    public init(root: String = TemporaryFiles.defaultRoot, purpose: String, files names: [String]) throws(Failure) {
        self.names = names.flatMap(ScratchDirectory.withCompanions)
        if TemporaryFiles.swept.withLock({ $0.insert(root).inserted }) { TemporaryFiles.removeAbandoned(in: root) }
        let base = PathText.join(root, "rhr-\(purpose)-\(getpid())-")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let candidate = base + String((0..<6).map { _ in alphabet.randomElement()! })
            let files = self.names.map { candidate + "/" + $0 }
            let registered = ScratchDirectory.register(files + [candidate + "/" + Self.ownerFile, candidate])
            guard registered >= 0 else { throw Failure(description: "too many temporary files at once") }
            if mkdir(candidate, 0o700) == 0 {
                path = candidate
                entry = registered
                // The umask may only narrow the mode; make it exactly the owner's.
                chmod(candidate, 0o700)
                // Locked first, written second: a sweeper takes only an `.owner` with something in it.
                let lock = open(candidate + "/" + Self.ownerFile, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard lock >= 0, flock(lock, LOCK_EX) == 0 else {
                    let code = errno
                    if lock >= 0 { close(lock) }
                    remove()
                    throw Failure(description: "cannot lock a private temporary directory in \(root): \(errnoText(code))")
                }
                ownerLock = lock
                let pid = Array("\(getpid())\n".utf8)
                _ = pid.withUnsafeBytes { write(lock, $0.baseAddress, $0.count) }
                return
            }
            let code = errno
            rhr_temporary_unregister(registered)
            guard code == EEXIST else {
                throw Failure(description: "cannot create a private temporary directory in \(root): \(errnoText(code))")
            }
        }
        throw Failure(description: "cannot create a private temporary directory in \(root): every name tried is taken")
    }

    deinit { remove() }

    /// A name and the files SQLite may make beside a database of that name.
    private static func withCompanions(_ name: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { name + $0 }
    }

    /// The path of one of the files named at creation (or of one of its SQLite companions).
    public func file(_ name: String) -> String {
        precondition(names.contains(name), "\(name) was not named when the scratch directory was made")
        return path + "/" + name
    }

    /// Creates one of the named files, 0600, for writing; it must not exist yet.
    public func create(_ name: String) throws(Failure) -> Int32 {
        let fd = open(file(name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Failure(description: "cannot create a private temporary file: \(errnoText())")
        }
        fchmod(fd, 0o600)
        return fd
    }

    /// Deletes the directory and everything in it, and forgets it. Safe to call again.
    public func remove() {
        guard entry >= 0 else { return }
        try? FileManager.default.removeItem(atPath: path)
        rhr_temporary_unregister(entry)
        entry = -1
        // Let go of the lock only once the files are gone, so no sweeper races the removal.
        if ownerLock >= 0 { close(ownerLock) }
        ownerLock = -1
    }

    private static func register(_ paths: [String]) -> Int32 {
        var copies = paths.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                rhr_temporary_register($0, Int32(buffer.count))
            }
        }
    }
}

/// How large one temporary copy of health data may grow (docs/design.md section 8): 4 GiB, unless `RHR_TEMP_LIMIT`
/// says otherwise in bytes or with a binary suffix (`512M`, `8G`). A zip bomb then fills no disk.
public enum TemporaryCopyLimit {
    public static let variable = "RHR_TEMP_LIMIT"
    public static let defaultBytes: Int64 = 4 << 30

    /// The limit `environment` sets, or the default; a value that is no size is a mistake to point out.
    public static func bytes(environment: [String: String]) throws(Failure) -> Int64 {
        guard let text = environment[variable] else { return defaultBytes }
        guard let bytes = ByteSize.parse(text) else {
            throw Failure(description: "\(variable)=\(text) is not a size: write bytes, or a number with K, M or G (such as 8G)")
        }
        return bytes
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

}
