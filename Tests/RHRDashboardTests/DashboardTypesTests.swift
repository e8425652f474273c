import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

@Suite("Dashboard types: text fitting, chart scale, buckets and window")
struct DashboardTypesTests {
    @Test("Text fits: truncation with an ellipsis, wrapping, padding")
    func textFit() {
        #expect(TextFit.truncate("Jane’s Apple Watch", 8) == "Jane’s …")
        #expect(TextFit.truncate("Oura", 8) == "Oura")
        #expect(TextFit.truncate("🕛🕐🕑🕒", 5) == "🕛🕐…")
        #expect(TextFit.wrap("one two three four", 9) == ["one two", "three", "four"])
        #expect(TextFit.padLeft("58", 5) == "   58")
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

@Suite("Chart series: what the chart draws, computed before it draws")
struct ChartSeriesTests {
    let last = Fixture.lastDay
    let glyphs = Glyphs(unicode: true)

    /// Three days of the watch in the week of 9 Mar (one provisional), and Oura's zero on one of them.
    func index() -> DashboardIndex {
        let samples = [
            Fixture.healthKit(Fixture.watch, last.adding(days: -3), 50),
            Fixture.healthKit(Fixture.watch, last.adding(days: -2), 70),
            Fixture.healthKit(Fixture.watch, last.adding(days: -1), 61, provisional: true),
            Fixture.healthConnect(Fixture.oura, last.adding(days: -2), 0, id: "a"),
            Fixture.healthConnect(Fixture.oura, last.adding(days: -1), 55, id: "b"),
        ]
        return DashboardIndex(DashboardData(samples: samples, revision: 1, machineZone: TimeZone(secondsFromGMT: 3600)!))
    }

    func series(_ zoom: Zoom, hidden: Set<WriterKey> = []) -> (ChartSeries, ChartWindow) {
        let window = ChartWindow(zoom: zoom, width: 20, cursor: last, first: last.adding(days: -3), last: last,
                                 previousEnd: 0)
        return (ChartSeries(index(), window: window, aggregation: .latest, hidden: hidden, showContext: false,
                            changedDays: [last.adding(days: -2)], glyphs: glyphs), window)
    }

    @Test("At day zoom: a point per writer and day in its glyph and colour, a hollow one when provisional")
    func days() {
        let (series, window) = series(.day)
        let watch = index().writers.firstIndex(of: Fixture.watch)!
        let points = series.points.filter { $0.style == Style(tint: .series(watch)) }
        #expect(points.map(\.bpm) == [50, 70, 61])
        #expect(points.map(\.glyph) == [glyphs.series(watch), glyphs.series(watch), glyphs.provisional(watch)])
        #expect(points.map(\.cell) == [-3, -2, -1].map { window.pointCell(ofBucket: Zoom.day.bucket(of: last.adding(days: $0))) })
        #expect(series.provisionalWriters == [watch])
        // Oura's zero is out of range: marked on its day, never a point.
        #expect(series.outOfRangeCells == [window.pointCell(ofBucket: Zoom.day.bucket(of: last.adding(days: -2)))])
        #expect(!series.points.contains { $0.bpm == 0 })
        #expect(series.changedCells == series.outOfRangeCells)
    }

    @Test("At week zoom: one point per writer and week, the median of its days, provisional when one day is")
    func weeks() {
        let (series, _) = series(.week)
        let watch = index().writers.firstIndex(of: Fixture.watch)!
        let points = series.points.filter { $0.style == Style(tint: .series(watch)) }
        #expect(points.map(\.bpm) == [61])
        #expect(points.map(\.glyph) == [glyphs.provisional(watch)])
    }

    @Test("A hidden writer has no points and no provisional mark")
    func hidden() {
        let (series, _) = series(.day, hidden: [Fixture.watch.key])
        #expect(series.points.map(\.bpm) == [55])
        #expect(series.provisionalWriters.isEmpty)
    }
}
