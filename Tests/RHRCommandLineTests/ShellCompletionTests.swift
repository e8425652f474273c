import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// `rhr completions bash|zsh|fish` loaded into the real shells, with the real binary on `PATH`, completing in a
/// directory of known files.
@Suite("rhr completions in the shells")
struct ShellCompletionTests {
    let rhr: RHRSandbox
    let files: TemporaryDirectory

    init() throws {
        rhr = try RHRSandbox()
        files = try TemporaryDirectory(prefix: "rhr-complete")
        try files.write("export.zip", "")
        try files.write("inbox/.keep", "")
    }

    /// The sandbox's environment with the built rhr first on `PATH`.
    func environment() throws -> [String: String] {
        var environment = rhr.environment
        environment["PATH"] = PathText.parent(try SourceTree.builtProduct("rhr")) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    func shell(_ name: String) throws -> String {
        guard let path = Subprocess.which(name) else { throw TestFailure("\(name) is not installed; scripts/setup installs it") }
        return path
    }

    /// What bash's completion function offers for the words of a command line (the last one being completed).
    func bashCompletes(_ words: [String]) throws -> [String] {
        let line = words.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source <(rhr completions bash) || exit 3
            COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _rhr; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Subprocess.run(try shell("bash"), ["-c", script], environment: try environment(), directory: files.path)
        guard result.status == 0 else { throw TestFailure("bash: \(result.status) \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashLoadsTheScriptAndCompletesCommandsOptionsValuesAndPaths() throws {
        let loaded = try Subprocess.run(try shell("bash"), ["-c", "source <(rhr completions bash); complete -p rhr"],
                                        environment: try environment(), directory: files.path)
        #expect(loaded == SubprocessResult(status: 0, stdout: "complete -F _rhr rhr\n", stderr: ""))
        #expect(try bashCompletes(["rhr", "ex"]) == ["export", "export.zip"])
        #expect(try bashCompletes(["rhr", "sta"]) == ["status"])
        #expect(try bashCompletes(["rhr", "export", "--aggregate", ""]) == ["latest", "lowest", "mean"])
        #expect(try bashCompletes(["rhr", "export", "--format", "=", ""]) == ["csv", "json"])
        #expect(try bashCompletes(["rhr", "--store", "s.sqlite", "export", "--f"]) == ["--format", "--from"])
        #expect(try bashCompletes(["rhr", "import", ""]) == ["export.zip", "inbox"])
        #expect(try bashCompletes(["rhr", "daemon", "--watch", ""]) == ["inbox"])
        #expect(try bashCompletes(["rhr", "completions", ""]) == ["bash", "fish", "zsh"])
        #expect(try bashCompletes(["rhr", "status", ""]) == [], "status takes no paths")
    }

    @Test func fishCompletesCommandsOptionsValuesAndPaths() throws {
        func completes(_ line: String) throws -> [String] {
            let result = try Subprocess.run(try shell("fish"), ["-c", "rhr completions fish | source; complete -C '\(line)'"],
                                            environment: try environment(), directory: files.path)
            guard result.status == 0 else { throw TestFailure("fish: \(result.status) \(result.stderr)") }
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try completes("rhr ex") == ["export", "export.zip"])
        #expect(try completes("rhr summary --aggregate ") == ["latest", "lowest", "mean"])
        #expect(try completes("rhr import ") == ["export.zip", "inbox/"])
        #expect(try completes("rhr daemon --watch ") == ["inbox/"])
        #expect(try completes("rhr --store s.sqlite sum") == ["summary"])
    }

    /// `rhr token revoke <Tab>` offers the store's token names (`rhr token list --names`, with the line's `--store`), and
    /// never a token: rhr keeps only their hashes.
    @Test func tokenNamesCompleteInBashAndFish() throws {
        let tokens = try ["phone", "pixel"].map { try rhr.run(["token", "new", $0]).stdout }
        let other = rhr.home + "/other.sqlite"
        #expect(try rhr.run(["token", "new", "tablet", "--store", other]).status == 0)
        #expect(try bashCompletes(["rhr", "token", "revoke", ""]) == ["phone", "pixel"])
        #expect(try bashCompletes(["rhr", "token", "revoke", "ph"]) == ["phone"])
        #expect(try bashCompletes(["rhr", "--store", other, "token", "revoke", ""]) == ["tablet"])
        #expect(try bashCompletes(["rhr", "token", "revoke", "--store", "=", other, ""]) == ["tablet"])
        #expect(try bashCompletes(["rhr", "token", ""]) == ["list", "new", "revoke"])
        #expect(try bashCompletes(["rhr", "token", "new", ""]) == [], "a new name is the user's own")
        #expect(try bashCompletes(["rhr", "token", "revoke", "phone", ""]) == [], "revoke takes one name")

        func fish(_ line: String) throws -> [String] {
            let result = try Subprocess.run(try shell("fish"), ["-c", "rhr completions fish | source; complete -C '\(line)'"],
                                            environment: try environment(), directory: files.path)
            guard result.status == 0 else { throw TestFailure("fish: \(result.status) \(result.stderr)") }
            for token in tokens { #expect(!result.stdout.contains(token.trimmingCharacters(in: .newlines))) }
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        #expect(try fish("rhr token revoke ") == ["phone", "pixel"])
        #expect(try fish("rhr --store \(other) token revoke ") == ["tablet"])
        #expect(try fish("rhr token ") == ["list", "new", "revoke"])
        #expect(try fish("rhr token new ") == [])
    }

    /// zsh completes only in its line editor: a zsh on a pseudo-terminal (zpty) is typed to.
    @Test func tokenNamesCompleteInZsh() throws {
        _ = try ["phone", "pixel"].map { try rhr.run(["token", "new", $0]) }
        let other = rhr.home + "/other.sqlite"
        #expect(try rhr.run(["token", "new", "tablet", "--store", other]).status == 0)
        /// Types `typed`, Tab, then puts `echo` before the line and runs it: the line the command prints (starting with
        /// "rhr", where zle's own drawing of it starts with the prompt) is what completion made of it.
        func completed(_ typed: String) throws -> String {
            let script = #"""
                zmodload zsh/zpty || exit 3
                zpty -b typing 'zsh -f -i'
                zpty -w typing 'PS1="> "; autoload -U compinit && compinit -u -D && source <(rhr completions zsh)'
                zpty -w -n typing $'\#(typed)\t'
                zpty -w -n typing $'\C-a echo \n'
                zpty -r typing out '*'$'\n''rhr *'$'\n' || exit 4
                print -r -- ${${(f)out}[-1]}
                zpty -d typing
                """#
            let timeout = try #require(Subprocess.which("timeout"))
            let result = try Subprocess.run(timeout, ["-s", "KILL", "30", try shell("zsh"), "-f", "-c", script],
                                            environment: try environment(), directory: files.path)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try completed("rhr token revoke ph") == "rhr token revoke phone")
        // The line's --store, before the command or after it.
        #expect(try completed("rhr --store \(other) token revoke ") == "rhr --store \(other) token revoke tablet")
        #expect(try completed("rhr token revoke --store \(other) ") == "rhr token revoke --store \(other) tablet")
    }

    @Test func zshLoadsTheScriptIntoItsCompletionSystem() throws {
        let script = "autoload -U compinit && compinit -u -D && source <(rhr completions zsh) && print -r -- $_comps[rhr]"
        let result = try Subprocess.run(try shell("zsh"), ["-f", "-c", script], environment: try environment(), directory: files.path)
        #expect(result == SubprocessResult(status: 0, stdout: "_rhr\n", stderr: ""))
        let syntax = try Subprocess.run(try shell("zsh"), ["-f", "-n", "-c", try rhr.run(["completions", "zsh"]).stdout])
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }
}
