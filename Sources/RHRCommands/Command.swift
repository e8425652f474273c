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
    var output: Output

    /// `--store PATH`, else `$XDG_DATA_HOME/rhr/rhr.sqlite`, else `~/.local/share/rhr/rhr.sqlite`.
    var storePath: String {
        arguments.value("store") ?? StorePath.defaultPath(environment: environment)
    }

    /// The zone days are placed in when a value brings none (R5): the one `TZ` names, else the process's. In a
    /// real run the two are the same; a test sets `TZ` in the environment it passes, not in its own process.
    var machineZone: TimeZone {
        environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) } ?? .current
    }
}

/// A failure the user should read: exit code 1, message on stderr.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
