/// A small argument parser: a subcommand, `--name value` / `--name=value` options, flags, `-h` and `-V`,
/// positionals. Options may come before or after the subcommand; `--` ends them.

/// What a shell offers where a value goes, for an option's value or a command's operands. The completion
/// scripts are made from it, so they offer what the parser accepts.
enum ValueCompletion: Sendable, Equatable {
    /// Free text: a date, a number.
    case none
    case files
    case directories
    /// One of these words.
    case words([String])
    /// The name of one of rhr's commands (`rhr help COMMAND`).
    case commands
    /// The names of the store's phone-feed tokens (`rhr token revoke NAME`), asked of `rhr token list --names` with the
    /// line's `--store`; never a token itself, which rhr does not keep.
    case tokenNames

    /// What a value named like this takes: `csv|json` its words, `PATH` and `FILE` files, `DIR` directories.
    init(valueName: String) {
        if valueName.contains("|") {
            self = .words(valueName.split(separator: "|").map(String.init))
        } else if ["PATH", "FILE", "F"].contains(valueName) {
            self = .files
        } else if valueName == "DIR" {
            self = .directories
        } else {
            self = .none
        }
    }
}

/// An option a command accepts.
struct OptionSpec: Sendable {
    var name: String
    /// A one-letter spelling (`-h`), for the few options people type without thinking.
    var short: Character?
    /// Nil for a flag; else a short word for the help text ("PATH", "YYYY-MM-DD").
    var valueName: String?
    var repeatable = false
    var help: String
    var completion: ValueCompletion = .none

    static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// `completion` defaults to what `valueName` says (`ValueCompletion(valueName:)`).
    static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false,
                      completion: ValueCompletion? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help,
                   completion: completion ?? ValueCompletion(valueName: valueName))
    }

    /// "--format csv|json", "--force".
    var spelled: String { "--\(name)" + (valueName.map { " " + $0 } ?? "") }

    /// "[--format csv|json]", "[--watch DIR]...": how a usage line shows it.
    var usage: String { "[\(spelled)]" + (repeatable ? "..." : "") }
}

/// What the user typed, sorted out.
struct ParsedArguments: Equatable {
    var command: String?
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Wrong words on the command line: exit code 2. `command` is the subcommand it concerns, when one was named,
/// so the message says `rhr export: …` and points at `rhr export --help`.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var command: String?
    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
    var description: String { message }
}

enum CommandLineParser {
    /// `commands` maps each subcommand to the options it takes; `global` are accepted everywhere.
    static func parse(_ arguments: [String], commands: [String: [OptionSpec]], global: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var pending: [String] = []
        var onlyPositionals = false
        let everySpec = global + commands.values.flatMap { $0 }
        // The subcommand is the first word that is not an option; options are checked once it is known, so a
        // message can name it whatever the order of the words.
        var raw: [(name: String, value: String?, word: String)] = []
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                if result.command == nil && !onlyPositionals && commands[word] != nil && pending.isEmpty {
                    result.command = word
                } else {
                    pending.append(word)
                }
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            let name: String
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    raw.append((String(body[..<eq]), String(body[body.index(after: eq)...]), word))
                    continue
                }
                name = String(body)
            } else if word.count == 2, let spec = everySpec.first(where: { $0.short == word.last }) {
                name = spec.name
            } else {
                raw.append((word, nil, word))
                continue
            }
            raw.append((name, nil, word))
            // Whether the next word is this option's value depends on the option; look it up.
            let spec = (global + (commands[result.command ?? ""] ?? [])).first { $0.name == name }
                ?? everySpec.first { $0.name == name }
            if spec?.valueName != nil && i < arguments.count {
                raw[raw.count - 1].value = arguments[i]
                i += 1
            }
        }
        result.positionals = pending
        func problem(_ message: String) -> UsageError { UsageError(message, command: result.command) }
        let allowed = global + (commands[result.command ?? ""] ?? [])
        for option in raw {
            guard let spec = allowed.first(where: { $0.name == option.name }) else {
                guard option.word.hasPrefix("--") else { throw problem("unknown option \(option.word) (options are spelled --name)") }
                // An option of another command, given to this one: say whose it is.
                let owners = commands.filter { $0.value.contains { $0.name == option.name } }.keys
                    .filter { $0 != (result.command ?? "") }.sorted().map { $0.isEmpty ? "rhr" : "rhr \($0)" }
                throw problem("unknown option --\(option.name)" + (owners.isEmpty ? "" : " (an option of \(owners.joined(separator: ", ")))"))
            }
            if spec.valueName == nil {
                if option.value != nil { throw problem("--\(option.name) takes no value") }
                result.flags.insert(spec.name)
            } else {
                guard let value = option.value, !value.isEmpty else { throw problem("--\(option.name) needs a value") }
                if !spec.repeatable && result.values[spec.name] != nil {
                    throw problem("--\(option.name) given twice")
                }
                result.values[spec.name, default: []].append(value)
            }
        }
        return result
    }
}
