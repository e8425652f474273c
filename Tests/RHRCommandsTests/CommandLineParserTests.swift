@testable import RHRCommands
import Testing

/// The argument parser on its own: words in, `ParsedArguments` or a `UsageError` out.
@Suite("Command line parser")
struct CommandLineParserTests {
    static let commands: [String: [OptionSpec]] = [
        "export": [.value("format", "csv|json", ""), .value("from", "D", ""), .flag("pretty", "")],
        "daemon": [.value("watch", "DIR", "", repeatable: true)],
        "import": [.flag("force", "")],
        "": [.value("socket", "PATH", "")],
    ]
    static let global: [OptionSpec] = [.value("store", "PATH", ""), .flag("help", "", short: "h")]

    func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try CommandLineParser.parse(words, commands: Self.commands, global: Self.global)
    }

    func usageError(_ words: [String]) -> UsageError? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error
        }
    }

    @Test func optionsBeforeAndAfterTheSubcommandInBothSpellings() throws {
        let parsed = try parse(["--store", "/s.sqlite", "export", "--format=json", "--pretty", "--from", "2026-03-01"])
        #expect(parsed == ParsedArguments(command: "export", values: ["store": ["/s.sqlite"], "format": ["json"],
                                                                      "from": ["2026-03-01"]], flags: ["pretty"]))
        // An option of the subcommand may come before it: its value is not taken for the subcommand.
        #expect(try parse(["--from", "2026-03-01", "export"]).command == "export")
        #expect(try parse(["--from", "2026-03-01", "export"]).value("from") == "2026-03-01")
    }

    @Test func positionalsDashAndDoubleDash() throws {
        let parsed = try parse(["import", "a.zip", "-", "--", "--force", "export"])
        #expect(parsed.command == "import")
        #expect(parsed.positionals == ["a.zip", "-", "--force", "export"])
        #expect(!parsed.has("force"))
        // A subcommand's name after the first word is a path like any other.
        #expect(try parse(["import", "export"]).positionals == ["export"])
        // No subcommand: the words are paths for the default command, which takes its own options.
        let bare = try parse(["--socket", "/run/s", "x.zip"])
        #expect(bare.command == nil && bare.positionals == ["x.zip"] && bare.value("socket") == "/run/s")
    }

    @Test func repeatableOptionsCollectEveryValue() throws {
        #expect(try parse(["daemon", "--watch", "/a", "--watch=/b"]).all("watch") == ["/a", "/b"])
        #expect(try parse(["daemon"]).all("watch").isEmpty)
    }

    @Test(arguments: [
        (["export", "--bogus"], "unknown option --bogus"),
        (["--force"], "unknown option --force (an option of rhr import)"),
        (["export", "-f", "json"], "unknown option -f (options are spelled --name)"),
        (["export", "--format"], "--format needs a value"),
        (["export", "--format="], "--format needs a value"),
        (["import", "--force=yes", "x"], "--force takes no value"),
        (["export", "--format", "csv", "--format", "json"], "--format given twice"),
        (["import", "--watch", "/a"], "unknown option --watch (an option of rhr daemon)"),
    ])
    func wrongWordsAreUsageErrors(words: [String], message: String) {
        #expect(usageError(words)?.message == message)
    }

    @Test func aUsageErrorNamesTheCommandWhereverItWasTyped() {
        // The message's prefix and its pointer to help name the command, even when the mistake comes first.
        #expect(usageError(["--bogus", "export"])?.command == "export")
        #expect(usageError(["export", "--from"])?.command == "export")
        #expect(usageError(["--from"])?.command == nil)
    }

    @Test func aShortOptionIsItsLongOne() throws {
        #expect(try parse(["-h"]).has("help"))
        #expect(try parse(["export", "-h"]) == ParsedArguments(command: "export", flags: ["help"]))
        #expect(usageError(["-hx"])?.message == "unknown option -hx (options are spelled --name)")
    }
}
