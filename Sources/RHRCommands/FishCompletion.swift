/// `rhr completions fish`: `complete` lines, each for the command it belongs to (found by `__rhr_command`).
enum FishCompletion {
    static func script(_ table: CommandTable) -> String {
        let commands = table.commands.map(\.name)
        let valueOptions = CompletionScript.valueOptions(table).map { "--\($0.name)" }
        var lines = [
            CompletionScript.header("fish", load: "scripts/install puts it in vendor_completions.d; or: rhr completions fish | source"),
            "",
            "# The words of the line so far that are neither options nor options' values; \"--\" ends the options, as \"-\".",
            "function __rhr_plain_words",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    set -l skip 0",
            "    for word in $words",
            "        if test $skip -eq 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $word",
            "            case \(valueOptions.joined(separator: " "))",
            "                set skip 1",
            "            case --",
            "                echo -",
            "                return",
            "            case '-*'",
            "            case '*'",
            "                echo $word",
            "        end",
            "    end",
            "end",
            "",
            "# The command on the line so far: \"\" before one, \"-\" after a path (the dashboard's paths).",
            "function __rhr_command",
            "    set -l plain (__rhr_plain_words)",
            "    if test (count $plain) -eq 0",
            "        echo",
            "    else if contains -- $plain[1] \(commands.joined(separator: " "))",
            "        echo $plain[1]",
            "    else",
            "        echo -",
            "    end",
            "end",
            "",
            "function __rhr_in",
            "    set -l command (__rhr_command)",
            "    contains -- \"$command\" $argv",
            "end",
            "",
            "# Whether the command's operands so far are the words given (none: no operand yet).",
            "function __rhr_operands_are",
            "    set -l plain (__rhr_plain_words)",
            "    set -l operands $plain[2..-1]",
            "    test \"$operands\" = \"$argv\"",
            "end",
            "",
            "# The store's token names (with the line's --store), never a token: rhr keeps only their hashes.",
            "function __rhr_token_names",
            "    set -l words (commandline -opc)",
            "    set -l store",
            "    for i in (seq (count $words))",
            "        switch $words[$i]",
            "            case --store",
            "                set store --store $words[(math $i + 1)]",
            "            case '--store=*'",
            "                set store --store (string replace -- --store= '' $words[$i])",
            "        end",
            "    end",
            "    rhr $store token list --names 2>/dev/null",
            "end",
            "",
            "complete -c rhr -f",
        ]
        for option in table.globalOptions {
            lines.append(line(nil, option, table))
        }
        lines.append("")
        lines.append("# rhr: the dashboard, on the store or on paths")
        for command in table.commands {
            lines.append("complete -c rhr -n '__rhr_in \"\"' -a \(command.name) -d \(quoted(command.summary))")
        }
        lines.append("complete -c rhr -n '__rhr_in \"\" -' -F")
        for option in table.defaultCommand.options {
            lines.append(line(["", "-"], option, table))
        }
        for command in table.commands {
            lines.append("")
            lines.append("# rhr \(command.name)")
            for option in command.options {
                lines.append(line([command.name], option, table))
            }
            if !command.operands.after.isEmpty {
                // The first operand, then the second by the first (`Operands.after`).
                lines.append("complete -c rhr -n '__rhr_in \(command.name); and __rhr_operands_are' "
                    + arguments(command.operands.completion, table))
                for (first, completion) in command.operands.after.sorted(by: { $0.key < $1.key }) {
                    lines.append("complete -c rhr -n '__rhr_in \(command.name); and __rhr_operands_are \(first)' "
                        + arguments(completion, table))
                }
            } else if command.operands.maximum != 0 {
                lines.append("complete -c rhr -n '__rhr_in \(command.name)' " + arguments(command.operands.completion, table))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One option's `complete` line; `scope` lists the commands it belongs to ("" and "-" the dashboard), nil
    /// for every command.
    static func line(_ scope: [String]?, _ option: OptionSpec, _ table: CommandTable) -> String {
        var parts = ["complete -c rhr"]
        if let scope { parts.append("-n " + quoted("__rhr_in " + scope.map { $0.isEmpty ? "\"\"" : $0 }.joined(separator: " "))) }
        if let short = option.short { parts.append("-s \(short)") }
        parts.append("-l \(option.name)")
        if option.valueName != nil { parts.append(arguments(option.completion, table)) }
        parts.append("-d \(quoted(option.help))")
        return parts.joined(separator: " ")
    }

    /// What follows a value: files, directories, words, or nothing.
    static func arguments(_ completion: ValueCompletion, _ table: CommandTable) -> String {
        CompletionScript.action(completion, table, .init(none: "-x", files: "-r -F",
                                                         directories: "-x -a '(__fish_complete_directories (commandline -ct))'",
                                                         words: { "-x -a " + quoted($0.joined(separator: " ")) },
                                                         tokenNames: "-x -a '(__rhr_token_names)'"))
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
