import RHRCore

/// `rhr completions zsh`: a `#compdef` function for zsh's completion system, one `_arguments` spec per command.
enum ZshCompletion {
    static func script(_ table: CommandTable) -> String {
        var lines = [
            "#compdef rhr",
            CompletionScript.header("zsh", load: "Put it in a directory of $fpath as _rhr (scripts/install does), or: source <(rhr completions zsh)"),
            "",
            "_rhr() {",
            "  local curcontext=$curcontext state line",
            "  typeset -A opt_args",
            "  local -a rhr_global rhr_commands",
            "  rhr_global=(",
        ]
        lines += table.globalOptions.map { "    " + spec($0, table) }
        lines += ["  )", "  rhr_commands=("]
        lines += table.commands.map { "    " + quoted(escaped($0.name, ":") + ":" + $0.summary) }
        lines += [
            "  )",
            "  # The dashboard's options and paths, or a command and then its own.",
            "  _arguments -C $rhr_global \\",
        ]
        lines += table.defaultCommand.options.map { "    " + spec($0, table) + " \\" }
        lines += [
            "    '1: :->first' \\",
            "    '*:: :->rest'",
            "  # A --store before the command, which the command's own _arguments no longer sees (_rhr_tokens).",
            "  local rhr_store=${opt_args[--store]}",
            "  case $state in",
            "    first) _describe -t commands 'rhr command' rhr_commands; _files ;;",
            "    rest)",
            "      case $words[1] in",
        ]
        for command in table.commands {
            let specs = ["$rhr_global"] + command.options.map { spec($0, table) } + operandSpecs(command.operands, table, command: command)
            lines.append("        \(command.name)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        lines += [
            "        *) _files ;;",
            "      esac ;;",
            "  esac",
            "}",
            "",
            "# The store's token names (with the line's --store), never a token: rhr keeps only their hashes.",
            "_rhr_tokens() {",
            "  local -a names",
            "  local store=${opt_args[--store]:-$rhr_store}",
            "  names=(${(f)\"$(rhr ${store:+--store} $store token list --names 2>/dev/null)\"})",
            "  compadd -a names",
            "}",
            "",
        ]
        // A command whose second operand depends on its first (`Operands.after`): a function that asks which it was.
        for command in table.commands where !command.operands.after.isEmpty {
            lines.append("\(afterFunction(command))() {")
            lines.append("  case $line[1] in")
            for (first, completion) in command.operands.after.sorted(by: { $0.key < $1.key }) {
                lines.append("    \(first)) \(action(completion, table)) ;;")
            }
            lines += ["  esac", "}", ""]
        }
        lines += [
            "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _rhr \"$@\"; else compdef _rhr rhr; fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `'--format=[output format (default csv)]:csv|json:(csv json)'`, `'(-h --help)'{-h,--help}'[show help]'`.
    static func spec(_ option: OptionSpec, _ table: CommandTable) -> String {
        let description = "[" + escaped(option.help, "[]:") + "]"
        var tail = description
        if let valueName = option.valueName {
            tail += ":" + escaped(valueName, ":") + ":" + action(option.completion, table)
        }
        let long = "--\(option.name)" + (option.valueName == nil ? "" : "=")
        let repeated = option.repeatable ? "*" : ""
        guard let short = option.short else { return quoted(repeated + long + tail) }
        return quoted("(-\(short) --\(option.name))") + "{-\(short),\(long)}" + quoted(tail)
    }

    static func operandSpecs(_ operands: Operands, _ table: CommandTable, command: Command? = nil) -> [String] {
        guard operands.maximum != 0 else { return [] }
        if let command, !operands.after.isEmpty {
            return [quoted("1:" + escaped(operands.noun, ":") + ":" + action(operands.completion, table)),
                    quoted("2:NAME:" + afterFunction(command))]
        }
        let position = operands.maximum == 1 ? "1" : "*"
        return [quoted(position + ":" + escaped(operands.noun, ":") + ":" + action(operands.completion, table))]
    }

    static func action(_ completion: ValueCompletion, _ table: CommandTable) -> String {
        CompletionScript.action(completion, table, .init(none: " ", files: "_files", directories: "_files -/",
                                                         words: { "(" + $0.joined(separator: " ") + ")" },
                                                         tokenNames: "_rhr_tokens"))
    }

    /// The function that completes `command`'s second operand by its first: `_rhr_token_after`.
    static func afterFunction(_ command: Command) -> String { "_rhr_\(command.name)_after" }

    /// A backslash before each of `characters` (and before a backslash).
    static func escaped(_ text: String, _ characters: String) -> String {
        var out = ""
        for ch in text {
            if ch == "\\" || characters.contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// In single quotes, for the shell.
    static func quoted(_ text: String) -> String { PathText.singleQuoted(text) }
}
