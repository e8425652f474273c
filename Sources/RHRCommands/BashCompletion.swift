/// `rhr completions bash`: a function for `complete -F`, with no dependency on the bash-completion package.
/// Options may come before the command, as the parser allows; `--name=value` is understood (bash splits it at
/// the `=`).
enum BashCompletion {
    static func script(_ table: CommandTable) -> String {
        let commands = table.commands.map(\.name)
        let valueOptions = CompletionScript.valueOptions(table)
        var lines = [
            CompletionScript.header("bash", load: "Load it with: source <(rhr completions bash); scripts/install puts it where bash-completion finds it."),
            "",
            "_rhr() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} option",
            "    COMPREPLY=()",
            "    # The command is the first word that is neither an option nor an option's value; a path first means",
            "    # the dashboard's paths (\"-\").",
            "    local command=\"\" word i",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        case $word in",
            "            --) command=-; break ;;",
            "            \(valueOptions.map { "--\($0.name)" }.joined(separator: "|")))",
            "                if [[ ${COMP_WORDS[i+1]} == = ]]; then ((i += 2)); else ((i++)); fi ;;",
            "            -*|=) ;;",
            "            \(commands.joined(separator: "|"))) command=$word; break ;;",
            "            *) command=-; break ;;",
            "        esac",
            "    done",
            "    # The value of an option: after \"--format \", \"--format=\" or \"--format=j\".",
            "    option=$prev",
            "    if [[ $cur == = ]]; then cur=\"\"; elif [[ $prev == = ]]; then option=${COMP_WORDS[COMP_CWORD-2]}; fi",
            "    case $option in",
        ]
        for option in valueOptions {
            lines.append("        --\(option.name)) \(action(option.completion, table)); return ;;")
        }
        lines += [
            "    esac",
            "    if [[ $cur == -* ]]; then",
            "        case $command in",
        ]
        for scope in table.everyCommand {
            let names = (scope.options + table.globalOptions).flatMap { option in
                ["--\(option.name)"] + (option.short.map { ["-\($0)"] } ?? [])
            }
            lines.append("            \(scope.name.isEmpty ? "\"\"|-" : scope.name)) _rhr_words \"\(names.joined(separator: " "))\" ;;")
        }
        lines += [
            "        esac",
            "        return",
            "    fi",
            "    case $command in",
            "        \"\") _rhr_words \"\(commands.joined(separator: " "))\"; _rhr_files ;;",
            "        -) _rhr_files ;;",
        ]
        for command in table.commands where command.operands.maximum != 0 {
            lines.append("        \(command.name)) \(action(command.operands.completion, table)) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "_rhr_words() { mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }",
            "_rhr_files() { compopt -o filenames 2>/dev/null; mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\"); }",
            "_rhr_directories() { compopt -o filenames 2>/dev/null; mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -d -- \"$cur\"); }",
            "",
            "complete -F _rhr rhr",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func action(_ completion: ValueCompletion, _ table: CommandTable) -> String {
        CompletionScript.action(completion, table, .init(none: ":", files: "_rhr_files", directories: "_rhr_directories",
                                                         words: { "_rhr_words \"\($0.joined(separator: " "))\"" }))
    }
}
