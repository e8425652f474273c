import RHRCore
import RHRScreen

/// The trend: one series per visible writer with its own glyph and colour, days on x, bpm on y, gaps left
/// as gaps, provisional values hollow, out-of-range days marked on the axis, the cursor day highlighted, and
/// optionally the sedentary minimum as a separately labelled context series (R8).
enum ChartView {
    /// What the chart is given: the series, already computed, and the few facts its title, axes and legend
    /// need.
    struct Model {
        var series: ChartSeries
        var window: ChartWindow
        var cursor: LocalDay
        var today: LocalDay
        var focused: Bool
        /// A live update just changed the cursor day.
        var cursorChanged: Bool
        /// Every writer, in legend order (writer 1 first).
        var writers: [LegendWriter]
        /// The short names of the writers with sedentary heart rate.
        var contextWriterNames: [String]
        /// The context series is on: the legend keeps a row for its label on narrow screens.
        var showContext: Bool
        /// There are resting values, but every writer is hidden.
        var allHidden: Bool
    }

    /// One writer in the legend.
    struct LegendWriter {
        var store: HealthStore
        var name: String
        var visible: Bool
    }

    static func draw(_ model: Model, in layout: ChartLayout, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let window = model.window
        let series = model.series
        drawTitle(model, in: layout.title, glyphs: glyphs, on: &buffer)

        let plot = layout.plot
        buffer.fill(plot)
        buffer.fill(layout.margin)
        buffer.fill(layout.yAxis)
        let cursorCell = window.pointCell(ofBucket: window.zoom.bucket(of: model.cursor))

        if series.points.isEmpty {
            drawNothingInView(model, in: layout, glyphs: glyphs, on: &buffer)
        } else {
            let values = series.points.map(\.bpm)
            let scale = YScale.fit(min: values.min()!, max: values.max()!, rows: plot.height)
            drawYAxis(scale, in: layout.yAxis, glyphs: glyphs, on: &buffer)
            if cursorCell >= 0 && cursorCell < plot.width {
                for row in 0..<plot.height {
                    buffer.put(glyphs.cursorColumn, x: plot.x + cursorCell, y: plot.y + row, style: .muted, clip: plot)
                }
            }
            for point in series.points where point.cell >= 0 && point.cell < plot.width {
                var style = point.cell == cursorCell ? point.style.with(.bold) : point.style
                if series.changedCells.contains(point.cell) { style = style.with(.underline) }
                buffer.put(point.glyph, x: plot.x + point.cell, y: plot.y + scale.row(of: point.bpm), style: style, clip: plot)
            }
        }
        drawXAxis(model, cursorCell: cursorCell, in: layout, glyphs: glyphs, on: &buffer)
        drawLegend(model, in: layout.legend, glyphs: glyphs, on: &buffer)
    }

    static func drawTitle(_ model: Model, in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let zoomWords: String
        switch model.window.zoom {
        case .day: zoomWords = "one column per day"
        case .week: zoomWords = "weekly median of daily values"
        case .month: zoomWords = "monthly median of daily values"
        }
        let left = [Span(" Resting heart rate, bpm", model.focused ? .title : .bold), Span("  \(zoomWords)", .muted)]
        let cursor = model.cursor
        var right = [Span("\(glyphs.cursorRow) \(DayText.long(cursor)) ", .bold)]
        var room = rect.width - StyledLine(left).width - StyledLine(right).width - 2
        if model.cursorChanged && room >= 16 {
            right.insert(Span("\(glyphs.changed) just changed  ", .title), at: 0)
            room -= 16
        }
        if cursor == model.today && room >= 6 { right.insert(Span("today ", .muted), at: right.count - 1) }
        buffer.drawRow(left: left, right: right, in: rect, row: 0, ellipsis: glyphs.ellipsis)
    }

    static func drawNothingInView(_ model: Model, in layout: ChartLayout, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let plot = layout.plot
        var lines: [String]
        if model.allHidden {
            lines = ["All writers are hidden.", "Press 1\(glyphs.dash)\(min(9, model.writers.count)) to show them again."]
        } else {
            lines = ["No resting values from \(model.window.firstDay.mediumText) to \(model.window.lastDay.mediumText).",
                     "G goes to the most recent day with data."]
        }
        lines = lines.flatMap { TextFit.wrap(glyphs.text($0), plot.width, ellipsis: glyphs.ellipsis) }
        let top = plot.y + max(0, (plot.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let x = plot.x + max(0, (plot.width - DisplayWidth.of(line)) / 2)
            buffer.write(line, x: x, y: top + i, style: .muted, clip: plot)
        }
        // The axis line still stands, without labels.
        let axis = layout.yAxis
        for row in 0..<axis.height {
            buffer.put(glyphs.vertical, x: axis.maxX - 1, y: axis.y + row, style: .muted)
        }
    }

    static func drawYAxis(_ scale: YScale, in axis: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let labelled = Set(scale.labelledRows())
        for row in 0..<axis.height {
            let y = axis.y + row
            if labelled.contains(row) {
                let label = RestingValue.format(scale.value(ofRow: row))
                buffer.write(TextFit.padLeft(label, axis.width - 2), x: axis.x, y: y, style: .muted, clip: axis)
                buffer.put(glyphs.axisTick, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
            } else {
                buffer.put(glyphs.vertical, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
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

    static func drawXAxis(_ model: Model, cursorCell: Int, in layout: ChartLayout, glyphs g: Glyphs,
                          on buffer: inout ScreenBuffer) {
        let rect = layout.xAxis
        let plot = layout.plot
        let series = model.series
        buffer.fill(rect)
        let lineY = rect.y, labelY = rect.y + 1
        buffer.put(g.corner, x: plot.x - 1, y: lineY, style: .muted, clip: rect)
        for x in 0..<plot.width { buffer.put(g.horizontal, x: plot.x + x, y: lineY, style: .muted, clip: rect) }

        let all = ticks(model.window)
        for tick in all where tick.cell >= 0 && tick.cell < plot.width {
            buffer.put(g.tick, x: plot.x + tick.cell, y: lineY, style: .muted, clip: rect)
        }
        for cell in series.outOfRangeCells where cell >= 0 && cell < plot.width {
            buffer.put(g.outOfRange, x: plot.x + cell, y: lineY, style: .bold, clip: rect)
        }
        // A live update's days, over the other marks until the next key (the cursor's stays on top).
        for cell in series.changedCells where cell >= 0 && cell < plot.width {
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
            let label = cursorLabel(model.cursor, zoom: model.window.zoom)
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
    static func legendEntries(_ writers: [LegendWriter], nameWidth: Int?, glyphs g: Glyphs) -> [[Span]] {
        var previousStore: HealthStore?
        return writers.enumerated().map { w, writer in
            let number = w < 9 ? "\(w + 1) " : ""
            var name = writer.name
            if let nameWidth { name = TextFit.truncate(name, nameWidth, ellipsis: g.ellipsis) }
            var item: [Span] = []
            if writer.store != previousStore {
                item.append(Span(writer.store.displayName + ": ", .muted))
                previousStore = writer.store
            }
            if writer.visible {
                item += [Span(number, .muted), Span(String(g.series(w)), .series(w)), Span(" " + name)]
            } else {
                item += [Span(number + String(g.series(w)) + " " + name + " (hidden)", .muted)]
            }
            return item
        }
    }

    static func cursorLabel(_ day: LocalDay, zoom: Zoom) -> String {
        switch zoom {
        case .day: return day.shortText
        case .week:
            let monday = zoom.firstDay(ofBucket: zoom.bucket(of: day))
            return "week of \(monday.shortText)"
        case .month: return "\(LocalDay.monthNames[day.month - 1]) \(day.year)"
        }
    }

    static func drawLegend(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        let series = model.series
        buffer.fill(rect)
        guard !rect.isEmpty else { return }
        let width = rect.width - 1
        let writerRows = rect.height >= 2 ? max(1, rect.height - (model.showContext && rect.width < 120 ? 2 : 1)) : 1
        // Full entries when they fit; else names cut to share the row(s) fairly.
        var writers = legendEntries(model.writers, nameWidth: nil, glyphs: g)
        // Too long: cut the longest names a little at a time until the entries fit.
        var nameWidth = model.writers.map { DisplayWidth.of($0.name) }.max() ?? 0
        while nameWidth > 5 && Flow.lines(writers, width: width, gap: 2).count > writerRows {
            nameWidth -= 1
            writers = legendEntries(model.writers, nameWidth: nameWidth, glyphs: g)
        }
        var markers: [[Span]] = []
        let oneRow = rect.height < 2
        if !series.provisionalWriters.isEmpty {
            var item = series.provisionalWriters.prefix(3).map { Span(String(g.provisional($0)), .series($0)) }
            item.append(Span(oneRow ? " provisional" : " provisional: Apple may still replace this estimate"))
            markers.append(item)
        }
        if !series.changedCells.isEmpty {
            markers.append([Span(String(g.changed), .title), Span(" just changed")])
        }
        if series.hasContext {
            let who = model.contextWriterNames.count == 1 ? " (\(model.contextWriterNames[0]))" : ""
            markers.append([Span(String(g.context), .context), Span(" sedentary minimum\(who): context, not resting")])
        }
        if !series.outOfRangeCells.isEmpty {
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
            buffer.drawRow(StyledLine([Span(" ")] + line.spans), in: rect, row: row)
        }
    }
}
