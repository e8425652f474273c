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
            "    # the dashboard's paths (\"-\"). The words after the command that are no options are its operands.",
            "    local command=\"\" store=\"\" word i",
            "    local -a operands=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        case $word in",
            "            --) [[ -z $command ]] && { command=-; break; } ;;",
            "            \(valueOptions.map { "--\($0.name)" }.joined(separator: "|")))",
            "                if [[ ${COMP_WORDS[i+1]} == = ]]; then ((i += 2)); else ((i++)); fi",
            "                [[ $word == --store ]] && store=${COMP_WORDS[i]/#\\~/$HOME} ;;",
            "            -*|=) ;;",
            "            *)",
            "                if [[ -n $command ]]; then operands+=(\"$word\"); continue; fi",
            "                case $word in",
            "                    \(commands.joined(separator: "|"))) command=$word ;;",
            "                    *) command=-; break ;;",
            "                esac ;;",
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
            lines.append("        \(command.name)) \(operandAction(command.operands, table)) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "_rhr_words() { mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }",
            "_rhr_files() { compopt -o filenames 2>/dev/null; mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\"); }",
            "_rhr_directories() { compopt -o filenames 2>/dev/null; mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -d -- \"$cur\"); }",
            "# The store's token names, never a token: rhr keeps only their hashes.",
            "_rhr_tokens() { _rhr_words \"$(rhr ${store:+--store \"$store\"} token list --names 2>/dev/null)\"; }",
            "",
            "complete -F _rhr rhr",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func action(_ completion: ValueCompletion, _ table: CommandTable) -> String {
        CompletionScript.action(completion, table, .init(none: ":", files: "_rhr_files", directories: "_rhr_directories",
                                                         words: { "_rhr_words \"\($0.joined(separator: " "))\"" },
                                                         tokenNames: "_rhr_tokens"))
    }

    /// What a command's operands complete as: the same at every place, or, where the second depends on the first
    /// (`Operands.after`), by place.
    static func operandAction(_ operands: Operands, _ table: CommandTable) -> String {
        guard !operands.after.isEmpty else { return action(operands.completion, table) }
        let second = operands.after.sorted { $0.key < $1.key }.map { "\($0.key)) \(action($0.value, table)) ;;" }
        return "if ((${#operands[@]} == 0)); then \(action(operands.completion, table)); "
            + "elif ((${#operands[@]} == 1)); then case ${operands[0]} in \(second.joined(separator: " ")) esac; fi"
    }
}
