import Foundation
import RHRCore
import Synchronization

/// Where a command writes: its standard output and error, and whether each is a terminal (a terminal gets the
/// dashboard and a progress bar, anything else plain text). `Output.standard` is the process's own streams; a
/// test passes closures that keep the text, and calls the commands in its own process.
///
/// A write that fails (a closed stream, a pipe whose reader is gone) is remembered and the stream is not written
/// again: `RHRMain.run` then ends a run that went well with 1 when stdout failed, and says nothing more (there is
/// nowhere to say it). A failed stderr changes no status: the status says what happened; the messages are lost.
public struct Output: Sendable {
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    private let stdout: @Sendable (String) -> Bool
    private let stderr: @Sendable (String) -> Bool
    private let failures = Failures()

    /// `stdout` and `stderr` get the text exactly as written (line ends included).
    public init(stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false,
                stdout: @escaping @Sendable (String) -> Void, stderr: @escaping @Sendable (String) -> Void) {
        self.init(stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal,
                  writingStdout: { stdout($0); return true }, writingStderr: { stderr($0); return true })
    }

    /// As above, with writers that say whether the text was written.
    public init(stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false,
                writingStdout: @escaping @Sendable (String) -> Bool, writingStderr: @escaping @Sendable (String) -> Bool) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        stdout = writingStdout
        stderr = writingStderr
    }

    /// This process's standard output and error.
    public static var standard: Output {
        Output(stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, stderrIsTerminal: isatty(STDERR_FILENO) == 1,
               writingStdout: { StandardStream.write($0, to: STDOUT_FILENO) },
               writingStderr: { StandardStream.write($0, to: STDERR_FILENO) })
    }

    /// A write to stdout failed: what the command printed did not all arrive.
    public var stdoutFailed: Bool { failures.stdout.load(ordering: .relaxed) }
    /// A write to stderr failed.
    public var stderrFailed: Bool { failures.stderr.load(ordering: .relaxed) }

    // Every text but the progress bar's passes the gate: a control character a name or a path brought along
    // (ESC, OSC, C1, NUL) is written visibly (`\u{1B}`), never obeyed by the terminal (`TextGate.visible`).

    /// A line on stdout.
    func print(_ text: String) { write(text + "\n") }

    /// Text on stdout as it is, but for control characters.
    func write(_ text: String) {
        guard !stdoutFailed else { return }
        if !stdout(TextGate.visible(text, keepingLineBreaks: true)) { failures.stdout.store(true, ordering: .relaxed) }
    }

    /// A line on stderr.
    func error(_ text: String) { writeError(TextGate.visible(text, keepingLineBreaks: true) + "\n") }

    /// Text on stderr as it is, its escapes obeyed: a progress bar redrawn in place (which escapes its label).
    /// False when it was not written (now or before).
    @discardableResult
    func writeError(_ text: String) -> Bool {
        guard !stderrFailed else { return false }
        if stderr(text) { return true }
        failures.stderr.store(true, ordering: .relaxed)
        return false
    }

    /// Shared by the copies of one `Output`, so a failure seen through one is seen through all.
    private final class Failures: Sendable {
        let stdout = Atomic<Bool>(false)
        let stderr = Atomic<Bool>(false)
    }
}
