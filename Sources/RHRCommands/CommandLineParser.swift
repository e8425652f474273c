/// A small argument parser: a subcommand, `--name value` / `--name=value` options, flags, positionals.
/// Options may come before or after the subcommand; `--` ends them.

/// An option a command accepts.
struct OptionSpec: Sendable {
    var name: String
    /// Nil for a flag; else a short word for the help text ("PATH", "D").
    var valueName: String?
    var repeatable = false
    var help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }
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

/// Wrong words on the command line: exit code 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

enum CommandLineParser {
    /// `commands` maps each subcommand to the options it takes; `global` are accepted everywhere.
    static func parse(_ arguments: [String], commands: [String: [OptionSpec]], global: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var pending: [String] = []
        var onlyPositionals = false
        var i = 0
        // The subcommand is the first word that is not an option; options are checked once it is known.
        var raw: [(name: String, value: String?, index: Int)] = []
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
            guard word.hasPrefix("--") else { throw UsageError("unknown option \(word) (options are spelled --name)") }
            let body = word.dropFirst(2)
            if let eq = body.firstIndex(of: "=") {
                raw.append((String(body[..<eq]), String(body[body.index(after: eq)...]), i))
            } else {
                raw.append((String(body), nil, i))
                // Whether the next word is this option's value depends on the option; look it up below.
                let name = String(body)
                let spec = (global + (commands[result.command ?? ""] ?? [])).first { $0.name == name }
                    ?? commands.values.flatMap { $0 }.first { $0.name == name }
                if spec?.valueName != nil {
                    guard i < arguments.count else { throw UsageError("--\(name) needs a value") }
                    raw[raw.count - 1].value = arguments[i]
                    i += 1
                }
            }
        }
        result.positionals = pending
        let allowed = global + (commands[result.command ?? ""] ?? [])
        for option in raw {
            guard let spec = allowed.first(where: { $0.name == option.name }) else {
                let scope = result.command.map { "rhr \($0)" } ?? "rhr"
                throw UsageError("unknown option --\(option.name) for \(scope)")
            }
            if spec.valueName == nil {
                if option.value != nil { throw UsageError("--\(option.name) takes no value") }
                result.flags.insert(spec.name)
            } else {
                guard let value = option.value, !value.isEmpty else { throw UsageError("--\(option.name) needs a value") }
                if !spec.repeatable && result.values[spec.name] != nil {
                    throw UsageError("--\(option.name) given twice")
                }
                result.values[spec.name, default: []].append(value)
            }
        }
        return result
    }
}
