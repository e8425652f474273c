import Foundation
import RHRCore

/// One subcommand: its words for the help text, the options and operands it takes, and what it does. The
/// parser, the help, the completion scripts and the man page's test all read these, so they cannot disagree.
struct Command: Sendable {
    var name: String
    var operands: Operands
    var summary: String
    var options: [OptionSpec]
    var run: @Sendable (Invocation) throws -> Int32
    /// More than the summary says, for `--help` (`rhr demo`: how to go live with a real store).
    var details: String?

    /// "rhr export" (or "rhr" for the dashboard): what starts its messages.
    var prefix: String { name.isEmpty ? "rhr" : "rhr \(name)" }

    /// "rhr export [--format csv|json] … [--to YYYY-MM-DD]": made from the options, so it lists every one.
    var usage: String {
        ([prefix] + options.map(\.usage) + (operands.usage.isEmpty ? [] : [operands.usage])).joined(separator: " ")
    }
}

/// The words after a command that are not options: paths, a file, a shell's name.
struct Operands: Sendable {
    /// How the usage line writes them: "PATH...", "[PATH...]", "FILE|-", "bash|zsh|fish"; empty for none.
    var usage: String
    /// What a message calls one: "PATH", "FILE, or - for standard input".
    var noun: String
    var minimum: Int
    /// Nil for no limit.
    var maximum: Int?
    /// What a shell offers: `.words` for the first operand, `.files` for every one.
    var completion: ValueCompletion
    /// Said after "takes no paths", where the user may have meant an option ("use --watch DIR").
    var hint: String?
    /// What the second operand completes as, by the first (`rhr token revoke NAME`); when given, `completion` is
    /// offered for the first operand only, and nothing beyond the second.
    var after: [String: ValueCompletion] = [:]

    static let none = Operands(usage: "", noun: "", minimum: 0, maximum: 0, completion: .none)

    static func none(hint: String) -> Operands {
        Operands(usage: "", noun: "", minimum: 0, maximum: 0, completion: .none, hint: hint)
    }

    /// One or more files to read.
    static let paths = Operands(usage: "PATH...", noun: "PATH", minimum: 1, completion: .files)

    /// Checked before the command runs, so a wrong count touches nothing.
    func check(_ positionals: [String]) throws(UsageError) {
        if maximum == 0, let first = positionals.first {
            throw UsageError("takes no paths (got \(first))" + (hint.map { "; \($0)" } ?? ""))
        }
        let exactlyOne = minimum == 1 && maximum == 1
        if positionals.count < minimum {
            throw UsageError(exactlyOne ? "needs exactly one \(noun)" : "needs at least one \(noun)")
        }
        if let maximum, positionals.count > maximum {
            throw UsageError(exactlyOne ? "needs exactly one \(noun)"
                                        : "takes at most \(Wording.count(maximum, noun)) (got \(positionals.count))")
        }
    }
}

/// What a command runs with: the parsed words, the environment, and where output goes.
struct Invocation {
    var arguments: ParsedArguments
    var environment: [String: String]
    var output: Output
    /// What starts the command's messages ("rhr import").
    var prefix = "rhr"

    /// `--store PATH`, else `$XDG_DATA_HOME/rhr/rhr.sqlite`, else `~/.local/share/rhr/rhr.sqlite`.
    var storePath: String {
        arguments.value("store") ?? StorePath.defaultPath(environment: environment)
    }

    /// The zone days are placed in when a value brings none (R5): the one `TZ` names, else the process's. In a
    /// real run the two are the same; a test sets `TZ` in the environment it passes, not in its own process.
    var machineZone: TimeZone {
        environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) } ?? .current
    }

    /// A line on stderr that starts with the command's prefix, once: "rhr import: notes.txt: not a file rhr reads".
    func report(_ message: String) {
        output.error("\(prefix): \(message)")
    }
}

/// A failure the user should read: exit code 1, message on stderr.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
