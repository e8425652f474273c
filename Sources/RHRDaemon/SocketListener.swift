import Foundation

/// The daemon's listening socket, with the rules for taking over its path: a lock file beside the socket
/// says a daemon owns it; a socket file nobody answers on is left over from a crash and is replaced; one
/// a live daemon answers on is not.
final class SocketListener {
    let path: String
    let fd: Int32
    private let lockFD: Int32
    /// The socket file's inode, so that shutting down removes our socket and never a successor's.
    private let inode: ino_t

    init(path: String) throws(DaemonError) {
        try SocketPath.prepareDirectory(for: path)
        // Checked before anything is created, so a too-long path leaves nothing behind.
        _ = try UnixSocket.withAddress(path) { _, _ in () }

        let lockPath = path + ".lock"
        let lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFD >= 0 else { throw DaemonError("\(lockPath): cannot open the daemon's lock file: \(errnoText())") }
        if flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            Foundation.close(lockFD)
            throw DaemonError.anotherDaemon(on: path)
        }

        do throws(DaemonError) {
            try SocketListener.removeStale(path)
            let fd = try UnixSocket.make()
            do throws(DaemonError) {
                let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
                guard bound == 0 else { throw DaemonError("\(path): cannot listen here: \(errnoText())") }
                // The directory is 0700 already; the socket itself is made 0600 before anyone may connect.
                guard chmod(path, 0o600) == 0 else { throw DaemonError("\(path): cannot make the socket private: \(errnoText())") }
                guard listen(fd, 128) == 0 else { throw DaemonError("\(path): cannot listen: \(errnoText())") }
                var info = stat()
                stat(path, &info)
                self.inode = info.st_ino
            } catch {
                Foundation.close(fd)
                throw error
            }
            self.fd = fd
        } catch {
            Foundation.close(lockFD)
            throw error
        }
        self.path = path
        self.lockFD = lockFD
    }

    /// Decides what an existing file at the socket path is: nothing, a stale socket (removed), a live
    /// daemon without our lock (an older rhr: refused), or not a socket at all (refused, never deleted).
    private static func removeStale(_ path: String) throws(DaemonError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonError("\(path) exists and is not a socket; not replacing it")
        }
        switch try UnixSocket.connect(path: path, timeout: 1) {
        case .connected(let fd):
            Foundation.close(fd)
            throw DaemonError.anotherDaemon(on: path)
        case .failed:
            // Nobody answers: a daemon crashed and left its socket.
            if unlink(path) != 0 && errno != ENOENT {
                throw DaemonError("\(path): cannot remove the stale socket: \(errnoText())")
            }
        }
    }

    /// Stops listening and removes the socket file when it is still ours. The lock file stays: removing
    /// it while locked would let two daemons lock two different files of the same name.
    func close() {
        Foundation.close(fd)
        var info = stat()
        if lstat(path, &info) == 0 && info.st_ino == inode { unlink(path) }
        Foundation.close(lockFD)
    }
}
