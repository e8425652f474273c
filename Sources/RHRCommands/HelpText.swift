import RHRCore

/// The help screens, generated from the command table.
enum HelpText {
    static func general(commands: [Command], global: [OptionSpec], defaultCommand: Command) -> String {
        var lines = [
            "rhr \(RHRVersion.current): resting heart rate from HealthKit and Health Connect, one honest per-day trend",
            "",
            "usage:",
        ]
        let entries = [("rhr " + defaultCommand.arguments, defaultCommand.summary)]
            + commands.map { ("rhr \($0.name)" + ($0.arguments.isEmpty ? "" : " " + $0.arguments), $0.summary) }
        let width = min(44, entries.map(\.0.count).max() ?? 0)
        for (usage, summary) in entries {
            if usage.count > width {
                lines.append("  \(usage)")
                lines.append("  " + String(repeating: " ", count: width) + "  \(summary)")
            } else {
                lines.append("  " + usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(summary)")
            }
        }
        lines.append("")
        lines.append("options for every command:")
        lines += optionLines(global)
        lines.append("")
        lines.append("exit status: 0 ok, 1 failure (the message names the file and the position), 2 usage error")
        lines.append("Wellness information, not medical advice.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func command(_ command: Command, global: [OptionSpec]) -> String {
        var lines = ["usage: rhr \(command.name)\(command.arguments.isEmpty ? "" : " " + command.arguments)", "",
                     command.summary]
        if !command.options.isEmpty {
            lines.append("")
            lines.append("options:")
            lines += optionLines(command.options)
        }
        lines.append("")
        lines.append("options for every command:")
        lines += optionLines(global)
        return lines.joined(separator: "\n") + "\n"
    }

    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let names = options.map { "--\($0.name)" + ($0.valueName.map { " " + $0 } ?? "") }
        let width = names.map(\.count).max() ?? 0
        return zip(names, options).map { "  " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $1.help }
    }
}
