/// `rhr help [COMMAND]`: the same as `rhr --help` and `rhr COMMAND --help`, for those who type it that way.
enum HelpCommand {
    static let command = Command(
        name: "help", operands: Operands(usage: "[COMMAND]", noun: "COMMAND", minimum: 0, maximum: 1, completion: .commands),
        summary: "show this help, or one command's", options: [], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let table = CommandTable.rhr
        guard let name = invocation.arguments.positionals.first else {
            invocation.output.write(HelpText.general(table))
            return 0
        }
        guard let command = table.command(name) else { throw table.unknownCommand(name) }
        invocation.output.write(HelpText.command(command, table: table))
        return 0
    }
}
