import Foundation
import RHRCore
import RHRScreen
import Testing
@testable import RHRDashboard

/// R11 and R15 on screen: what each writer's number is, where its value is read (the detail pane, the legend, the
/// comparison, the derivations page), labels from the facts, late and stalled writers, and Health Connect's own
/// priority (docs/design.md section 9).
@Suite("Derivations on screen")
struct DerivationViewTests {
    /// The text of `rect` on the rendered screen.
    static func region(_ state: DashboardState, _ rect: Rect) -> [String] {
        Fixture.screen(state)[rect.y..<(rect.y + rect.height)].map { line in
            String(Array(line)[rect.x..<(rect.x + rect.width)])
        }
    }

    @Test("The detail pane: the followed writer's derivation, lateness and label in full, the others' in short")
    func detailPane() throws {
        var state = Fixture.state(size: TerminalSize(width: 120, height: 40))
        Fixture.press(&state, .character("f"))
        let rect = try #require(DashboardLayout(state).detail)
        #expect(Self.region(state, rect) == [
            " Thu 12 Mar 2026  raw samples and revisions  mo…",
            " ● Oura  latest 56                              ",
            "   written by Oura (Health Connect)             ",
            "   com.ouraring.oura                            ",
            "   lowest 10-minute night average               ",
            "   06:12 +01:00  56 count/min  Oura Ring (ring) ",
            "     automatically recorded                     ",
            "     modified 12 Mar 06:20 +01:00               ",
            " ◆ Jane’s Apple Watch  latest 58                ",
            "   HealthKit estimate                           ",
            "     as Apple documents it: window: the whole   ",
            "       day · statistic: an estimate · appears:  ",
            "       not documented by Apple · revised: may   ",
            "       be replaced while its day is today or    ",
            "       yesterday · source: Apple Developer      ",
            "       Documentation, “restingHeartRate”        ",
            "     last written 13 Mar 00:12 +01:00, for 12   ",
        ])
        Fixture.press(&state, .tab, .tab, .down, .down)
        #expect(Self.region(state, rect)[15...16] == ["       Mar; usually arrives as its day ends     ",
                                                      "       (median of 58)                           "])
    }

    /// Withings wrote its number into HealthKit: it is no HealthKit estimate (R11), and its maker documents none.
    @Test("Another HealthKit writer is written by it into HealthKit, its derivation not documented")
    func anotherHealthKitWriter() throws {
        // 10 Mar: a day Withings has a value.
        var state = Fixture.state(size: TerminalSize(width: 120, height: 60), pressing: .left, .left)
        Fixture.press(&state, .character("f"), .character("f"))
        #expect(state.bandWriterIndex == 2)
        let rect = try #require(DashboardLayout(state).detail)
        let lines = Self.region(state, rect)
        let head = try #require(lines.firstIndex { $0.hasPrefix(" ■ Withings") })
        #expect(Array(lines[head...(head + 10)]) == [
            " ■ Withings  latest 67                          ",
            "   written by Withings into HealthKit           ",
            "     Derivation not documented by Withings      ",
            "       for its watches; its scales take a spot  ",
            "       check of a few seconds standing on the   ",
            "       scale. · source: Withings blog (20 March ",
            "       2013), “Why is it important to monitor   ",
            "       your resting heart rate?”                ",
            "     last written 11 Mar 00:12 +01:00, for 10   ",
            "       Mar; usually arrives as its day ends     ",
            "       (median of 20)                           ",
        ])
        #expect(!lines.joined().contains("HealthKit estimate by"))
        // The watch, not followed now, keeps its label and says its derivation in short.
        let watch = try #require(lines.firstIndex { $0.hasPrefix(" ◆ Jane’s Apple Watch") })
        #expect(lines[watch + 1] == "   HealthKit estimate  all-day rest estimate    ")
    }

    /// A store mark (R3) makes a renamed watch Apple's estimate, as a device of model Watch does.
    @Test("The store's watch mark decides the label and the derivation of a renamed watch")
    func watchMark() throws {
        let renamed = Writer(store: .healthKit, name: "Jane’s Watch")
        var data = Fixture.standard()
        data.samples = data.samples.map { s in
            guard s.sample.writer == Fixture.watch else { return s }
            var copy = s
            copy.sample.writer = renamed
            copy.sample.device = nil
            return copy
        }
        let unmarked = DashboardIndex(data)
        let w = try #require(unmarked.writers.firstIndex(of: renamed))
        #expect(unmarked.facts[w].derivation.id == "unknown-healthkit")
        data.watchWriters = [renamed.key]
        let marked = DashboardIndex(data)
        #expect(marked.facts[w].derivation.id == "apple-watch")
        var state = Fixture.state(data, size: TerminalSize(width: 120, height: 40))
        Fixture.press(&state, .character("f"))
        let lines = Self.region(state, try #require(DashboardLayout(state).detail))
        let head = try #require(lines.firstIndex { $0.hasPrefix(" ◆ Jane’s Watch  latest 58") })
        #expect(lines[head] == " ◆ Jane’s Watch  latest 58  HealthKit estimate        ")
        #expect(lines[head + 1].hasPrefix("     as Apple documents it: window: the whole"))
    }

    @Test("The legend says what each writer's number is where it has room, after every other marker")
    func legend() {
        let state = Fixture.state(size: TerminalSize(width: 120, height: 40))
        let lines = Fixture.screen(state)
        let legend = DashboardLayout(state).chart.legend
        #expect(lines[legend.y..<legend.maxY] == [
            " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings                                              ",
            " ◇ provisional: Apple may still replace this estimate   × out of range   ● lowest 10-minute night average               ",
        ])
        // On one row, at 190 columns, what is left after the other markers takes one phrase.
        let wide = Fixture.state(size: TerminalSize(width: 190, height: 40))
        #expect(Fixture.screen(wide)[DashboardLayout(wide).chart.legend.y].hasSuffix(
            "3 ■ Withings   ◇ provisional: Apple may still replace this estimate   × out of range   ● lowest 10-minute night average         "))
        // At 80 columns there is no room left: the other markers keep theirs.
        let narrow = Fixture.screen(Fixture.state())
        #expect(narrow.contains(" ◇ provisional: Apple may still replace this estimate   × out of range          "))
    }

    @Test("The comparison: next to a pair's mean difference, each side's window and statistic")
    func comparison() {
        let state = Fixture.state(size: TerminalSize(width: 110, height: 30), pressing: .character("v"))
        let lines = Fixture.screen(state).map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(Array(lines[7...10]) == [
            "  1 ● Oura (Health Connect)  and  2 ◆ Jane’s Apple Watch (HealthKit)",
            "      mean difference −3.3 bpm  (Oura minus Jane’s Apple Watch)  spread 2.7 bpm  57 shared days",
            "      12 Jan – 12 Mar 2026",
            "      Oura reads 3.3 bpm lower on average: lowest 10-minute night average vs. all-day rest estimate",
        ])
        #expect(lines[14] == "      Oura reads 8.2 bpm lower on average: lowest 10-minute night average vs. not documented by Withings")
        #expect(Array(lines[19...20]) == [
            "      Jane’s Apple Watch reads 4.6 bpm lower on average: all-day rest estimate vs. not documented by",
            "        Withings",
        ])
        #expect(ComparisonView.readsWords("A", "B", 0.04) == "A and B read the same on average")
        #expect(ComparisonView.readsWords("A", "B", 1.26) == "A reads 1.3 bpm higher on average")
    }

    @Test("d, from the dashboard, help or the comparison, lists the whole registry; Esc, q or d closes it")
    func derivationsPage() {
        var state = Fixture.state(size: TerminalSize(width: 100, height: 30), pressing: .character("d"))
        #expect(state.overlay == .derivations)
        let lines = Fixture.screen(state)
        #expect(lines[0] == " rhr   what each writer's number is           lines 1–28 of 130 · ↑↓ PgUp PgDn · Esc, q or d closes ")
        #expect(Array(lines[8...15]) == [
            "  Apple Watch  (apple-watch)                                                                        ",
            "    in this store:  ◆ Jane’s Apple Watch                                                            ",
            "    found by: a HealthKit Apple Watch (by its name, bundle identifier, product type or device, or   ",
            "    the store’s mark)                                                                               ",
            "    window: the whole day                                                                           ",
            "    statistic: an estimate                                                                          ",
            "    appears: not documented by Apple                                                                ",
            "    revised: may be replaced while its day is today or yesterday                                    ",
        ])
        #expect(lines[29] == " Descriptive only: what each number is, not which writer is right.                                  ")
        // Every entry, and the words for writers without one, are on the page.
        var all = DerivationsView.lines(DerivationsView.Model(index: state.index, scroll: 0), width: 99,
                                        glyphs: Glyphs(unicode: true)).map { $0.spans.map(\.text).joined() }
        for d in Derivation.all { #expect(all.contains { $0.contains("(\(d.id))") }, "\(d.id)") }
        all = all.filter { $0.contains("in this store:") }
        #expect(all == ["    in this store:  ◆ Jane’s Apple Watch", "    in this store:  ● Oura", "    in this store:  ■ Withings"])
        Fixture.press(&state, .pageDown)
        #expect(state.helpScroll == 26)
        Fixture.press(&state, .character("d"))
        #expect(state.overlay == .none)
        Fixture.press(&state, .character("?"), .character("d"))
        #expect(state.overlay == .derivations && state.helpScroll == 0)
        Fixture.press(&state, .escape, .character("v"), .character("d"))
        #expect(state.overlay == .derivations)
        Fixture.press(&state, .character("q"))
        #expect(state.overlay == .none)
    }

    @Test("Health Connect's own priority for vitals is given beside the writer it ranks, never merged")
    func healthConnectPriority() throws {
        var data = Fixture.standard()
        data.streams[1].appPriority = AppPriority(packages: ["com.fitbit.FitbitMobile", "com.ouraring.oura"])
        let state = Fixture.state(data, size: TerminalSize(width: 120, height: 40))
        #expect(state.bandWriterIndex == 0)
        let lines = Self.region(state, try #require(DashboardLayout(state).detail))
        #expect(Array(lines[13...14]) == ["     second of 2 in Health Connect’s own        ",
                                          "       priority for vitals                      "])
        // The series stay apart: the columns still show Oura's own values.
        #expect(Fixture.screen(state)[37].hasPrefix("▸Thu 12 Mar 2026    56                58 p"))
    }

    /// Two writers on one phone feed; the feed's heart rate runs to 12 Mar, Withings' resting values stop on 2 Mar.
    @Test("A writer whose resting values stop while its feed still delivers heart rate is said in the header's notes")
    func writerStop() {
        var data = Fixture.standard()
        data.samples = data.samples.map { s in
            var copy = s
            if s.sample.store == .healthKit { copy.stream = "http-phone" }
            return copy
        }.filter { !($0.sample.writer == Fixture.withings && $0.day > LocalDay("2026-03-02")!) }
        data.streams[0] = StreamState(store: .healthKit, stream: "http-phone", asOf: Fixture.asOf,
                                      origin: "Health Auto Export over HTTP", revision: 3,
                                      newestRestingDay: LocalDay("2026-03-12"), newestHeartRateDay: LocalDay("2026-03-12"))
        let state = Fixture.state(data, size: TerminalSize(width: 140, height: 40))
        #expect(state.notices().last
            == "Withings, HealthKit: resting values stopped after 1 Mar; http-phone still delivers heart rate through 12 Mar.")
        #expect(Fixture.screen(state).contains { $0.hasPrefix(" · Withings, HealthKit: resting values stopped after 1 Mar;") })
        // The watch's values still come: no note for it.
        #expect(!state.notices().contains { $0.hasPrefix("Jane’s Apple Watch") })
    }
}
