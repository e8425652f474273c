import Foundation
import RHRCore
@testable import RHRDashboard
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

    @Test("The bpm axis fits the values in view, with a little air, and labels round values two rows apart")
    func yScale() {
        // 53–62 over 7 rows: no 45–65 any more.
        let scale = YScale.fit(min: 53, max: 62, rows: 7)
        #expect(scale.low == 52.5 && scale.high == 62.5)
        #expect(scale.row(of: 62) == 0 && scale.row(of: 53) == 6)
        #expect(scale.row(of: 500) == 0 && scale.row(of: -5) == 6)
        let labels = scale.labelledRows()
        #expect(labels.map(\.value) == [60, 55])
        #expect(labels.allSatisfy { $0.value.truncatingRemainder(dividingBy: 5) == 0 })
        // Four dot rows a row: a quarter of a row's worth of bpm is told apart.
        #expect(scale.dot(of: 62) == 1 && scale.dot(of: 54) == 23 && scale.dot(of: 53) == 26)
        // A flat series gets a few bpm of height, centred.
        let flat = YScale.fit(min: 58, max: 58, rows: 10)
        #expect(flat.low == 55.5 && flat.high == 60.5 && flat.row(of: 58) == 5)
        let tall = YScale.fit(min: 40, max: 80, rows: 25)
        let rows = tall.labelledRows().map(\.row)
        // Every 5 bpm, at least two rows apart.
        #expect(rows == [1, 3, 6, 9, 12, 15, 18, 21, 23])
        #expect(tall.labelledRows().map(\.value) == [80, 75, 70, 65, 60, 55, 50, 45, 40])
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

    /// A window on ten years of days, the cursor where asked, today the last day.
    func window(width: Int = 74, cursor: LocalDay, first: LocalDay = LocalDay("2016-03-12")!,
                last: LocalDay = LocalDay("2026-03-12")!, zoom: Zoom = .day, previous: Int? = nil) -> ChartWindow {
        ChartWindow(zoom: zoom, width: width, cursor: cursor, dataFirst: first, dataLast: last, firstNavigable: first,
                    lastNavigable: last, previousStart: previous)
    }

    @Test("The chart window keeps the cursor in view, scrolls only when it leaves, never past the ends")
    func chartWindow() {
        let last = LocalDay("2026-03-12")!
        let w = window(cursor: last)
        #expect(w.end == last.daysSinceEpoch && w.buckets == 74 && w.cellsPerBucket == 1)
        let back = window(cursor: last.adding(days: -100), previous: w.start)
        #expect(back.start == last.adding(days: -100).daysSinceEpoch)
        let inside = window(cursor: last.adding(days: -90), previous: back.start)
        #expect(inside.start == back.start, "no scrolling while the cursor stays in view")
        let early = window(cursor: LocalDay("2016-03-14")!, previous: back.start)
        #expect(early.start == LocalDay("2016-03-14")!.daysSinceEpoch, "scrolled just enough")
        let first = window(cursor: LocalDay("2016-03-14")!, previous: nil)
        #expect(first.start == LocalDay("2016-03-12")!.daysSinceEpoch, "never a day before the first that can be reached")
        // Sixty days in 74 columns: 60 buckets, the rest of the plot blank (no day the cursor cannot reach).
        let short = window(cursor: last, first: last.adding(days: -59))
        #expect(short.buckets == 60 && short.cellsPerBucket == 1 && short.usedWidth == 60)
    }

    @Test("The scale is fixed per zoom and width: moving the cursor anywhere never changes it")
    func fixedScale() {
        let last = LocalDay("2026-03-12")!, first = last.adding(days: -9)
        var previous: Int?
        var cells: Set<Int> = []
        // Ten days of data, today 20 days later: the cursor walks past the last day to today.
        for offset in 0...29 {
            let w = ChartWindow(zoom: .day, width: 74, cursor: first.adding(days: offset), dataFirst: first, dataLast: last,
                                firstNavigable: first, lastNavigable: last.adding(days: 20), previousStart: previous)
            cells.insert(w.cellsPerBucket)
            #expect(w.contains(bucket: first.adding(days: offset).daysSinceEpoch))
            #expect(w.start >= first.daysSinceEpoch)
            previous = w.start
        }
        #expect(cells == [7], "a short history is drawn wider, at one scale: \(cells)")
        #expect(window(cursor: last, first: first).scaleWords == "7 columns a day")
        #expect(window(cursor: last, zoom: .week).scaleWords == "1 column a week")
    }

    @Test("A sample on 0001-01-01 at month zoom; month ticks and steps stay real dates")
    func yearOne() {
        let first = LocalDay(year: 1, month: 1, day: 1)!, last = LocalDay("2026-03-12")!
        let w = window(width: 74, cursor: first, first: first, last: last, zoom: .month)
        #expect(w.firstDay == first)
        let ticks = ChartView.ticks(w)
        #expect(ticks.first?.label == "1")
        #expect(ticks.allSatisfy { !$0.label.hasPrefix("-") })
        // Before year 1 (a window reaching back, or a step from January of year 0): floor division.
        let before = ChartWindow(zoom: .month, width: 74, cursor: first, dataFirst: first.adding(days: -800),
                                 dataLast: last, firstNavigable: first.adding(days: -800), lastNavigable: last,
                                 previousStart: nil)
        #expect(!ChartView.ticks(before).isEmpty)
    }
}

@Suite("Chart series: what the chart draws, computed before it draws")
struct ChartSeriesTests {
    let last = Fixture.lastDay

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

    func series(_ zoom: Zoom, hidden: Set<WriterKey> = [], whiskers: Bool = false) -> ChartSeries {
        let window = ChartWindow(zoom: zoom, width: 20, cursor: last, dataFirst: last.adding(days: -3), dataLast: last,
                                 firstNavigable: last.adding(days: -3), lastNavigable: last, previousStart: nil)
        return ChartSeries(index(), window: window,
                           options: .init(hidden: hidden, changedDays: [last.adding(days: -2)], showWhiskers: whiskers))
    }

    var watch: Int { index().writers.firstIndex(of: Fixture.watch)! }

    @Test("At day zoom: a point per writer and day, provisional marked; out of range marked, never a point")
    func days() {
        let series = series(.day)
        let line = series.lines.first { $0.writer == watch }!
        #expect(line.points.map(\.bpm) == [50, 70, 61])
        #expect(line.points.map(\.provisional) == [false, false, true])
        #expect(line.points.map(\.bucket) == [-3, -2, -1].map { last.adding(days: $0).daysSinceEpoch })
        #expect(series.provisionalWriters == [watch])
        #expect(series.outOfRangeBuckets == [last.adding(days: -2).daysSinceEpoch])
        #expect(!series.lines.flatMap(\.points).contains { $0.bpm == 0 })
        #expect(series.changedBuckets == series.outOfRangeBuckets)
        // The axis fits what is drawn: 50 to 70, not Oura's zero.
        #expect(series.range?.min == 50 && series.range?.max == 70)
    }

    @Test("At week zoom: one point per writer and week, the median of its days, with its lowest and highest day")
    func weeks() {
        let line = series(.week).lines.first { $0.writer == watch }!
        #expect(line.points.map(\.bpm) == [61])
        #expect(line.points.map(\.low) == [50] && line.points.map(\.high) == [70])
        #expect(line.points.map(\.provisional) == [true])
        // The whiskers widen the range only when they are drawn.
        #expect(series(.week).range.map { [$0.min, $0.max] } == [55, 61])
        #expect(series(.week, whiskers: true).range.map { [$0.min, $0.max] } == [50, 70])
    }

    @Test("A hidden writer has no line and no provisional mark")
    func hidden() {
        let series = series(.day, hidden: [Fixture.watch.key])
        #expect(series.lines.map(\.writer) == [index().writers.firstIndex(of: Fixture.oura)!])
        #expect(series.lines.flatMap(\.points).map(\.bpm) == [55])
        #expect(series.provisionalWriters.isEmpty)
    }
}
