import RHRScreen
import CNCurses
import CTerminalSignals
import Glibc

/// Signal handling for a full-screen session. The handlers live in C (CTerminalSignals: Swift cannot write an
/// async-signal-safe handler) and only set a flag (SIGINT, SIGTERM, SIGHUP) or restore the terminal with
/// async-signal-safe calls and re-raise (crashes, including a Swift trap).
enum TerminalSignals {
    /// Remembers the shell's terminal modes; call before curses changes them.
    static func saveTerminalModes() {
        rhr_save_terminal_modes()
    }

    /// Installs the handlers, with the bytes a crash writes to put the screen back.
    static func install(restoreBytes: [UInt8]) {
        restoreBytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { rhr_set_restore_bytes($0, buffer.count) }
            }
        }
        rhr_install_signal_handlers()
    }

    /// Puts back whatever handlers were there before `install`; after the terminal hung up, SIGHUP stays
    /// ignored (a late one would end the process before it cleans up).
    static func uninstall(hungUp: Bool) {
        rhr_restore_signal_handlers(hungUp ? 1 : 0)
    }

    /// Readable after a signal arrived, whichever thread took it; -1 before `install`.
    static var wakeDescriptor: Int32 { rhr_wake_descriptor() }

    static func drainWake() { rhr_drain_wake() }

    /// The quit signal that arrived since the last call, if any.
    static func takePending() -> TerminalSignal? {
        switch rhr_take_pending_signal() {
        case SIGINT: return .interrupt
        case SIGTERM: return .terminate
        case SIGHUP: return .hangup
        default: return nil
        }
    }

    /// The terminfo string capability `name`, as bytes.
    static func terminfoBytes(_ name: String) -> [UInt8] {
        guard let value = rhr_terminfo_string(name) else { return [] }
        return Array(String(cString: value).utf8)
    }
}
