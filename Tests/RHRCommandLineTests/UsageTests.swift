import Foundation
import RHRTestSupport
import Testing

/// What a new user types first, through the real binary: an unknown command, help in its three spellings,
/// the version in its two.
@Suite("rhr usage through the binary")
struct UsageTests {
    let rhr: RHRSandbox

    init() throws { rhr = try RHRSandbox() }

    @Test func anUnknownCommandExitsTwoAndPrintsNothingOnStdout() throws {
        let result = try rhr.run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "no \"No data yet\" for a mistyped command")
        #expect(result.stderr.hasPrefix("rhr: unknown command 'frobnicate'"), "\(result.stderr)")
        let close = try rhr.run(["improt", "export.zip"])
        #expect(close.stderr == "rhr: unknown command 'improt'; did you mean 'import'?\nTry 'rhr --help'.\n")
        #expect(!FileManager.default.fileExists(atPath: rhr.storePath))
    }

    /// The version comes from one place, the repository's VERSION file, and the build names the commit it was made from
    /// (read from git's own files at build time), so two builds of one version can be told apart.
    @Test func theVersionIsVERSIONsAndTheBuildIsTheCommit() throws {
        let version = try String(contentsOfFile: SourceTree.root + "/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try rhr.run(["--version"])
        guard FileManager.default.fileExists(atPath: SourceTree.root + "/.git"), let git = Subprocess.which("git") else {
            #expect(result.stdout == "rhr \(version) (unknown build)\n")
            return
        }
        let commit = try Subprocess.run(git, ["rev-parse", "HEAD"], directory: SourceTree.root).stdout
        #expect(result.stdout == "rhr \(version) (build \(commit.prefix(12)))\n", "built before the last commit? \(commit)")
    }

    @Test func helpAndVersionInEverySpelling() throws {
        let help = try rhr.run(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("rhr ") && help.stdout.contains("usage:"))
        #expect(try rhr.run(["help"]) == help)
        #expect(try rhr.run(["-h"]) == help)
        let version = try rhr.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("rhr "))
        #expect(try rhr.run(["-V"]) == version)
        #expect(try rhr.run(["status", "--help"]).stdout.hasPrefix("usage: rhr status [--socket PATH]\n"))
    }
}
