// The file a daemon keeps beside its store while it serves it: who serves the store, for a newer rhr to find.
import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRSystem

/// `STORE-daemon-PID` (0600): this daemon's pid, socket, store, version and build, kept locked (`flock`) from the
/// moment it serves the store until it stops, and removed then while still locked. A newer rhr that must bring the
/// store's schema up to date finds it there (`ServingDaemons`), on any socket, and refuses; the kernel drops the lock
/// however the daemon ends, so a file no one holds is known to be stale (docs/design.md section 8, version skew).
final class DaemonRecord {
    let path: String
    private let fd: Int32

    init?(store: String, socket: String, log: (String) -> Void) {
        path = ServingDaemons.recordPrefix(forStore: store) + String(getpid())
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            log("\(path): cannot keep the daemon's record beside the store (\(errnoText())); a newer rhr will not find "
                + "this daemon there, only on its socket")
            return nil
        }
        flock(fd, LOCK_EX)
        let me = ServingDaemon(pid: getpid(), socket: socket, store: store, version: RHRVersion.current, build: RHRVersion.build)
        var bytes = JSONWriter.bytes(.object(me.json))
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Removes the file while the lock is held, then lets it go.
    func remove() {
        unlink(path)
        close(fd)
    }
}
