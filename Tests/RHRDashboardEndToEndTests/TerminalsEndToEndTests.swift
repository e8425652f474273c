// Issue 34's terminals, with the real rhr in tmux at 80×24 and 200×60: an unknown TERM, NO_COLOR with five
// writers, ASCII, the Linux console, t then G, and the empty state a missing permission leaves.
import Foundation
import RHRTestSupport
import Testing

@Suite("End to end: every terminal draws a true, readable trend", .serialized)
struct TerminalsEndToEndTests {
    static let sizes = [(80, 24), (200, 60)]

    /// rhr on a store `fill` makes, in a `width`×`height` tmux, with `environment` over the defaults (UTF-8, TERM
    /// xterm-256color); once `ready` is on the screen.
    static func run(_ width: Int, _ height: Int, environment: String = "", ready: String = DashboardEndToEndTests.chart,
                    fill: (String) throws -> Void = StoreFixture.resting) throws -> Tmux {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        try fill(dir.storePath)
        let tmux = try Tmux(width: width, height: height, directory: dir,
                            command: try Binary.dashboard("--store '\(dir.storePath)'", settings: dir, environment: environment))
        try tmux.waitFor(ready)
        return tmux
    }

    /// The chart's plot as drawn: the rows between its title and its axis.
    static func plot(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let title = lines.firstIndex(where: { $0.contains(DashboardEndToEndTests.chart) }),
              let axis = lines.indices.first(where: { $0 > title && (lines[$0].contains("└") || lines[$0].contains("+-")) })
        else { return "" }
        return lines[(title + 1)..<axis].joined(separator: "\n")
    }

    @Test("TERM unknown to terminfo: the dashboard is drawn, and stderr names the entry used and how to install its own",
          arguments: sizes)
    func unknownTerminal(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, environment: "TERM=rhr-unknown-terminal")
        defer { tmux.kill() }
        // The whole frame, braille lines and all (a capture can catch one half drawn).
        try tmux.waitUntil("braille lines") { Self.plot($0).unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) } }
        try tmux.send("q")
        let after = try tmux.waitFor("rhr exited 0", history: true)
        let words = after.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "")
        #expect(words.contains("terminfo has no entry for TERM=rhr-unknown-terminal: the dashboard is drawn as xterm-256color"), "\(after)")
        #expect(words.contains("tic -x rhr-unknown-terminal.terminfo"), "\(after)")
    }

    @Test("NO_COLOR with five writers: no colour, and each writer's glyph on the chart at least twice", arguments: sizes)
    func noColorFiveWriters(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, environment: "NO_COLOR=1", ready: "5 ▼", fill: StoreFixture.fiveWriters)
        defer { tmux.kill() }
        try tmux.waitUntil("each writer's glyph twice on the chart") { screen in
            let plot = Self.plot(screen)
            return "●◆■▲▼".allSatisfy { glyph in plot.filter { $0 == glyph }.count >= 2 } && screen.contains("▸Thu 12 Mar 2026")
        }
        #expect(TerminalModesEndToEndTests.colours(tmux).isEmpty)
    }

    @Test("ASCII (LANG=C): every character ASCII, each writer its number, never ?", arguments: sizes)
    func ascii(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, environment: "LANG=C", ready: ">Thu 12 Mar 2026")
        defer { tmux.kill() }
        let screen = try tmux.waitUntil("both writers' numbers on the chart") { Self.plot($0).contains("1") && Self.plot($0).contains("2") }
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(!Self.plot(screen).contains("?"), "\(Self.plot(screen))")
    }

    @Test("TERM=linux (the console's font has no braille): an ASCII chart, in colour", arguments: sizes)
    func linuxConsole(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, environment: "TERM=linux NO_COLOR=", ready: ">Thu 12 Mar 2026")
        defer { tmux.kill() }
        let screen = try tmux.waitUntil("both writers' numbers on the chart") { Self.plot($0).contains("1") && Self.plot($0).contains("2") }
        #expect(!screen.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "no braille")
        #expect(!TerminalModesEndToEndTests.colours(tmux).isEmpty, "the colour stays")
    }

    @Test("t then G: the last day with data at the right edge, not at the left of empty days", arguments: sizes)
    func todayThenLast(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, ready: "▸Thu 12 Mar 2026")
        defer { tmux.kill() }
        try tmux.send("t")
        try tmux.waitFor("No resting values from")
        try tmux.send("G")
        let screen = try tmux.waitFor("▸Thu 12 Mar 2026")
        let lines = screen.split(separator: "\n").map(String.init)
        let axis = try #require(lines.firstIndex { $0.contains("└") })
        // The axis ends where the last day with data is labelled: no empty days drawn after it.
        let ruleEnd = Array(lines[axis]).lastIndex { "─┬×".contains($0) } ?? 0
        let label = lines[axis + 1]
        let labelEnd = label.distance(from: label.startIndex, to: try #require(label.range(of: "12 Mar", options: .backwards)).upperBound)
        #expect(abs(ruleEnd - labelEnd) <= 4, "the axis runs to column \(ruleEnd), the last label ends at \(labelEnd)")
        #expect(label.trimmingCharacters(in: .whitespaces).hasSuffix("12 Mar"), "\(label)")
        #expect(!screen.contains("No resting values"))
    }

    @Test("A feed without READ_RESTING_HEART_RATE: the empty state names the permission as the likely cause", arguments: sizes)
    func permissionHidden(width: Int, height: Int) throws {
        let tmux = try Self.run(width, height, ready: "No resting heart rate to show.", fill: StoreFixture.permissionHidden)
        defer { tmux.kill() }
        let screen = try tmux.waitUntil("the likely cause") { $0.contains("READ_RESTING_HEART_RATE") }
        let words = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(words.contains("The likely cause: Health Connect (pixel) did not have READ_RESTING_HEART_RATE"), "\(screen)")
        #expect(!words.contains("none here did"))
    }
}
