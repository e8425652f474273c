import Foundation

/// One subcommand: its words for the help text, the options it takes, and what it does.
struct Command: Sendable {
    var name: String
    var arguments: String
    var summary: String
    var options: [OptionSpec]
    var run: @Sendable (Invocation) throws -> Int32
}

/// What a command runs with: the parsed words, the environment, and where output goes.
struct Invocation {
    var arguments: ParsedArguments
    var environment: [String: String]
    var output = Output()

    /// `--store PATH`, else `$XDG_DATA_HOME/rhr/rhr.sqlite`, else `~/.local/share/rhr/rhr.sqlite`.
    var storePath: String {
        arguments.value("store") ?? StorePath.defaultPath(environment: environment)
    }
}

/// A failure the user should read: exit code 1, message on stderr.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Standard output and error, and whether each is a terminal.
struct Output {
    var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
