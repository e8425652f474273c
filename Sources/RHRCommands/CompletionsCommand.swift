/// `rhr completions bash|zsh|fish`: a completion script for the shell, made from the command table.
enum CompletionsCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let command = Command(
        name: "completions",
        operands: Operands(usage: shells.joined(separator: "|"), noun: "shell (bash, zsh or fish)", minimum: 1, maximum: 1,
                           completion: .words(shells)),
        summary: "print a shell completion script", options: [], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let shell = invocation.arguments.positionals[0]
        let table = CommandTable.rhr
        switch shell {
        case "bash": invocation.output.write(BashCompletion.script(table))
        case "zsh": invocation.output.write(ZshCompletion.script(table))
        case "fish": invocation.output.write(FishCompletion.script(table))
        default: throw UsageError("no completions for \(shell); rhr writes them for bash, zsh and fish")
        }
        return 0
    }
}
