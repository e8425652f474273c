import Foundation
import RHRCore
import RHRSystem

/// Where the daemon listens (docs/design.md section 4): `$XDG_RUNTIME_DIR/rhr/rhr.sock`, or, without a runtime
/// directory, `/tmp/rhr-<uid>/rhr.sock`. The directory is the owner's alone (0700), the socket 0600.
public enum SocketPath {
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/rhr/rhr.sock"
        }
        return "/tmp/rhr-\(getuid())/rhr.sock"
    }

    /// Makes the socket's directory, mode 0700, when missing. An existing one must be a real directory (not
    /// a symbolic link) owned by this user. Only rhr's own directory (named `rhr` or `rhr-…`) that others
    /// could enter is tightened to 0700; any other open directory (a home, `/tmp`) is refused rather than
    /// closed to everyone else.
    package static func prepareDirectory(for socketPath: String) throws(DaemonError) {
        let directory = PathText.parent(socketPath)
        guard directory != ".", directory != "/" else { return }
        var created = mkdir(directory, 0o700) == 0
        if !created {
            let code = errno
            if code == ENOENT {
                // Parents (e.g. a runtime directory's subfolders given with --socket) are made 0700 too.
                try prepareDirectory(for: directory)
                created = mkdir(directory, 0o700) == 0
                if !created && errno != EEXIST {
                    throw DaemonError("\(directory): cannot create the socket's directory: \(errnoText())")
                }
            } else if code != EEXIST {
                throw DaemonError("\(directory): cannot create the socket's directory: \(errnoText(code))")
            }
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw DaemonError("\(directory): cannot inspect the socket's directory: \(errnoText())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw DaemonError("\(directory): the socket's directory is not a directory (a symbolic link or a file); not using it")
        }
        guard info.st_uid == getuid() else {
            throw DaemonError("\(directory): the socket's directory belongs to uid \(info.st_uid), not to you (uid \(getuid())); not using it")
        }
        guard info.st_mode & S_ISVTX == 0 else {
            throw DaemonError("\(directory): the socket's directory is shared (sticky, like /tmp); not making it private. "
                              + "Give the socket a directory of its own, e.g. \(directory)/rhr/rhr.sock")
        }
        guard info.st_mode & 0o077 != 0 else { return }
        let name = PathText.lastComponent(directory)
        guard created || name == "rhr" || name.hasPrefix("rhr-") else {
            throw DaemonError("\(directory): the socket's directory is open to others (mode "
                              + String(info.st_mode & 0o777, radix: 8) + "); rhr makes only its own directories private. "
                              + "Give the socket a directory of its own, e.g. \(directory)/rhr/rhr.sock")
        }
        if chmod(directory, 0o700) != 0 {
            throw DaemonError("\(directory): \(AccessWording.cannotMakePrivate("the socket's directory", directory: true)): \(errnoText())")
        }
    }
}
