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

    @Test func zshLoadsTheScriptIntoItsCompletionSystem() throws {
        let script = "autoload -U compinit && compinit -u -D && source <(rhr completions zsh) && print -r -- $_comps[rhr]"
        let result = try Subprocess.run(try shell("zsh"), ["-f", "-c", script], environment: try environment(), directory: files.path)
        #expect(result == SubprocessResult(status: 0, stdout: "_rhr\n", stderr: ""))
        let syntax = try Subprocess.run(try shell("zsh"), ["-f", "-n", "-c", try rhr.run(["completions", "zsh"]).stdout])
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }
}
