import Foundation
import RHRCore

// rhr: resting heart rate from HealthKit and Health Connect as one honest per-day trend.
// This file runs a command line; the commands are in `CommandTable`, each in its own file. The executable
// only calls `RHRMain.run`.

public enum RHRMain {
    /// Runs `rhr` with `arguments` (without the program name) and returns its exit status: 0 ok, 1 failure,
    /// 2 usage error. Everything it prints goes to `output`; every message on stderr starts with the command's
    /// prefix once ("rhr import: …"), and a usage error points at that command's help.
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           output: Output = .standard) -> Int32 {
        let status = runCommand(arguments, environment: environment, output: output)
        // What it printed did not arrive (`rhr status >&-`): not a success, and there is nowhere to say more.
        return status == 0 && output.stdoutFailed ? 1 : status
    }

    private static func runCommand(_ arguments: [String], environment: [String: String], output: Output) -> Int32 {
        let table = CommandTable.rhr
        func usageError(_ error: UsageError) -> Int32 {
            let prefix = table.command(error.command)?.prefix ?? "rhr"
            output.error("\(prefix): \(error.message)\nTry '\(prefix) --help'.")
            return 2
        }
        let parsed: ParsedArguments
        do {
            parsed = try table.parse(arguments)
        } catch {
            return usageError(error)
        }
        if parsed.has("version") {
            // The build too: two builds of one version are told apart (docs/design.md section 8, version skew).
            output.print("rhr \(RHRVersion.described)")
            return 0
        }
        // The parser only takes a word for a command when the table has it.
        let command = table.command(parsed.command) ?? table.defaultCommand
        if parsed.has("help") {
            output.write(parsed.command == nil ? HelpText.general(table) : HelpText.command(command, table: table))
            return 0
        }
        do throws(UsageError) {
            if parsed.command == nil, let first = parsed.positionals.first,
               let mistyped = table.mistypedCommand(first, fileExists: { FileManager.default.fileExists(atPath: $0) }) {
                throw mistyped
            }
            try command.operands.check(parsed.positionals)
        } catch {
            return usageError(UsageError(error.message, command: parsed.command))
        }
        let invocation = Invocation(arguments: parsed, environment: environment, output: output, prefix: command.prefix)
        do {
            return try command.run(invocation)
        } catch let error as UsageError {
            return usageError(UsageError(error.message, command: parsed.command))
        } catch {
            invocation.report("\(error)")
            return 1
        }
    }
}
