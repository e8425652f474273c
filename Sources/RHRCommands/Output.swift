import Foundation
import RHRCore

/// Where a command writes: its standard output and error, and whether each is a terminal (a terminal gets the
/// dashboard and a progress bar, anything else plain text). `Output.standard` is the process's own streams; a
/// test passes closures that keep the text, and calls the commands in its own process.
public struct Output: Sendable {
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    private let stdout: @Sendable (String) -> Void
    private let stderr: @Sendable (String) -> Void

    /// `stdout` and `stderr` get the text exactly as written (line ends included).
    public init(stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false,
                stdout: @escaping @Sendable (String) -> Void, stderr: @escaping @Sendable (String) -> Void) {
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.stdout = stdout
        self.stderr = stderr
    }

    /// This process's standard output and error.
    public static var standard: Output {
        Output(stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, stderrIsTerminal: isatty(STDERR_FILENO) == 1,
               stdout: { FileHandle.standardOutput.write(Data($0.utf8)) },
               stderr: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    // Every text but the progress bar's passes the gate: a control character a name or a path brought along
    // (ESC, OSC, C1, NUL) is written visibly (`\u{1B}`), never obeyed by the terminal (`TextGate.visible`).

    /// A line on stdout.
    func print(_ text: String) { stdout(TextGate.visible(text, keepingLineBreaks: true) + "\n") }

    /// Text on stdout as it is, but for control characters.
    func write(_ text: String) { stdout(TextGate.visible(text, keepingLineBreaks: true)) }

    /// A line on stderr.
    func error(_ text: String) { stderr(TextGate.visible(text, keepingLineBreaks: true) + "\n") }

    /// Text on stderr as it is, its escapes obeyed: a progress bar redrawn in place (which escapes its label).
    func writeError(_ text: String) { stderr(text) }
}
