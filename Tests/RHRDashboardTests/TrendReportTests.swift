// The report's content (`TrendReport`) is the dashboard's own data, and `p` asks for the window in view.
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

@Suite("The report of the trend: what the dashboard shows, as plain values for a page")
struct TrendReportTests {
    static let from = Fixture.lastDay.adding(days: -29)

    @Test("Its day values are the index's under each aggregation; each writer keeps its number and glyph",
          arguments: Aggregation.allCases)
    func valuesAreTheDashboards(aggregation: Aggregation) {
        let index = DashboardIndex(Fixture.standard())
        let report = TrendReport(index, .init(from: Self.from, to: Fixture.lastDay, view: ViewSettings(aggregation: aggregation)))
        #expect(report.series.map(\.writer) == index.writers)
        for (w, series) in report.series.enumerated() {
            let shown = index.values(writer: w, aggregation: aggregation).filter { $0.day >= Self.from }
            #expect(series.values == shown)
            #expect(series.number == index.slots[w] + 1)
            #expect(series.glyph == Glyphs(unicode: true).series(index.slots[w]))
            #expect(series.provisionalGlyph == Glyphs(unicode: true).provisional(index.slots[w]))
            #expect(series.derivation == index.facts[w].derivation)
        }
        #expect(report.period.map { [$0.from, $0.to] } == [Self.from, Fixture.lastDay])
    }

    @Test("The mean and the usual range are the chart aids' own, over the days before the period too")
    func aidsAreTheChartsOwn() throws {
        let index = DashboardIndex(Fixture.standard())
        let report = TrendReport(index, .init(from: Self.from, to: Fixture.lastDay,
                                              view: ViewSettings(showMean: true, showBand: true, bandWriter: Fixture.oura.key)))
        let oura = try #require(index.writers.firstIndex(of: Fixture.oura))
        let values = index.values(writer: oura, aggregation: .latest)
        #expect(report.series[oura].mean.map(\.bpm) == RollingMean.series(values, from: Self.from, to: Fixture.lastDay).map(\.bpm))
        let band = try #require(report.band)
        #expect(band.series == oura)
        #expect(band.days.map(\.median) == UsualRange.series(values, from: Self.from, to: Fixture.lastDay).map(\.median))
        #expect(band.days.first?.day == Self.from, "28 days before the period were read, so the band starts with it")
        #expect(report.aidNames == ["7-day mean", "usual range of Oura"])
    }

    @Test("Flags: which writer's days, and why; the provisional ones with when they were read")
    func flags() throws {
        let report = TrendReport(DashboardIndex(Fixture.standard()), .init(from: Self.from, to: Fixture.lastDay))
        let flagged = Dictionary(uniqueKeysWithValues: report.flags.map { ($0.flag, $0) })
        #expect(Set(flagged.keys) == [.provisional, .offsetAssumed, .outOfRange])
        let provisional = try #require(flagged[.provisional])
        #expect(provisional.writers.map(\.name) == ["Jane’s Apple Watch"])
        #expect(provisional.writers.first?.days == "2 days (11 Mar 2026, 12 Mar 2026)")
        #expect(provisional.meaning.hasSuffix("(read as of 12 Mar 2026 21:00 +01:00)"))
        #expect(flagged[.outOfRange]?.writers.map(\.days) == ["1 day (8 Mar 2026)"])
        #expect(flagged[.offsetAssumed]?.writers.map(\.name) == ["Oura"])
    }

    @Test("A hidden writer is left out of the chart and named; every writer hidden draws nothing and says why")
    func hiddenWriters() throws {
        let index = DashboardIndex(Fixture.standard())
        let report = TrendReport(index, .init(view: ViewSettings(hidden: [Fixture.withings.key])))
        #expect(!report.series.contains { $0.writer == Fixture.withings })
        #expect(report.leftOut == ["Withings (HealthKit)"])
        let none = TrendReport(index, .init(view: ViewSettings(hidden: Set(index.writers.map(\.key)))))
        #expect(none.period == nil && none.series.isEmpty)
        #expect(none.nothing?.title.hasPrefix("Nothing to draw: every writer with values in") == true)
    }

    @Test("The notes are worked out for the newest read: the same store gives the same report whenever it is made")
    func notesAsOfTheNewestRead() {
        var data = Fixture.standard()
        // A Health Connect feed read 40 days before the newest read holds a changes token past its life (R10).
        data.streams.append(StreamState(store: .healthConnect, stream: "bridge", cursor: "t",
                                        asOf: Timestamp.parse("2026-02-01T08:00:00+01:00")!))
        let report = TrendReport(DashboardIndex(data), .init())
        #expect(report.noteDay == Fixture.lastDay)
        #expect(report.notes.contains { $0.hasPrefix("Health Connect (bridge): last read 39 days ago") }, "\(report.notes)")
    }

    @Test("p asks for a report of the window in view: its days, aggregation, hidden writers and aids")
    func pAsksForTheWindowInView() throws {
        var state = Fixture.state(size: TerminalSize(width: 120, height: 40))
        Fixture.press(&state, .character("a"), .character("2"), .character("m"), .character("b"))
        let window = ChartWindow(state)
        let effect = Fixture.press(&state, .character("p"))
        let band = try #require(state.bandWriterIndex)
        let view = ViewSettings(aggregation: .lowest, hidden: [try #require(state.index.writer(number: 2)).key],
                                showMean: true, showBand: true, bandWriter: state.index.writers[band].key)
        #expect(effect == .writeReport(TrendReport.Request(from: window.firstDay, to: window.lastDay, view: view)))
        DashboardUpdate.update(&state, .reportWritten(paths: ["/home/j/rhr-report.pdf"], pages: 1))
        #expect(state.message == "Report written to /home/j/rhr-report.pdf (1 page, readable by you only).")
        DashboardUpdate.update(&state, .reportFailed("/home/j: Permission denied"))
        #expect(state.message == "No report written: /home/j: Permission denied")
    }

    @Test("Help lists p, and the footer names it where the row has room")
    func helpAndFooterNameIt() {
        var state = Fixture.state(size: TerminalSize(width: 200, height: 60))
        #expect(Fixture.screen(state).last?.contains(" p report ") == true)
        Fixture.press(&state, .character("?"))
        #expect(Fixture.screen(state).contains { $0.contains("p") && $0.contains("write a report (PDF) of the window in view") })
    }
}
