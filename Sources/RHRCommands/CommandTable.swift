import Foundation

/// Every command rhr has, the options every command takes, and the dashboard that runs when no command is
/// named. The parser, `--help`, `rhr help`, the completion scripts and the man page's test all read this one
/// table: adding a command or an option means adding it here (and to docs/man/rhr.1, which a test checks).
struct CommandTable: Sendable {
    /// In the order the help lists them.
    var commands: [Command]
    /// `rhr` alone, or with paths: the dashboard.
    var defaultCommand: Command
    /// Options every command takes.
    var globalOptions: [OptionSpec]

    static let rhr = CommandTable(
        commands: [
            ImportCommand.command,
            ImportsCommand.command,
            ExportCommand.command,
            SummaryCommand.command,
            StatusCommand.command,
            DaemonCommand.command,
            PushCommand.command,
            TokenCommand.command,
            DemoCommand.command,
            CompletionsCommand.command,
            HelpCommand.command,
        ],
        defaultCommand: Command(
            name: "", operands: Operands(usage: "[PATH...]", noun: "PATH", minimum: 0, completion: .files),
            summary: "open the dashboard (PATHs: import into a temporary store first)",
            options: [DaemonCommand.socketOption], run: DefaultCommand.run),
        globalOptions: [
            .value("store", "PATH", "the store (default $XDG_DATA_HOME/rhr/rhr.sqlite)"),
            .flag("help", "show help", short: "h"),
            .flag("version", "show the version", short: "V"),
        ])

    /// The dashboard and every command, in the order help lists them.
    var everyCommand: [Command] { [defaultCommand] + commands }

    /// The command named `name`; nil names the dashboard.
    func command(_ name: String?) -> Command? {
        guard let name else { return defaultCommand }
        return commands.first { $0.name == name }
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var specs = Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0.options) })
        specs[""] = defaultCommand.options
        return try CommandLineParser.parse(arguments, commands: specs, global: globalOptions)
    }

    /// Every option any command takes, each name once, in the order the help shows them (the global ones last).
    var everyOption: [OptionSpec] {
        var seen = Set<String>()
        return everyCommand.flatMap(\.options).filter { seen.insert($0.name).inserted }
            + globalOptions.filter { seen.insert($0.name).inserted }
    }

    /// The first word of `rhr WORD`, when it is spelled like a command and no file has that name: a usage error
    /// ("unknown command"), with the command it is close to, instead of "no such file".
    func mistypedCommand(_ word: String, fileExists: (String) -> Bool) -> UsageError? {
        guard let first = word.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              word.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }),
              !fileExists(word) else { return nil }
        return unknownCommand(word, otherwise: "to open a file of that name, write ./\(word)")
    }

    /// "unknown command 'imprt'; did you mean 'import'?", or `otherwise` when no command is close.
    func unknownCommand(_ word: String, otherwise: String? = nil) -> UsageError {
        UsageError("unknown command '\(word)'" + (closestCommand(to: word).map { "; did you mean '\($0)'?" } ?? otherwise.map { "; \($0)" } ?? ""))
    }

    /// A command `word` is a prefix of, or within two typing mistakes of (`imprt`, `stauts`); nil when none is close.
    func closestCommand(to word: String) -> String? {
        let names = commands.map(\.name)
        let lower = word.lowercased()
        if lower.count >= 2, let started = names.first(where: { $0.hasPrefix(lower) }) { return started }
        let scored = names.map { ($0, CommandTable.editDistance(lower, $0)) }.filter { $0.1 <= min(2, max(1, lower.count / 3)) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours count one each.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
