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
    static let global: [OptionSpec] = [.value("store", "PATH", ""), .flag("help", "")]

    func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        try CommandLineParser.parse(words, commands: Self.commands, global: Self.global)
    }

    func usageError(_ words: [String]) -> String? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error.message
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
        (["export", "--bogus"], "unknown option --bogus for rhr export"),
        (["--force"], "unknown option --force for rhr"),
        (["export", "-f", "json"], "unknown option -f (options are spelled --name)"),
        (["export", "--format"], "--format needs a value"),
        (["export", "--format="], "--format needs a value"),
        (["import", "--force=yes", "x"], "--force takes no value"),
        (["export", "--format", "csv", "--format", "json"], "--format given twice"),
        (["import", "--watch", "/a"], "unknown option --watch for rhr import"),
    ])
    func wrongWordsAreUsageErrors(words: [String], message: String) {
        #expect(usageError(words) == message)
    }
}
