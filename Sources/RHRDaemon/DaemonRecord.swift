// The file a daemon keeps beside its store while it serves it: who serves the store, for a newer rhr to find.
import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRSystem

/// `STORE-daemon-PID` (0600): this daemon's pid, socket, store, version and build, written when it serves the store
/// and removed when it stops. A newer rhr that must bring the store's schema up to date finds it there
/// (`ServingDaemons`), on any socket, and refuses. It holds no descriptor: the daemon is alive while the lock file of its
/// socket is locked (`SocketListener`, which the kernel lets go however the daemon ends) and its pid runs, so a file
/// whose daemon was killed is known to be stale (docs/design.md section 8, version skew).
final class DaemonRecord {
    let path: String

    init?(store: String, socket: String, log: (String) -> Void) {
        path = ServingDaemons.recordPrefix(forStore: store) + String(getpid())
        let me = ServingDaemon(pid: getpid(), socket: socket, store: store, version: RHRVersion.current, build: RHRVersion.build)
        do {
            try PrivateFiles.replace(path, with: Array((JSONWriter.string(.object(me.json)) + "\n").utf8), temporary: path + ".new")
        } catch {
            log("\(path): cannot keep the daemon's record beside the store (\(error)); a newer rhr will find this "
                + "daemon only on its socket")
            return nil
        }
    }

    func remove() { unlink(path) }
}
