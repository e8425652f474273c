import Foundation
@testable import RHRCommands
import RHRCore
import RHRTestSupport
import Testing

/// `RHRMain.run` in this process: the exit status (0 ok, 1 failure, 2 usage error), which stream says what, help
/// and version.
@Suite("rhr in process: exit status, help, version")
struct RHRMainTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    @Test func versionIsOneLineOnStdout() {
        #expect(rhr.run(["--version"]) == SubprocessResult(status: 0, stdout: "rhr \(RHRVersion.described)\n", stderr: ""))
        #expect(rhr.run(["export", "--version"]).stdout == "rhr \(RHRVersion.described)\n")
    }

    static let table = CommandTable.rhr

    @Test func theHelpListsEveryCommandAndEveryCommonOption() {
        let help = rhr.run(["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        let usage = help.stdout.split(separator: "\n").drop { $0 != "usage:" }.dropFirst()
            .prefix { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
        // The default command first, then the table's order; a long usage line has its summary on the next.
        let named = usage.filter { $0.hasPrefix("rhr") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(named == ["rhr [--socket"] + Self.table.commands.map { "rhr \($0.name)" })
        for option in Self.table.globalOptions { #expect(help.stdout.contains(" --\(option.name)"), "--\(option.name)") }
        #expect(help.stdout.hasSuffix("exit status: 0 ok, 1 failure (the message names the file and the position), 2 usage error\n"
            + "Wellness information, not medical advice.\n"))
    }

    @Test(arguments: CommandTable.rhr.commands.map(\.name))
    func eachCommandsHelpNamesItsOptionsInItsUsageLineAndBelow(name: String) throws {
        let command = try #require(Self.table.commands.first { $0.name == name })
        let help = rhr.run([name, "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        let usage = try #require(help.stdout.split(separator: "\n").first)
        #expect(usage.hasPrefix("usage: rhr \(name)"))
        // `rhr status --help` once said "usage: rhr status" and then listed --socket.
        for option in command.options {
            #expect(usage.contains(option.spelled), "\(name): \(option.spelled)")
        }
        for option in command.options + Self.table.globalOptions {
            #expect(help.stdout.contains(option.spelled), "--\(option.name)")
        }
        #expect(rhr.run(["help", name]) == help, "rhr help \(name)")
        #expect(rhr.run([name, "-h"]) == help, "rhr \(name) -h")
    }

    @Test func helpAndVersionHaveTheirShortAndWordForms() {
        let help = rhr.run(["--help"])
        #expect(rhr.run(["help"]) == help)
        #expect(rhr.run(["-h"]) == help)
        let version = rhr.run(["--version"])
        #expect(rhr.run(["-V"]) == version)
        #expect(rhr.run(["import", "-V"]) == version)
        #expect(rhr.run(["help", "exprt"])
            == SubprocessResult(status: 2, stdout: "", stderr: "rhr help: unknown command 'exprt'; did you mean 'export'?\nTry 'rhr help --help'.\n"))
    }

    @Test(arguments: [
        (["summary", "--bogus"], "rhr summary: unknown option --bogus\nTry 'rhr summary --help'.\n"),
        (["--bogus", "export"], "rhr export: unknown option --bogus\nTry 'rhr export --help'.\n"),
        (["export", "--from"], "rhr export: --from needs a value\nTry 'rhr export --help'.\n"),
        (["export", "-x"], "rhr export: unknown option -x (options are spelled --name)\nTry 'rhr export --help'.\n"),
        (["--days"], "rhr: unknown option --days (an option of rhr summary)\nTry 'rhr --help'.\n"),
        (["import", "--watch", "/in", "a.zip"], "rhr import: unknown option --watch (an option of rhr daemon)\nTry 'rhr import --help'.\n"),
    ])
    func aParseErrorExitsTwoAndPointsAtTheHelpOfTheCommandItConcerns(words: [String], message: String) {
        #expect(rhr.run(words) == SubprocessResult(status: 2, stdout: "", stderr: message))
    }

    @Test(arguments: [
        (["frobnicate"], "rhr: unknown command 'frobnicate'; to open a file of that name, write ./frobnicate\nTry 'rhr --help'.\n"),
        (["imprt", "export.zip"], "rhr: unknown command 'imprt'; did you mean 'import'?\nTry 'rhr --help'.\n"),
        (["ex"], "rhr: unknown command 'ex'; did you mean 'export'?\nTry 'rhr --help'.\n"),
        (["stauts"], "rhr: unknown command 'stauts'; did you mean 'status'?\nTry 'rhr --help'.\n"),
        (["--store", "/nowhere/s.sqlite", "deamon"], "rhr: unknown command 'deamon'; did you mean 'daemon'?\nTry 'rhr --help'.\n"),
    ])
    func anUnknownCommandIsAUsageErrorNotAMissingFile(words: [String], message: String) {
        // Once `rhr frobnicate` printed "No data yet…", then "rhr: frobnicate: no such file", and exited 1.
        #expect(rhr.run(words) == SubprocessResult(status: 2, stdout: "", stderr: message))
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    @Test func aWordThatIsAFileOrSpelledLikeAPathIsAPath() throws {
        // A path that is not there is a failure about the file (exit 1), not a usage error.
        let missing = rhr.run(["export.zip"])
        #expect(missing.status == 1 && missing.stderr == "rhr: export.zip: no such file\n", "\(missing.stderr)")
        let batches = InProcessRHR.sample("batches/healthconnect-pixel.jsonl")
        #expect(rhr.run([batches]).status == 0)
    }

    @Test(arguments: [
        (["export", "--format", "xml"], "rhr export: --format must be csv or json, not xml\nTry 'rhr export --help'.\n"),
        (["export", "--from", "yesterday"], "rhr export: --from must be a date like 2026-03-14, not yesterday\nTry 'rhr export --help'.\n"),
        (["export", "--from", "2026-03-20", "--to", "2026-03-01"], "rhr export: --from 2026-03-20 is after --to 2026-03-01\nTry 'rhr export --help'.\n"),
        (["summary", "--aggregate", "median"], "rhr summary: --aggregate must be latest, lowest or mean, not median\nTry 'rhr summary --help'.\n"),
        (["summary", "--days", "0"], "rhr summary: --days must be a positive number, not 0\nTry 'rhr summary --help'.\n"),
        (["import"], "rhr import: needs at least one PATH\nTry 'rhr import --help'.\n"),
        (["push", "a", "b"], "rhr push: needs exactly one FILE, or - for standard input\nTry 'rhr push --help'.\n"),
        (["push"], "rhr push: needs exactly one FILE, or - for standard input\nTry 'rhr push --help'.\n"),
        (["daemon", "inbox"], "rhr daemon: takes no paths (got inbox); use --watch DIR\nTry 'rhr daemon --help'.\n"),
        (["status", "x"], "rhr status: takes no paths (got x)\nTry 'rhr status --help'.\n"),
        (["demo", "x"], "rhr demo: takes no paths (got x)\nTry 'rhr demo --help'.\n"),
        (["completions"], "rhr completions: needs exactly one shell (bash, zsh or fish)\nTry 'rhr completions --help'.\n"),
        (["completions", "tcsh"], "rhr completions: no completions for tcsh; rhr writes them for bash, zsh and fish\nTry 'rhr completions --help'.\n"),
        (["help", "export", "import"], "rhr help: takes at most 1 COMMAND (got 2)\nTry 'rhr help --help'.\n"),
    ])
    func aCommandsUsageErrorExitsTwoAndPointsAtItsHelp(words: [String], message: String) {
        let result = rhr.run(words)
        #expect(result == SubprocessResult(status: 2, stdout: "", stderr: message))
        // Refused before anything was touched: no store was made.
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    @Test func aFailureExitsOneAndNamesTheFile() {
        let missing = rhr.sandbox.home + "/nope.zip"
        let result = rhr.run(["import", missing])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("rhr import: \(missing): "), "\(result.stderr)")
    }

    @Test func aFileThatIsNotAStoreIsRefusedUntouched() throws {
        let notes = try rhr.sandbox.write("notes.sqlite", "my notes, not a store\n")
        let result = rhr.run(["--store", notes, "summary"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("rhr summary: \(notes)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes, not a store\n")
    }
}
