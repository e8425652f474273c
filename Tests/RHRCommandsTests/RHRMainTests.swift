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
        #expect(rhr.run(["--version"]) == SubprocessResult(status: 0, stdout: "rhr \(RHRVersion.current)\n", stderr: ""))
        #expect(rhr.run(["export", "--version"]).stdout == "rhr \(RHRVersion.current)\n")
    }

    @Test func theHelpListsEveryCommandAndEveryCommonOption() {
        let help = rhr.run(["--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        let usage = help.stdout.split(separator: "\n").drop { $0 != "usage:" }.dropFirst()
            .prefix { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
        // The default command first, then the table's order; a long usage line has its summary on the next.
        let named = usage.filter { $0.hasPrefix("rhr") }.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
        #expect(named == ["rhr [--socket"] + commands.map { "rhr \($0.name)" })
        for option in globalOptions { #expect(help.stdout.contains("  --\(option.name)"), "--\(option.name)") }
        #expect(help.stdout.hasSuffix("exit status: 0 ok, 1 failure (the message names the file and the position), 2 usage error\n"
            + "Wellness information, not medical advice.\n"))
    }

    @Test(arguments: commands.map(\.name))
    func eachCommandsHelpNamesItsOptions(name: String) throws {
        let command = try #require(commands.first { $0.name == name })
        let help = rhr.run([name, "--help"])
        #expect(help.status == 0 && help.stderr.isEmpty)
        #expect(help.stdout.hasPrefix("usage: rhr \(name)"))
        for option in command.options + globalOptions {
            #expect(help.stdout.contains("--\(option.name)" + (option.valueName.map { " " + $0 } ?? "")), "--\(option.name)")
        }
    }

    @Test func aParseErrorExitsTwoAndPointsAtTheGeneralHelp() {
        #expect(rhr.run(["summary", "--bogus"])
            == SubprocessResult(status: 2, stdout: "", stderr: "rhr: unknown option --bogus for rhr summary\nTry 'rhr --help'.\n"))
    }

    @Test(arguments: [
        (["export", "--format", "xml"], "rhr export: --format must be csv or json, not xml\nTry 'rhr export --help'.\n"),
        (["export", "--from", "yesterday"], "rhr export: --from must be a date like 2026-03-14, not yesterday\nTry 'rhr export --help'.\n"),
        (["export", "--from", "2026-03-20", "--to", "2026-03-01"], "rhr export: --from 2026-03-20 is after --to 2026-03-01\nTry 'rhr export --help'.\n"),
        (["summary", "--aggregate", "median"], "rhr summary: --aggregate must be latest, lowest or mean, not median\nTry 'rhr summary --help'.\n"),
        (["summary", "--days", "0"], "rhr summary: --days must be a positive number, not 0\nTry 'rhr summary --help'.\n"),
        (["import"], "rhr import: rhr import needs at least one PATH\nTry 'rhr import --help'.\n"),
        (["push", "a", "b"], "rhr push: rhr push needs exactly one FILE, or - for standard input\nTry 'rhr push --help'.\n"),
        (["daemon", "inbox"], "rhr daemon: rhr daemon takes no paths (got inbox); use --watch DIR\nTry 'rhr daemon --help'.\n"),
        (["status", "x"], "rhr status: rhr status takes no paths\nTry 'rhr status --help'.\n"),
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
