import Foundation
@testable import RHRCommands
import RHRTestSupport
import Testing

/// docs/man/rhr.1 rendered with groff: free of warnings at the widths terminals have, with the sections a
/// manual page has, and listing every command `rhr --help` lists with every option of the command table under
/// its command. A command or option added to the table fails here until the page describes it.
@Suite("The man page")
struct ManPageTests {
    static let page = SourceTree.root + "/docs/man/rhr.1"
    static let table = CommandTable.rhr

    static func groff(_ arguments: [String]) throws -> SubprocessResult {
        guard let groff = Subprocess.which("groff") else { throw TestFailure("groff is not installed; scripts/setup installs it") }
        return try Subprocess.run(groff, arguments + [page], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    }

    /// The page as plain text, wide enough that no line wraps; minus signs and hyphens as `-`.
    static func rendered() throws -> String {
        let result = try groff(["-man", "-Tutf8", "-ww", "-rLL=250n", "-P-cbou"])
        guard result.status == 0 else { throw TestFailure("groff failed: \(result.stderr)") }
        return result.stdout.replacingOccurrences(of: "\u{2212}", with: "-").replacingOccurrences(of: "\u{2010}", with: "-")
    }

    /// The page's sections by heading (the lines that start at the margin), in order.
    static func sections(_ text: String) -> [(heading: String, body: [String])] {
        var sections: [(heading: String, body: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropFirst() {
            if let first = line.first, first != " " {
                sections.append((line, []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].body.append(line)
            }
        }
        return sections.filter { !$0.heading.hasPrefix("rhr ") && !$0.heading.hasPrefix("RHR(1)") }
    }

    static func section(_ heading: String, in text: String) throws -> [String] {
        try #require(sections(text).first { $0.heading == heading }, "no \(heading) section").body
    }

    /// A section's subsections (`.SS`, indented three spaces) by title.
    static func subsections(_ body: [String]) -> [(title: String, body: [String])] {
        var result: [(title: String, body: [String])] = []
        for line in body {
            if line.hasPrefix("   ") && !line.hasPrefix("    ") {
                result.append((line.trimmingCharacters(in: .whitespaces), []))
            } else if !result.isEmpty {
                result[result.count - 1].body.append(line)
            }
        }
        return result
    }

    static func collapsed(_ lines: [String]) -> String {
        lines.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: [nil, 60, 65, 72, 80, 100, 200])
    func rendersWithoutAWarning(width: Int?) throws {
        let result = try Self.groff(["-man", "-ww", "-z"] + (width.map { ["-rLL=\($0)n"] } ?? []))
        #expect(result == SubprocessResult(status: 0, stdout: "", stderr: ""), "width \(width.map(String.init) ?? "default")")
        let utf8 = try Self.groff(["-man", "-ww", "-Tutf8"] + (width.map { ["-rLL=\($0)n"] } ?? []))
        #expect(utf8.status == 0 && utf8.stderr.isEmpty, "\(utf8.stderr)")
    }

    @Test func hasTheSectionsOfAManualPage() throws {
        #expect(Self.sections(try Self.rendered()).map(\.heading)
            == ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"])
    }

    @Test func listsEveryCommandTheHelpListsWithItsUsage() throws {
        let help = try InProcessRHR().run(["--help"]).stdout
        let usage: [Substring] = help.split(separator: "\n").drop { $0 != "usage:" }.dropFirst().prefix { !$0.isEmpty }.map { $0 }
        // "  rhr import [--force] PATH..." names import; "  rhr [--socket PATH] [PATH...]" the dashboard.
        var listed: [String] = []
        for line in usage {
            let words = line.split(separator: " ").map(String.init)
            guard words.first == "rhr" else { continue }
            listed.append(words.count > 1 && !words[1].hasPrefix("[") ? "rhr " + words[1] : "rhr")
        }
        #expect(listed.count == Self.table.commands.count + 1)
        let text = try Self.rendered()
        let commands = Self.subsections(try Self.section("COMMANDS", in: text)).map(\.title)
        #expect(commands == listed)
        let synopsis = Self.collapsed(try Self.section("SYNOPSIS", in: text))
        for command in Self.table.everyCommand {
            #expect(synopsis.contains(command.usage), "SYNOPSIS lacks \(command.usage)")
        }
    }

    @Test func describesEveryOptionUnderItsCommand() throws {
        let text = try Self.rendered()
        let described = Self.subsections(try Self.section("COMMANDS", in: text))
        for command in Self.table.everyCommand {
            let body = Self.collapsed(try #require(described.first { $0.title == command.prefix }, "\(command.prefix)").body)
            for option in command.options {
                #expect(body.contains(option.spelled), "\(command.prefix): \(option.spelled)")
            }
        }
        let options = Self.collapsed(try Self.section("OPTIONS", in: text))
        for option in Self.table.globalOptions {
            #expect(options.contains(option.spelled), "\(option.spelled)")
            if let short = option.short { #expect(options.contains("-\(short), --\(option.name)"), "-\(short)") }
        }
    }

    @Test func namesTheFilesTheEnvironmentAndTheExitStatus() throws {
        let text = try Self.rendered()
        let files = Self.collapsed(try Self.section("FILES", in: text))
        for file in ["$XDG_DATA_HOME/rhr/rhr.sqlite", "$XDG_RUNTIME_DIR/rhr/rhr.sock", "$XDG_STATE_HOME/rhr/", "$XDG_CONFIG_HOME/rhr/"] {
            #expect(files.contains(file), "\(file)")
        }
        let environment = Self.collapsed(try Self.section("ENVIRONMENT", in: text))
        for variable in ["NO_COLOR", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "TZ", "RHR_SAMPLES"] {
            #expect(environment.contains(variable), "\(variable)")
        }
        let statuses = try Self.section("EXIT STATUS", in: text).compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Array(statuses.prefix(3)) == ["0", "1", "2"], "\(statuses)")
        #expect(Self.collapsed(try Self.section("EXAMPLES", in: text)).contains("rhr import"))
    }
}
