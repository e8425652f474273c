@testable import RHRCommands
import RHRTestSupport
import Testing

/// The completion scripts are made from the command table, so they offer what the parser accepts. What the
/// shells do with them is tested on the real binary (RHRCommandLineTests, "rhr completions in the shells").
@Suite("Completion scripts from the command table")
struct CompletionScriptTests {
    static let table = CommandTable.rhr
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    @Test(arguments: CompletionsCommand.shells)
    func eachScriptNamesEveryCommandOptionAndChoice(shell: String) {
        let result = rhr.run(["completions", shell])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let script = result.stdout
        // Where each script lists the commands, not anywhere ("help" is in "--help", "completions" in every header).
        let names = Self.table.commands.map(\.name)
        switch shell {
        case "bash": #expect(script.contains(names.joined(separator: "|") + ") command=$word"), "bash: the commands")
        case "zsh": for name in names { #expect(script.contains("    '\(name):"), "zsh: \(name)") }
        default: for name in names { #expect(script.contains("-n '__rhr_in \"\"' -a \(name) -d"), "fish: \(name)") }
        }
        for option in Self.table.everyOption {
            // As the script spells it: "store" alone is in "--store" and "--to" in "--store" too.
            #expect(script.contains(shell == "fish" ? "-l \(option.name)" : "--\(option.name)"), "\(shell): --\(option.name)")
            if case .words(let words) = option.completion {
                #expect(script.contains(words.joined(separator: " ")), "\(shell): --\(option.name) \(words)")
            }
            if let short = option.short { #expect(script.contains(shell == "fish" ? "-s \(short) " : "-\(short)"), "\(shell): -\(short)") }
        }
    }

    @Test func anOptionMeansTheSameInEveryCommandThatTakesIt() {
        // The scripts (and the parser, for an option before its command) know an option by its name alone.
        let all = Self.table.everyCommand.flatMap(\.options) + Self.table.globalOptions
        for option in all {
            for other in all where other.name == option.name {
                #expect(other.valueName == option.valueName && other.completion == option.completion
                        && other.repeatable == option.repeatable && other.short == option.short, "--\(option.name)")
            }
        }
        let shorts = all.compactMap(\.short)
        #expect(Set(shorts).count == Set(all.filter { $0.short != nil }.map(\.name)).count)
    }

    @Test func aValueIsCompletedAsItsNameSays() {
        #expect(ValueCompletion(valueName: "latest|lowest|mean") == .words(["latest", "lowest", "mean"]))
        #expect(ValueCompletion(valueName: "PATH") == .files)
        #expect(ValueCompletion(valueName: "DIR") == .directories)
        #expect(ValueCompletion(valueName: "YYYY-MM-DD") == ValueCompletion.none)
        let watch = Self.table.everyOption.first { $0.name == "watch" }
        #expect(watch?.completion == .directories)
    }
}
