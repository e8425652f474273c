import Foundation

/// SIGTERM, SIGINT and SIGHUP for `rhr daemon`: the handler only writes a byte to the event loop's pipe
/// (async-signal-safe); the loop then stops the way `DaemonServer.stop()` asks it to, or, for SIGHUP (the terminal
/// closed, or logrotate asking), goes on and calls `DaemonConfiguration.onHangup` (reopen the log file).
public enum ShutdownSignals {
    /// Read by the handler only. Written only while the signals are held (blocked) in every thread or no handler is
    /// installed: `install` sets it before unblocking them, `uninstall` after restoring the defaults.
    nonisolated(unsafe) private static var wakeFD: Int32 = -1

    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread, and so in every thread it starts from now on: one that
    /// arrives while the daemon starts waits until `install` unblocks them on this thread alone, and is then handled,
    /// never the default death with the socket and lock files left behind. Call on the thread that runs the daemon,
    /// before anything else starts threads; SIGPIPE is ignored from here on (a reader gone is an error, EPIPE).
    public static func hold() {
        signal(SIGPIPE, SIG_IGN)
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    static func install(wakeFD fd: Int32) {
        wakeFD = fd
        signal(SIGPIPE, SIG_IGN)
        let handler: @convention(c) (Int32) -> Void = { signal in
            let fd = ShutdownSignals.wakeFD
            guard fd >= 0 else { return }
            // Any byte but a message's interrupts the mailbox; literals, so the handler looks nothing up.
            var byte: UInt8 = signal == SIGHUP ? 0x48 : 0x54
            _ = write(fd, &byte, 1)
        }
        for signal in signals { Glibc.signal(signal, handler) }
        // A parent that spawned us from a thread blocking these signals (libdispatch's threads do) passes
        // its mask on through exec, and `hold` blocked them: unblocked here, on this thread, they reach the handler.
        var set = signalSet()
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func uninstall(wakeFD fd: Int32) {
        guard wakeFD == fd else { return }
        for signal in signals { Glibc.signal(signal, SIG_DFL) }
        wakeFD = -1
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
