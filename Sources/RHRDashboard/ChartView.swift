import RHRCore
import RHRScreen

/// The trend: one series per visible writer with its own glyph and colour, days on x, bpm on y, gaps left
/// as gaps, provisional values hollow, out-of-range days marked on the axis, the cursor day highlighted, and
/// optionally the sedentary minimum as a separately labelled context series (R8).
enum ChartView {
    struct Point {
        var cell: Int
        var bpm: Double
        var glyph: Character
        var style: Style
    }

    /// What is in view, gathered once per frame.
    struct Contents {
        var points: [Point] = []
        var outOfRangeCells: Set<Int> = []
        /// Glyph indexes of writers with a provisional value in view.
        var provisionalWriters: [Int] = []
        var hasContext = false
        /// Columns holding a day a live update just changed.
        var changedCells: Set<Int> = []
    }

    static func gather(_ ctx: RenderContext, _ window: ChartWindow) -> Contents {
        var contents = Contents()
        let index = ctx.index
        let state = ctx.state
        let from = window.firstDay, to = window.lastDay
        for day in state.changedDays where day >= from && day <= to {
            contents.changedCells.insert(window.pointCell(ofBucket: state.zoom.bucket(of: day)))
        }
        if state.showContext {
            for c in index.contextWriters.indices {
                let list = index.sedentaryMinima(contextWriter: c)
                var i = index.firstSedentaryIndex(contextWriter: c, onOrAfter: from)
                var values: [Double] = []
                var bucket = Int.min
                func flush() {
                    guard !values.isEmpty else { return }
                    contents.points.append(Point(cell: window.pointCell(ofBucket: bucket), bpm: median(&values),
                                                 glyph: ctx.glyphs.context, style: .context))
                    contents.hasContext = true
                    values.removeAll(keepingCapacity: true)
                }
                while i < list.count && list[i].day <= to {
                    let b = state.zoom.bucket(of: list[i].day)
                    if b != bucket { flush(); bucket = b }
                    values.append(list[i].bpm)
                    i += 1
                }
                flush()
            }
        }
        // Later writers first, so writer 1 ends up on top where points meet.
        for w in index.writers.indices.reversed() where state.isVisible(index.writers[w]) {
            let list = index.values(writer: w, aggregation: state.aggregation)
            var i = index.firstIndex(writer: w, onOrAfter: from, aggregation: state.aggregation)
            var sawProvisional = false
            // One point per column: the day's value, or at week and month zoom the median of the column's
            // daily values (provisional when one of them is).
            var bucketValues: [Double] = []
            var bucketProvisional = false
            var bucket = Int.min
            func flush() {
                guard !bucketValues.isEmpty else { return }
                let glyph = bucketProvisional ? ctx.glyphs.provisional(w) : ctx.glyphs.series(w)
                contents.points.append(Point(cell: window.pointCell(ofBucket: bucket), bpm: median(&bucketValues),
                                             glyph: glyph, style: ctx.seriesStyle(w)))
                sawProvisional = sawProvisional || bucketProvisional
                bucketValues.removeAll(keepingCapacity: true)
                bucketProvisional = false
            }
            while i < list.count && list[i].day <= to {
                let value = list[i]
                let b = state.zoom.bucket(of: value.day)
                if b != bucket { flush(); bucket = b }
                if value.outOfRange > 0 { contents.outOfRangeCells.insert(window.pointCell(ofBucket: b)) }
                if let bpm = value.bpm {
                    bucketValues.append(bpm)
                    bucketProvisional = bucketProvisional || value.provisional
                }
                i += 1
            }
            flush()
            if sawProvisional { contents.provisionalWriters.insert(w, at: 0) }
        }
        return contents
    }

    /// The median; the mean of the middle two for an even count.
    static func median(_ values: inout [Double]) -> Double {
        if values.count == 1 { return values[0] }
        values.sort()
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }

    static func draw(_ ctx: RenderContext, in buffer: inout ScreenBuffer) {
        let layout = ctx.layout
        let window = ctx.window
        let contents = gather(ctx, window)
        drawTitle(ctx, window, in: &buffer)

        let plot = layout.plot
        buffer.fill(plot)
        buffer.fill(layout.plotMargin)
        buffer.fill(layout.yAxis)
        let cursorCell = window.pointCell(ofBucket: ctx.state.zoom.bucket(of: ctx.state.cursor))

        if contents.points.isEmpty {
            drawNothingInView(ctx, window, in: &buffer)
        } else {
            let values = contents.points.map(\.bpm)
            let scale = YScale.fit(min: values.min()!, max: values.max()!, rows: plot.height)
            drawYAxis(ctx, scale, in: &buffer)
            if cursorCell >= 0 && cursorCell < plot.width {
                for row in 0..<plot.height {
                    buffer.put(ctx.glyphs.cursorColumn, x: plot.x + cursorCell, y: plot.y + row, style: .muted, clip: plot)
                }
            }
            for point in contents.points where point.cell >= 0 && point.cell < plot.width {
                var style = point.cell == cursorCell ? point.style.with(.bold) : point.style
                if contents.changedCells.contains(point.cell) { style = style.with(.underline) }
                buffer.put(point.glyph, x: plot.x + point.cell, y: plot.y + scale.row(of: point.bpm), style: style, clip: plot)
            }
        }
        drawXAxis(ctx, window, contents, cursorCell: cursorCell, in: &buffer)
        drawLegend(ctx, contents, in: &buffer)
    }

    static func drawTitle(_ ctx: RenderContext, _ window: ChartWindow, in buffer: inout ScreenBuffer) {
        let focused = ctx.state.focus == .chart
        let zoomWords: String
        switch ctx.state.zoom {
        case .day: zoomWords = "one column per day"
        case .week: zoomWords = "weekly median of daily values"
        case .month: zoomWords = "monthly median of daily values"
        }
        let left = [Span(" Resting heart rate, bpm", focused ? .title : .bold), Span("  \(zoomWords)", .muted)]
        let cursor = ctx.state.cursor
        var right = [Span("\(ctx.glyphs.cursorRow) \(DayText.long(cursor)) ", .bold)]
        var room = ctx.layout.chartTitle.width - StyledLine(left).width - StyledLine(right).width - 2
        if ctx.state.changedDays.contains(cursor) && room >= 16 {
            right.insert(Span("\(ctx.glyphs.changed) just changed  ", .title), at: 0)
            room -= 16
        }
        if cursor == ctx.state.today && room >= 6 { right.insert(Span("today ", .muted), at: right.count - 1) }
        ctx.drawRow(left: left, right: right, ctx.layout.chartTitle, 0, in: &buffer)
    }

    static func drawNothingInView(_ ctx: RenderContext, _ window: ChartWindow, in buffer: inout ScreenBuffer) {
        let plot = ctx.layout.plot
        let index = ctx.index
        var lines: [String]
        if index.hasResting && index.writers.allSatisfy({ !ctx.state.isVisible($0) }) {
            lines = ["All writers are hidden.", "Press 1\(ctx.glyphs.dash)\(min(9, index.writers.count)) to show them again."]
        } else {
            lines = ["No resting values from \(window.firstDay.mediumText) to \(window.lastDay.mediumText).",
                     "G goes to the most recent day with data."]
        }
        lines = lines.flatMap { TextFit.wrap(ctx.text($0), plot.width, ellipsis: ctx.glyphs.ellipsis) }
        let top = plot.y + max(0, (plot.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let x = plot.x + max(0, (plot.width - DisplayWidth.of(line)) / 2)
            buffer.write(line, x: x, y: top + i, style: .muted, clip: plot)
        }
        // The axis line still stands, without labels.
        for row in 0..<ctx.layout.yAxis.height {
            buffer.put(ctx.glyphs.vertical, x: ctx.layout.yAxis.maxX - 1, y: ctx.layout.yAxis.y + row, style: .muted)
        }
    }

    static func drawYAxis(_ ctx: RenderContext, _ scale: YScale, in buffer: inout ScreenBuffer) {
        let axis = ctx.layout.yAxis
        let labelled = Set(scale.labelledRows())
        for row in 0..<axis.height {
            let y = axis.y + row
            if labelled.contains(row) {
                let label = RestingValue.format(scale.value(ofRow: row))
                buffer.write(TextFit.padLeft(label, axis.width - 2), x: axis.x, y: y, style: .muted, clip: axis)
                buffer.put(ctx.glyphs.axisTick, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
            } else {
                buffer.put(ctx.glyphs.vertical, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
            }
        }
    }

    struct Tick {
        var cell: Int
        var label: String
        /// Lower goes first when labels compete for room.
        var priority: Int
    }

    static func ticks(_ window: ChartWindow) -> [Tick] {
        var ticks: [Tick] = []
        let zoom = window.zoom
        switch zoom {
        case .day:
            var day = window.firstDay
            while day <= window.lastDay {
                let cell = window.pointCell(ofBucket: zoom.bucket(of: day))
                if [1, 8, 15, 22].contains(day.day) {
                    let label = day.day == 1 && day.month == 1 ? "1 Jan \(day.year)" : day.shortText
                    ticks.append(Tick(cell: cell, label: label, priority: day.day == 1 ? 0 : 1))
                } else if window.cellsPerBucket >= 3 {
                    // Wide days (a short history): the day of the month where it fits.
                    ticks.append(Tick(cell: cell, label: "\(day.day)", priority: 2))
                }
                day = day.adding(days: 1)
            }
        case .week, .month:
            var month = window.firstDay.year * 12 + window.firstDay.month - 1
            let lastMonth = window.lastDay.year * 12 + window.lastDay.month - 1
            while month <= lastMonth {
                let year = month / 12, m = month % 12 + 1
                let first = LocalDay(year: year, month: m, day: 1)!
                let bucket = zoom.bucket(of: first)
                if window.contains(bucket: bucket) && (zoom == .week || m % 3 == 1) {
                    let label = m == 1 ? "\(year)" : LocalDay.monthNames[m - 1]
                    ticks.append(Tick(cell: window.pointCell(ofBucket: bucket), label: label, priority: m == 1 ? 0 : 1))
                }
                month += 1
            }
        }
        return ticks
    }

    static func drawXAxis(_ ctx: RenderContext, _ window: ChartWindow, _ contents: Contents, cursorCell: Int,
                          in buffer: inout ScreenBuffer) {
        let rect = ctx.layout.xAxis
        let plot = ctx.layout.plot
        let g = ctx.glyphs
        buffer.fill(rect)
        let lineY = rect.y, labelY = rect.y + 1
        buffer.put(g.corner, x: plot.x - 1, y: lineY, style: .muted, clip: rect)
        for x in 0..<plot.width { buffer.put(g.horizontal, x: plot.x + x, y: lineY, style: .muted, clip: rect) }

        let all = ticks(window)
        for tick in all where tick.cell >= 0 && tick.cell < plot.width {
            buffer.put(g.tick, x: plot.x + tick.cell, y: lineY, style: .muted, clip: rect)
        }
        for cell in contents.outOfRangeCells where cell >= 0 && cell < plot.width {
            buffer.put(g.outOfRange, x: plot.x + cell, y: lineY, style: .bold, clip: rect)
        }
        // A live update's days, over the other marks until the next key (the cursor's stays on top).
        for cell in contents.changedCells where cell >= 0 && cell < plot.width {
            buffer.put(g.changed, x: plot.x + cell, y: lineY, style: .title, clip: rect)
        }

        // Labels: the cursor's date first, then month and year starts, then the rest, where they fit.
        var taken = Array(repeating: false, count: plot.width)
        func place(_ label: String, at start: Int, style: Style) -> Bool {
            let w = DisplayWidth.of(label)
            guard start >= 0, start + w <= plot.width else { return false }
            let lo = max(0, start - 1), hi = min(plot.width, start + w + 1)
            if taken[lo..<hi].contains(true) { return false }
            for i in start..<(start + w) { taken[i] = true }
            buffer.write(label, x: plot.x + start, y: labelY, style: style, clip: rect)
            return true
        }
        if cursorCell >= 0 && cursorCell < plot.width {
            buffer.put(g.cursorMark, x: plot.x + cursorCell, y: lineY, style: .title, clip: rect)
            let label = cursorLabel(ctx)
            let w = DisplayWidth.of(label)
            let start = min(max(0, cursorCell - w / 2), max(0, plot.width - w))
            _ = place(label, at: start, style: .title)
        }
        for tick in all.sorted(by: { ($0.priority, $0.cell) < ($1.priority, $1.cell) }) {
            _ = place(tick.label, at: tick.cell, style: .muted)
        }
    }

    /// Writers grouped by store (R1): "Health Connect: 1 ● Fitbit  2 ◆ Oura   HealthKit: 3 ■ Jane’s Apple
    /// Watch"; a hidden writer is "3 ■ Withings (hidden)", dimmed. Names cut to `nameWidth` when given.
    static func legendEntries(_ ctx: RenderContext, nameWidth: Int?) -> [[Span]] {
        let g = ctx.glyphs
        var previousStore: HealthStore?
        return ctx.index.writers.enumerated().map { w, writer in
            let number = w < 9 ? "\(w + 1) " : ""
            var name = ctx.shortName(writer)
            if let nameWidth { name = TextFit.truncate(name, nameWidth, ellipsis: g.ellipsis) }
            var item: [Span] = []
            if writer.store != previousStore {
                item.append(Span(writer.store.displayName + ": ", .muted))
                previousStore = writer.store
            }
            if ctx.state.isVisible(writer) {
                item += [Span(number, .muted), Span(String(g.series(w)), ctx.seriesStyle(w)), Span(" " + name)]
            } else {
                item += [Span(number + String(g.series(w)) + " " + name + " (hidden)", .muted)]
            }
            return item
        }
    }

    static func cursorLabel(_ ctx: RenderContext) -> String {
        let day = ctx.state.cursor
        switch ctx.state.zoom {
        case .day: return day.shortText
        case .week:
            let monday = ctx.state.zoom.firstDay(ofBucket: ctx.state.zoom.bucket(of: day))
            return "week of \(monday.shortText)"
        case .month: return "\(LocalDay.monthNames[day.month - 1]) \(day.year)"
        }
    }

    static func drawLegend(_ ctx: RenderContext, _ contents: Contents, in buffer: inout ScreenBuffer) {
        let rect = ctx.layout.legend
        let g = ctx.glyphs
        buffer.fill(rect)
        guard !rect.isEmpty else { return }
        let width = rect.width - 1
        let writerRows = rect.height >= 2 ? max(1, rect.height - (ctx.state.showContext && rect.width < 120 ? 2 : 1)) : 1
        // Full entries when they fit; else names cut to share the row(s) fairly.
        var writers = legendEntries(ctx, nameWidth: nil)
        // Too long: cut the longest names a little at a time until the entries fit.
        var nameWidth = ctx.index.writers.map { DisplayWidth.of(ctx.shortName($0)) }.max() ?? 0
        while nameWidth > 5 && Flow.lines(writers, width: width, gap: 2).count > writerRows {
            nameWidth -= 1
            writers = legendEntries(ctx, nameWidth: nameWidth)
        }
        var markers: [[Span]] = []
        let oneRow = rect.height < 2
        if !contents.provisionalWriters.isEmpty {
            var item = contents.provisionalWriters.prefix(3).map { Span(String(g.provisional($0)), ctx.seriesStyle($0)) }
            item.append(Span(oneRow ? " provisional" : " provisional: Apple may still replace this estimate"))
            markers.append(item)
        }
        if !contents.changedCells.isEmpty {
            markers.append([Span(String(g.changed), .title), Span(" just changed")])
        }
        if contents.hasContext {
            let who = ctx.index.contextWriters.count == 1 ? " (\(ctx.shortName(ctx.index.contextWriters[0])))" : ""
            markers.append([Span(String(g.context), .context), Span(" sedentary minimum\(who): context, not resting")])
        }
        if !contents.outOfRangeCells.isEmpty {
            markers.append([Span(String(g.outOfRange), .bold), Span(" out of range")])
        }
        var lines: [StyledLine]
        if rect.height >= 2 {
            let writerLines = Flow.lines(writers, width: width, gap: 2)
            let markerLines = Flow.lines(markers, width: width, gap: 3)
            // Markers keep the bottom rows; writers get the rest (all of them when there are no markers).
            let markerRows = min(markerLines.count, rect.height - 1)
            lines = Array(writerLines.prefix(rect.height - markerRows)) + markerLines.prefix(markerRows)
        } else {
            // One row: the writers, then whichever markers still fit on it.
            var items = writers
            for marker in markers where Flow.lines(items + [marker], width: width, gap: 2).count <= 1 {
                items.append(marker)
            }
            lines = Flow.lines(items, width: width, gap: 2)
        }
        for (row, line) in lines.prefix(rect.height).enumerated() {
            ctx.drawRow(StyledLine([Span(" ")] + line.spans), rect, row, in: &buffer)
        }
    }
}
