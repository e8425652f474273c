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
            "  case $state in",
            "    first) _describe -t commands 'rhr command' rhr_commands; _files ;;",
            "    rest)",
            "      case $words[1] in",
        ]
        for command in table.commands {
            let specs = ["$rhr_global"] + command.options.map { spec($0, table) } + operandSpecs(command.operands, table)
            lines.append("        \(command.name)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        lines += [
            "        *) _files ;;",
            "      esac ;;",
            "  esac",
            "}",
            "",
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

    static func operandSpecs(_ operands: Operands, _ table: CommandTable) -> [String] {
        guard operands.maximum != 0 else { return [] }
        let position = operands.maximum == 1 ? "1" : "*"
        return [quoted(position + ":" + escaped(operands.noun, ":") + ":" + action(operands.completion, table))]
    }

    static func action(_ completion: ValueCompletion, _ table: CommandTable) -> String {
        CompletionScript.action(completion, table, .init(none: " ", files: "_files", directories: "_files -/",
                                                         words: { "(" + $0.joined(separator: " ") + ")" }))
    }

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
