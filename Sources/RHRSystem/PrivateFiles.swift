import Foundation
import RHRCore

/// The files rhr keeps beside a store or in the user's state (docs/design.md section 8): directories only their
/// owner can enter, and small files (tokens, a dashboard's view) replaced whole, so a crash never leaves half of
/// one. What fails says which path and why; each caller words it for its own command.
public enum PrivateFiles {
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var code: Int32
        public var reason: String { errnoText(code) }
        public var description: String { "\(path): \(reason)" }
    }

    /// Creates `directory` and any missing parents, each 0700 (the umask may only narrow that).
    public static func makeDirectories(_ directory: String) throws(Failure) {
        var missing: [String] = []
        var current = directory
        while !current.isEmpty && current != "/" && current != "." && !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = PathText.parent(current)
        }
        for dir in missing.reversed() where mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw Failure(path: dir, code: errno)
        }
    }

    /// Opens `path` to append to (a ledger, a log), made 0600 when missing; the descriptor is closed on exec.
    public static func openForAppending(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        return fd
    }

    /// Opens the lock file `path` (for `flock`), made 0600 when missing; a symbolic link there is refused.
    public static func openLock(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        return fd
    }

    /// Replaces `path` with `bytes`: written 0600 to `temporary` beside it, flushed to the disk, then renamed
    /// over it. On failure the temporary file is removed and `path` is as it was.
    public static func replace(_ path: String, with bytes: [UInt8], temporary: String) throws(Failure) {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw Failure(path: temporary, code: errno) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var code = written == bytes.count ? 0 : (written < 0 ? errno : EIO)
        if code == 0 && fsync(fd) != 0 { code = errno }
        close(fd)
        if code == 0 && rename(temporary, path) != 0 { code = errno }
        guard code == 0 else {
            unlink(temporary)
            throw Failure(path: path, code: code)
        }
    }
}
