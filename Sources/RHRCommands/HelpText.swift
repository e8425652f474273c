import RHRCore

/// The help screens, made from the command table.
enum HelpText {
    static func general(_ table: CommandTable) -> String {
        var lines = [
            "rhr \(RHRVersion.current): resting heart rate from HealthKit and Health Connect, one honest per-day trend",
            "",
            "usage:",
        ]
        let entries = table.everyCommand.map { ($0.usage, $0.summary) }
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
        lines += optionLines(table.globalOptions)
        lines.append("")
        lines.append("'rhr help COMMAND' tells more of one; 'man rhr' has the files, the environment and examples.")
        lines.append("exit status: 0 ok, 1 failure (the message names the file and the position), 2 usage error")
        lines.append("Wellness information, not medical advice.")
        return lines.joined(separator: "\n") + "\n"
    }

    static func command(_ command: Command, table: CommandTable) -> String {
        var lines = ["usage: \(command.usage)", "", command.summary]
        if let details = command.details { lines += ["", details] }
        if !command.options.isEmpty {
            lines.append("")
            lines.append("options:")
            lines += optionLines(command.options)
        }
        lines.append("")
        lines.append("options for every command:")
        lines += optionLines(table.globalOptions)
        return lines.joined(separator: "\n") + "\n"
    }

    /// "  -h, --help     show help", "      --store PATH  the store …": long names aligned whether or not a
    /// short one comes first.
    static func optionLines(_ options: [OptionSpec]) -> [String] {
        let names = options.map { ($0.short.map { "-\($0), " } ?? "    ") + $0.spelled }
        let width = names.map(\.count).max() ?? 0
        return zip(names, options).map { "  " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $1.help }
    }
}
