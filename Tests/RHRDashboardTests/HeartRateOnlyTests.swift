import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

/// A watch owner's export with thousands of heart-rate samples and no resting values: the screen says
/// why an export can lack them without contradicting itself, and `c` draws the sedentary minimum, labelled as
/// context, as the chart it can draw.
@Suite("Render: heart rate without resting values, for a watch owner")
struct HeartRateOnlyTests {
    static let export = StreamState(store: .healthKit, stream: "apple-health-export",
                                    asOf: Timestamp.parse("2026-03-12T21:00:00+01:00")!, origin: "Apple Health export")

    /// 14,525 heart-rate samples from the watch over 30 days to 12 Mar, most of them sedentary, none resting.
    static func watchOwner() -> DashboardData {
        var days: [HeartRateDaySummary] = []
        var total = 0
        for i in 0..<30 {
            var summary = HeartRateDaySummary(writer: Fixture.watch, day: Fixture.lastDay.adding(days: i - 29))
            let count = i == 29 ? 14_525 - total : 484
            let lowest = Fixture.wave(i, base: 56, amplitude: 3, period: 10)
            for k in 0..<count {
                summary.add(bpm: lowest + Double(k % 25), context: k % 4 == 3 ? .active : .sedentary)
            }
            total += count
            days.append(summary)
        }
        let contents = [StoreContents(store: .healthKit, heartRateSamples: total, heartRateWriters: [Fixture.watch]),
                        StoreContents(store: .healthConnect)]
        return DashboardData(heartRateDays: days, contents: contents, streams: [Self.export],
                             source: "/tmp/rhr-test/rhr.sqlite", machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!)
    }

    @Test("The words say why an export can lack resting values, never that no app writes them, and offer c")
    func words() {
        let lines = Fixture.screen(Fixture.state(Self.watchOwner(), size: TerminalSize(width: 100, height: 30)))
        #expect(lines == [
            " rhr                                                                                                ",
            " HealthKit as of 12 Mar 21:00 +01:00                                                                ",
            "                                                                                                    ",
            "  No resting heart rate to show.                                                                    ",
            "                                                                                                    ",
            "  HealthKit holds 14,525 heart-rate samples from Jane’s Apple Watch and no resting heart rate.      ",
            "  HealthKit's own resting heart rate is an estimate only an Apple Watch writes, from its heart-rate ",
            "  readings; nothing makes one later from heart-rate samples, rhr included.                          ",
            "                                                                                                    ",
            "  c charts the sedentary minimum instead: each day's lowest heart rate marked sedentary. It is      ",
            "  context, not resting heart rate.                                                                  ",
            "                                                                                                    ",
            "  An export can hold heart rate without resting values when:                                        ",
            "  · it was trimmed or resampled: cut down to some kinds of record, or rewritten with fewer          ",
            "    samples;                                                                                        ",
            "  · another app or a shortcut made it, with only the kinds of record it was set to;                 ",
            "  · the watch had too few readings taken while you were still (not worn at rest): Apple says it     ",
            "    works out a daily resting rate when enough background readings are available;                   ",
            "  · the watch does not record one: Apple lists resting rates for Series 1 or later, and HealthKit   ",
            "    has had them since iOS 11 and watchOS 4.                                                        ",
            "                                                                                                    ",
            "  Import an export that has resting values, or connect a bridge that reads them.                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            "                                                                                                    ",
            " c context  r reload  ? help  q quit                                                                ",
        ])
        let text = lines.joined(separator: " ")
        #expect(!text.contains("no app writes"))
        #expect(!text.contains("Resting heart rate, bpm"))
    }

    @Test("At 80×24 what c draws is said before the reasons, so the short screen still offers it")
    func wordsAt80() {
        let lines = Fixture.screen(Fixture.state(Self.watchOwner()))
        #expect(lines[10] == "  c charts the sedentary minimum instead: each day's lowest heart rate marked   ")
        #expect(lines[11] == "  sedentary. It is context, not resting heart rate.                             ")
        #expect(lines[23] == " c context  r reload  ? help  q quit                                            ")
    }

    @Test("c draws the sedentary minimum on that screen, labelled as context; c again brings the words back")
    func sedentaryChart() {
        var state = Fixture.state(Self.watchOwner(), pressing: .character("c"))
        let buffer = Fixture.render(state)
        #expect(buffer.lines == [
            " rhr                                                                            ",
            " HealthKit as of 12 Mar 21:00 +01:00                                            ",
            " Sedentary minimum, bpm  context, not resting  2 columns a day    ▸ 12 Mar 2026 ",
            "    │    ·                   ·                   ·                              ",
            " 60 ┤                                                                           ",
            "    │        ·                   ·                   ·                          ",
            " 58 ┤  ·   ·               ·   ·               ·   ·                            ",
            "    │                                                                           ",
            " 56 ┤                                                                           ",
            "    │              ·   ·               ·   ·               ·   ·                ",
            " 54 ┤·         · ·       ·         · ·       ·         · ·                      ",
            "    │                                                                           ",
            " 52 ┤                ·                   ·                   ·                  ",
            "    └────────┬─────────────┬─────────────┬─────────────┬─────────               ",
            "             15 Feb        22 Feb        1 Mar              12 Mar              ",
            " · sedentary minimum (Jane’s Apple Watch): context, not resting                 ",
            " Thu 12 Mar 2026  raw samples and revisions                                     ",
            " No resting value on Thu 12 Mar 2026.                                           ",
            "                                                                                ",
            " Heart rate that day (context, not resting)                                     ",
            "   HealthKit · Jane’s Apple Watch: sedentary lowest 55, median 67 bpm of 367    ",
            "     sedentary; 489 samples (367 sedentary, 122 active, 0 not set)              ",
            "                                                                                ",
            " ←→ day  +- zoom  c context  Tab focus  / date  r reload  ? help  q quit        ",
        ])
        // The chart's title focused, its label muted; the dots in the context colour (reversed in the cursor's
        // column), as the legend draws its dot.
        let extra: [Character: Style] = ["C": Style(tint: .context, .reverse)]
        #expect(StyleMap.row(buffer, 2, extra: extra)
                == "tttttttttttttttttttttttmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm    bbbbbbbbbbbbbb")
        #expect(StyleMap.row(buffer, 9, extra: extra)
                == "    m              c   c               c   c               c   C                ")
        #expect(StyleMap.row(buffer, 15, extra: extra).hasPrefix(" c "))
        // The cursor moves along the days; G goes to the last day with a value, not past it.
        Fixture.press(&state, .left, .left)
        #expect(state.cursor == Fixture.lastDay.adding(days: -2))
        #expect(Fixture.screen(state)[17] == " No resting value on Tue 10 Mar 2026.                                           ")
        Fixture.press(&state, .character("t"), .character("G"))
        #expect(state.cursor == Fixture.lastDay)
        Fixture.press(&state, .character("c"))
        #expect(Fixture.screen(state)[3] == "  No resting heart rate to show." + String(repeating: " ", count: 48))
    }

    @Test("A click on a day of the sedentary chart moves the cursor there")
    func sedentaryChartClick() {
        var state = Fixture.state(Self.watchOwner(), pressing: .character("c"))
        // Two columns a day from the plot's left edge (x = 5): the day 28 days before the last is at x = 9.
        DashboardUpdate.update(&state, .mouse(MouseEvent(.press, x: 9, y: 6)))
        #expect(state.cursor == Fixture.lastDay.adding(days: -27))
    }

    @Test("Heart rate from writers that are no Apple Watch: the words say none is one, with nothing to chart")
    func noWatch() {
        let polar = Writer(store: .healthKit, name: "Polar H10")
        var summary = HeartRateDaySummary(writer: polar, day: Fixture.lastDay)
        for v in 0..<12 { summary.add(bpm: Double(60 + v), context: .notSet) }
        let data = DashboardData(heartRateDays: [summary],
                                 contents: [StoreContents(store: .healthKit, heartRateSamples: 12, heartRateWriters: [polar]),
                                            StoreContents(store: .healthConnect)],
                                 streams: [Self.export], source: "/tmp/rhr-test/rhr.sqlite")
        var state = Fixture.state(data, size: TerminalSize(width: 100, height: 30))
        let text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("  None of these heart-rate samples is marked sedentary, so there is no sedentary minimum to chart"))
        #expect(text.contains("  · no Apple Watch wrote to it: none of these writers is one."))
        #expect(!text.contains("Apple lists resting rates"))
        #expect(Fixture.screen(state).last == " r reload  ? help  q quit" + String(repeating: " ", count: 75))
        Fixture.press(&state, .character("c"))
        #expect(Fixture.screen(state)[28] == " No sedentary heart-rate samples to show: no HealthKit heart rate with a motion context."
                + String(repeating: " ", count: 12))
    }
}
