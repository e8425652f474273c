import Foundation
import RHRCore
import RHRDaemonClient
import RHRSystem

/// The daemon's listening socket, with the rules for taking over its path: a lock file beside the socket
/// says a daemon owns it; a socket file nobody answers on is left over from a crash and is replaced; one
/// a live daemon answers on is not. Whichever way the daemon ends (a stop, or a start refused after it took the
/// lock), it removes the socket and the lock file it holds, and never another daemon's.
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
        let lockFD = try SocketListener.lock(lockPath, socket: path)

        do throws(DaemonError) {
            try SocketListener.removeStale(path)
            let fd = try UnixSocket.make()
            do throws(DaemonError) {
                let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
                guard bound == 0 else { throw DaemonError("\(path): cannot listen here: \(errnoText())") }
                // The directory is 0700 already; the socket itself is made 0600 before anyone may connect.
                guard chmod(path, 0o600) == 0 else { throw DaemonError("\(path): \(AccessWording.cannotMakePrivate("the socket", directory: false)): \(errnoText())") }
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
            SocketListener.unlock(lockFD, path: lockPath)
            throw error
        }
        self.path = path
        self.lockFD = lockFD
    }

    /// Opens and locks the lock file. A daemon removes its lock file on the way out while it still holds the lock, so
    /// a lock taken on a file that is no longer (or no longer the one) at its path is let go and taken again.
    private static func lock(_ lockPath: String, socket: String) throws(DaemonError) -> Int32 {
        while true {
            let fd: Int32
            do {
                fd = try PrivateFiles.openLock(lockPath)
            } catch {
                throw DaemonError("\(lockPath): cannot open the daemon's lock file: \(error.reason)")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                Foundation.close(fd)
                throw DaemonError.anotherDaemon(on: socket)
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0 && stat(lockPath, &named) == 0 && held.st_ino == named.st_ino && held.st_dev == named.st_dev {
                return fd
            }
            Foundation.close(fd)
        }
    }

    /// Removes the lock file while the lock is still held (so no other daemon holds a lock on it), then lets go.
    private static func unlock(_ fd: Int32, path lockPath: String) {
        var held = stat(), named = stat()
        if fstat(fd, &held) == 0 && lstat(lockPath, &named) == 0 && held.st_ino == named.st_ino && held.st_dev == named.st_dev {
            unlink(lockPath)
        }
        Foundation.close(fd)
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

    /// Stops listening and removes the socket file when it is still ours, then the lock file (see `lock`).
    func close() {
        Foundation.close(fd)
        var info = stat()
        if lstat(path, &info) == 0 && info.st_ino == inode { unlink(path) }
        SocketListener.unlock(lockFD, path: path + ".lock")
    }
}
