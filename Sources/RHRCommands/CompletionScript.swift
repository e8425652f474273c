/// What the three completion scripts share: the command table read the way a shell needs it.
enum CompletionScript {
    /// The options that take a value, by name: a script skips an option's value when it looks for the command.
    static func valueOptions(_ table: CommandTable) -> [OptionSpec] {
        table.everyOption.filter { $0.valueName != nil }
    }

    /// How one shell spells each kind of completion.
    struct Spelling {
        var none: String
        var files: String
        var directories: String
        var words: ([String]) -> String
        /// The script's own function that asks `rhr token list --names`.
        var tokenNames: String
    }

    /// The shell code that offers what `completion` says, in `spelling`.
    static func action(_ completion: ValueCompletion, _ table: CommandTable, _ spelling: Spelling) -> String {
        switch completion {
        case .none: spelling.none
        case .files: spelling.files
        case .directories: spelling.directories
        case .words(let words): spelling.words(words)
        case .commands: spelling.words(table.commands.map(\.name))
        case .tokenNames: spelling.tokenNames
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
