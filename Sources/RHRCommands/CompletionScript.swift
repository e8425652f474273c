/// What the three completion scripts share: the command table read the way a shell needs it.
enum CompletionScript {
    /// The dashboard and every command, each with the options it takes besides the global ones.
    static func scopes(_ table: CommandTable) -> [Command] { [table.defaultCommand] + table.commands }

    /// The options that take a value, by name: a script skips an option's value when it looks for the command.
    static func valueOptions(_ table: CommandTable) -> [OptionSpec] {
        table.everyOption.filter { $0.valueName != nil }
    }

    /// Words the shell offers for `completion`, or nil when it is not a list of words.
    static func words(_ completion: ValueCompletion, _ table: CommandTable) -> [String]? {
        switch completion {
        case .words(let words): words
        case .commands: table.commands.map(\.name)
        case .none, .files, .directories: nil
        }
    }

    /// How the scripts say where they come from and how to load them.
    static func header(_ shell: String, load: String) -> String {
        """
        # \(shell) completion for rhr, made by `rhr completions \(shell)` from rhr's command table.
        # \(load)
        """
    }
}
