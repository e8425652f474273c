// Golden screens of issue 34's terminals at 80×24 and 200×60: an unknown TERM, NO_COLOR with five writers, ASCII,
// the Linux console, t then G, and the empty state a missing permission leaves.
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// Each screen is compared, line for line, with its file in `Golden/` (`RHR_UPDATE_GOLDEN=1 swift test --filter
/// GoldenScreensTests` writes them again, to be read and committed). What each must show is asserted besides, so a
/// golden file cannot agree with a wrong screen.
@Suite("Golden screens: every terminal draws a true, readable trend")
struct GoldenScreensTests {
    static let sizes = [TerminalSize(width: 80, height: 24), TerminalSize(width: 200, height: 60)]

    /// The capabilities the terminal would give: `environment` and `codeset` as rhr would see them.
    static func capabilities(_ environment: [String: String], codeset: String = "UTF-8",
                             glyphs: TerminalCapabilities.GlyphChoice? = nil) -> TerminalCapabilities {
        TerminalCapabilities.detect(environment: environment, codeset: codeset, glyphs: glyphs)
    }

    static func state(_ data: DashboardData, _ size: TerminalSize, today: LocalDay = Fixture.lastDay,
                      _ capabilities: TerminalCapabilities) -> DashboardState {
        DashboardState(data: data, size: size, today: today, capabilities: capabilities)
    }

    /// Compares `lines` with `Golden/NAME-WxH.txt`; writes the file instead when asked to.
    static func expectGolden(_ lines: [String], _ name: String, _ size: TerminalSize,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/\(name)-\(size.width)x\(size.height).txt").path
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["RHR_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        let expected = golden.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == expected.count, "\(name) \(size): \(lines.count) lines", sourceLocation: sourceLocation)
        for (y, (line, want)) in zip(lines, expected).enumerated() where line != want {
            Issue.record("\(name) \(size) row \(y):\n got: \(line)\nwant: \(want)", sourceLocation: sourceLocation)
        }
    }

    /// The plot's rows (between the title and the axis), where the writers' glyphs stand.
    static func plotText(_ state: DashboardState) -> String {
        let plot = DashboardLayout(state).chart.plot
        return Fixture.screen(state)[plot.y..<plot.maxY].joined(separator: "\n")
    }

    @Test("TERM unknown: drawn as its stand-in, the dashboard itself, in colour", arguments: sizes)
    func unknownTerminal(size: TerminalSize) throws {
        let capabilities = Self.capabilities(["TERM": "xterm-kitty"])
        #expect(capabilities == .full)
        let state = Self.state(Fixture.standard(), size, capabilities)
        try Self.expectGolden(Fixture.screen(state), "term-unknown", size)
    }

    @Test("NO_COLOR with five writers: each writer's glyph on its line at least twice", arguments: sizes)
    func noColorFiveWriters(size: TerminalSize) throws {
        let capabilities = Self.capabilities(["TERM": "xterm-256color", "NO_COLOR": "1"])
        #expect(!capabilities.color && capabilities.unicode)
        let state = Self.state(LayoutFixture.data(), size, capabilities)
        let plot = Self.plotText(state)
        for slot in 0..<5 {
            let glyph = Glyphs(unicode: true).series(slot)
            #expect(plot.filter { $0 == glyph }.count >= 2, "writer \(slot + 1)'s \(glyph) at \(size)")
        }
        try Self.expectGolden(Fixture.screen(state), "no-color-five-writers", size)
    }

    @Test("ASCII (a locale that is not UTF-8): every glyph ASCII, each writer its number, no ?", arguments: sizes)
    func ascii(size: TerminalSize) throws {
        let state = Self.state(Fixture.standard(), size, Self.capabilities(["TERM": "xterm-256color"], codeset: "ANSI_X3.4-1968"))
        let lines = Fixture.screen(state)
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        let plot = Self.plotText(state)
        #expect(!plot.contains("?") && plot.contains("1") && plot.contains("2") && plot.contains("3"))
        try Self.expectGolden(lines, "ascii", size)
    }

    @Test("TERM=linux (the console: no braille in its font): an ASCII chart, in colour", arguments: sizes)
    func linuxConsole(size: TerminalSize) throws {
        let capabilities = Self.capabilities(["TERM": "linux"])
        #expect(capabilities.color && !capabilities.unicode && !capabilities.braille)
        let state = Self.state(Fixture.standard(), size, capabilities)
        let lines = Fixture.screen(state)
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        try Self.expectGolden(lines, "term-linux", size)
    }

    @Test("t then G: the last day with data at the right edge of the plot, no empty days after it", arguments: sizes)
    func todayThenLast(size: TerminalSize) throws {
        var state = Self.state(Fixture.standard(days: 14), size, today: Fixture.lastDay.adding(days: 259), .full)
        Fixture.press(&state, .character("t"), .character("G"))
        let window = ChartWindow(state)
        #expect(window.end == Fixture.lastDay.daysSinceEpoch)
        #expect(ChartLayout.plotWidth(state.size) - window.usedWidth < window.cellsPerBucket)
        try Self.expectGolden(Fixture.screen(state), "today-then-last", size)
    }

    @Test("The empty state a missing READ_RESTING_HEART_RATE leaves names the permission as the likely cause", arguments: sizes)
    func permissionHidden(size: TerminalSize) throws {
        let state = Self.state(Fixture.permissionHidden(), size, .full)
        let lines = Fixture.screen(state)
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("The likely cause: Health Connect (pixel) did not have READ_RESTING_HEART_RATE"))
        try Self.expectGolden(lines, "permission-hidden", size)
    }
}
