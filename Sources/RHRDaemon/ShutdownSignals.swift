import Foundation

/// SIGTERM and SIGINT for `rhr daemon`: the handler only writes a byte to the event loop's pipe
/// (async-signal-safe); the loop then stops the way `DaemonServer.stop()` asks it to.
enum ShutdownSignals {
    /// Read by the handler only. Written only while no handler is installed: `install` sets it before calling
    /// `signal()`, `uninstall` after restoring the defaults (one daemon a process calls them).
    nonisolated(unsafe) private static var wakeFD: Int32 = -1

    static func install(wakeFD fd: Int32) {
        wakeFD = fd
        signal(SIGPIPE, SIG_IGN)
        let handler: @convention(c) (Int32) -> Void = { _ in
            let fd = ShutdownSignals.wakeFD
            guard fd >= 0 else { return }
            // Any byte but a message's interrupts the mailbox; a literal, so the handler looks nothing up.
            var byte: UInt8 = 0x54
            _ = write(fd, &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        // A parent that spawned us from a thread blocking these signals (libdispatch's threads do) passes
        // its mask on through exec; unblocked here, they reach the handler.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func uninstall(wakeFD fd: Int32) {
        guard wakeFD == fd else { return }
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        wakeFD = -1
    }
}
