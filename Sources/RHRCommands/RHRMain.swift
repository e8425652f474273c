import Foundation
import RHRCore

// rhr: resting heart rate from HealthKit and Health Connect as one honest per-day trend.
// This file wires the subcommands; each lives in its own file. The executable only calls `RHRMain.run`.

/// Every subcommand, in the order the help lists them.
let commands: [Command] = [
    ImportCommand.command,
    ExportCommand.command,
    SummaryCommand.command,
    StatusCommand.command,
    DaemonCommand.command,
    PushCommand.command,
    TokenCommand.command,
    DemoCommand.command,
]

/// Options every command takes.
let globalOptions: [OptionSpec] = [
    .value("store", "PATH", "the store (default $XDG_DATA_HOME/rhr/rhr.sqlite)"),
    .flag("help", "show help"),
    .flag("version", "show the version"),
]

/// `rhr` alone (or with paths): the dashboard; until it can open, the summary.
let defaultCommand = Command(
    name: "", arguments: "[--socket PATH] [PATH...]", summary: "open the dashboard (PATHs: import into a temporary store first)",
    options: [DaemonCommand.socketOption], run: DefaultCommand.run)

public enum RHRMain {
    /// Runs `rhr` with `arguments` (without the program name) and returns its exit status: 0 ok, 1 failure,
    /// 2 usage error. Everything it prints goes to `output`.
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           output: Output = .standard) -> Int32 {
        var specs = Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0.options) })
        specs[""] = defaultCommand.options
        let parsed: ParsedArguments
        do {
            parsed = try CommandLineParser.parse(arguments, commands: specs, global: globalOptions)
        } catch {
            output.error("rhr: \(error.message)\nTry 'rhr --help'.")
            return 2
        }
        if parsed.has("version") {
            output.print("rhr \(RHRVersion.current)")
            return 0
        }
        let command = commands.first { $0.name == parsed.command } ?? defaultCommand
        if parsed.has("help") {
            output.write(parsed.command == nil ? HelpText.general(commands: commands, global: globalOptions, defaultCommand: defaultCommand)
                                               : HelpText.command(command, global: globalOptions))
            return 0
        }
        let invocation = Invocation(arguments: parsed, environment: environment, output: output)
        do {
            return try command.run(invocation)
        } catch let error as UsageError {
            output.error("rhr\(command.name.isEmpty ? "" : " " + command.name): \(error.message)\nTry 'rhr \(command.name.isEmpty ? "" : command.name + " ")--help'.")
            return 2
        } catch {
            output.error("rhr\(command.name.isEmpty ? "" : " " + command.name): \(error)")
            return 1
        }
    }
}
