import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

@Suite("Terminal types: screen buffer, widths, capabilities; chart scale and buckets")
struct TerminalTypesTests {
    @Test("Writes are clipped to the grid and to a clip rectangle")
    func clipping() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 6, height: 2), fill: "·")
        let used = buffer.write("abcdefgh", x: 2, y: 0)
        #expect(used == 8)
        buffer.write("xyz", x: -1, y: 1)
        buffer.write("12345", x: 0, y: 1, clip: Rect(x: 3, y: 1, width: 2, height: 1))
        buffer.write("never", x: 0, y: 2)
        #expect(buffer.lines == ["··abcd", "yz·45·"])
    }

    @Test("A wide glyph takes two cells; one that does not fit becomes a space; overwriting half blanks the other")
    func wideGlyphs() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 5, height: 1), fill: "·")
        #expect(buffer.write("🕛a", x: 0, y: 0) == 3)
        #expect(buffer.lines == ["🕛a··"])
        #expect(buffer[1, 0].isContinuation)
        buffer.put("b", x: 1, y: 0)
        #expect(buffer.lines == [" ba··"])
        buffer.write("🕐", x: 4, y: 0)
        #expect(buffer.lines == [" ba· "])
        #expect(DisplayWidth.of("Jane’s 🕛 Watch") == 15)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("⌚️") == 2)
    }

    @Test("Text fits: truncation with an ellipsis, wrapping, padding")
    func textFit() {
        #expect(TextFit.truncate("Jane’s Apple Watch", 8) == "Jane’s …")
        #expect(TextFit.truncate("Oura", 8) == "Oura")
        #expect(TextFit.truncate("🕛🕐🕑🕒", 5) == "🕛🕐…")
        #expect(TextFit.wrap("one two three four", 9) == ["one two", "three", "four"])
        #expect(TextFit.padLeft("58", 5) == "   58")
    }

    @Test("Capabilities: UTF-8 from the codeset; no colour under NO_COLOR, TERM=dumb or no TERM")
    func capabilities() {
        let env = ["TERM": "xterm-256color"]
        #expect(TerminalCapabilities.detect(environment: env, codeset: "UTF-8") == .init(unicode: true, color: true))
        #expect(TerminalCapabilities.detect(environment: env, codeset: "utf8").unicode)
        #expect(!TerminalCapabilities.detect(environment: env, codeset: "ANSI_X3.4-1968").unicode)
        #expect(!TerminalCapabilities.detect(environment: env.merging(["NO_COLOR": "1"]) { $1 }, codeset: "UTF-8").color)
        #expect(TerminalCapabilities.detect(environment: env.merging(["NO_COLOR": ""]) { $1 }, codeset: "UTF-8").color)
        #expect(!TerminalCapabilities.detect(environment: ["TERM": "dumb"], codeset: "UTF-8").color)
        #expect(!TerminalCapabilities.detect(environment: [:], codeset: "UTF-8").color)
    }

    @Test("The bpm axis fits the values with whole steps and labels about five rows")
    func yScale() {
        let scale = YScale.fit(min: 51, max: 68, rows: 7)
        #expect(scale.low <= 51 && scale.value(ofRow: 0) >= 68)
        #expect(scale.step == scale.step.rounded())
        #expect(scale.row(of: 68) >= 0 && scale.row(of: 51) <= 6)
        #expect(scale.row(of: 500) == 0 && scale.row(of: -5) == 6)
        let flat = YScale.fit(min: 58, max: 58, rows: 10)
        #expect(flat.step == 1 && flat.row(of: 58) > 0 && flat.row(of: 58) < 9)
        let tall = YScale.fit(min: 40, max: 80, rows: 25)
        let labels = tall.labelledRows()
        #expect(labels.count >= 4 && labels.count <= 6)
        #expect(zip(labels, labels.dropFirst()).allSatisfy { $1 - $0 >= 2 })
        #expect(labels.contains { tall.value(ofRow: $0).truncatingRemainder(dividingBy: 10) == 0 })
    }

    @Test("Buckets: weeks start on Monday, months are calendar months")
    func buckets() {
        let thursday = LocalDay("2026-03-12")!
        #expect(Zoom.week.firstDay(ofBucket: Zoom.week.bucket(of: thursday)) == LocalDay("2026-03-09")!)
        #expect(Zoom.week.lastDay(ofBucket: Zoom.week.bucket(of: thursday)) == LocalDay("2026-03-15")!)
        #expect(Zoom.week.bucket(of: LocalDay("2026-03-15")!) == Zoom.week.bucket(of: thursday))
        #expect(Zoom.week.bucket(of: LocalDay("2026-03-16")!) == Zoom.week.bucket(of: thursday) + 1)
        #expect(Zoom.week.firstDay(ofBucket: Zoom.week.bucket(of: LocalDay("1969-12-31")!)) == LocalDay("1969-12-29")!)
        let feb = Zoom.month.bucket(of: LocalDay("2024-02-29")!)
        #expect(Zoom.month.firstDay(ofBucket: feb) == LocalDay("2024-02-01")!)
        #expect(Zoom.month.lastDay(ofBucket: feb) == LocalDay("2024-02-29")!)
        #expect(Zoom.month.bucket(of: LocalDay("2024-03-01")!) == feb + 1)
    }

    @Test("The chart window keeps the cursor in view and never scrolls past the data")
    func chartWindow() {
        let first = LocalDay("2020-01-01")!, last = LocalDay("2026-03-12")!
        let w = ChartWindow(zoom: .day, width: 74, cursor: last, first: first, last: last, previousEnd: 0)
        #expect(w.end == last.daysSinceEpoch && w.buckets == 74)
        let back = ChartWindow(zoom: .day, width: 74, cursor: last.adding(days: -100), first: first, last: last,
                               previousEnd: w.end)
        #expect(back.start == last.adding(days: -100).daysSinceEpoch)
        let inside = ChartWindow(zoom: .day, width: 74, cursor: last.adding(days: -90), first: first, last: last,
                                 previousEnd: back.end)
        #expect(inside.end == back.end, "no scrolling while the cursor stays in view")
        // A short history is drawn wider: up to six cells a day.
        let short = ChartWindow(zoom: .day, width: 74, cursor: last, first: last.adding(days: -9), last: last, previousEnd: 0)
        #expect(short.cellsPerBucket == 6 && short.end == last.daysSinceEpoch)
    }
}
