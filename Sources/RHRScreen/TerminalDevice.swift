/// The few things a full-screen program needs from a terminal. `CursesTerminal` is the real one; the
/// dashboard's run loop only ever talks to this.
@MainActor
public protocol TerminalDevice: AnyObject {
    var size: TerminalSize { get }
    var capabilities: TerminalCapabilities { get }
    /// Shows the buffer; only cells that changed since the last call are sent.
    func draw(_ buffer: ScreenBuffer)
    /// Waits up to `timeoutMilliseconds` (negative: forever) for a key, a mouse event, a resize, a signal, or one of
    /// `watching` becoming readable. Nil when the time ran out.
    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput?
    /// Descriptors that become readable when input waits (a key, a signal's wake-up): whoever waits for something
    /// else, such as a frame drawn on another thread, stops waiting when one does.
    var inputDescriptors: [Int32] { get }
}

public extension TerminalDevice {
    /// None: a terminal that says nothing of its input is waited for only by `nextInput`.
    var inputDescriptors: [Int32] { [] }
}
