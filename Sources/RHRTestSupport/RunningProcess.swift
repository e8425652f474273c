import Foundation
import Synchronization

/// A child started by `Subprocess.start` (a daemon under test). When the value goes away the child is killed
/// if it still runs, so a failed test leaves no process behind.
public final class RunningProcess: Sendable {
    public let pid: pid_t
    /// How it ended, once reaped; after that its pid may belong to another process and is never signalled.
    private let ended = Mutex<Termination?>(nil)

    init(pid: pid_t) { self.pid = pid }

    deinit { kill() }

    /// How it ended; nil while it runs. Reaps it without blocking.
    public var termination: Termination? {
        ended.withLock { ended in
            if ended == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { ended = Termination(waitStatus: status) }
            }
            return ended
        }
    }

    public var isRunning: Bool { termination == nil }

    /// Waits for it to end, for up to `timeout` seconds; true when it did.
    @discardableResult
    public func waitForExit(timeout: Double = 15) -> Bool {
        eventually(timeout: timeout) { !isRunning }
    }

    /// Sends `signal` unless it has already ended.
    public func signal(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// SIGTERM, then SIGKILL when it has not ended within `timeout` seconds.
    public func stop(timeout: Double = 10) {
        signal(SIGTERM)
        if !waitForExit(timeout: timeout) { kill() }
    }

    /// SIGKILL unless it has ended; waits for it.
    public func kill() {
        signal(SIGKILL)
        waitForExit()
    }
}
