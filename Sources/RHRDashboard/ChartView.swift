import RHRCore
import RHRScreen

/// The trend: one line per visible writer in braille (two dots across, four down a cell), in its colour, gaps
/// left as gaps; its glyph where points are few, at the cursor day, at the line's last point in view and on
/// provisional values (hollow); days on x at a scale that stays put, bpm on y fitted to what is drawn. The
/// cursor day is a highlighted column. Optional: each writer's 7-day rolling mean (the line; the daily values
/// become dots), one writer's usual range behind the lines, min–max whiskers at week and month zoom, and the
/// sedentary minimum as a separately labelled context series (R8). In ASCII, glyphs only.
enum ChartView {
    /// What the chart is given: the series, already computed, and the few facts its title, axes and legend
    /// need.
    struct Model {
        var series: ChartSeries
        var window: ChartWindow
        var cursor: PaneCursor
        /// Every writer, in legend order (writer 1 first).
        var writers: [ChartLegend.Writer]
        /// The short names of the writers with sedentary heart rate.
        var contextWriterNames: [String]
        /// There are resting values, but every writer is hidden.
        var allHidden: Bool
        /// The usual range is a shaded background (colour, and a theme with a band colour); else its edges are drawn.
        var shadedBand: Bool
        /// With more than `fullWriters` writers in view, the one drawn in full (writer index); the others dimmed.
        var focused: Int? = nil
        /// No resting writer: the chart is the sedentary minimum alone (R8), and its title says it is not resting.
        var sedentaryOnly = false
    }

    /// Up to this many writers in view are all drawn in full; beyond, one is and the others are dimmed, so the
    /// lines do not tangle. The columns show every writer's values either way.
    static let fullWriters = 3

    /// Columns between a writer's glyphs along its line (docs/design.md section 6: readable without colour).
    static let markInterval = 16

    /// A writer's style in the plot: dimmed when another is drawn in full. `.dim` keeps it apart without colour.
    static func style(_ line: ChartSeries.Line, _ model: Model) -> Style {
        model.focused == nil || model.focused == line.writer ? .series(line.slot) : Style.series(line.slot).with(.dim)
    }

    static func draw(_ model: Model, in layout: ChartLayout, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let window = model.window
        let series = model.series
        drawTitle(model, in: layout.title, glyphs: glyphs, on: &buffer)

        let plot = layout.plot
        buffer.fill(plot)
        buffer.fill(layout.margin)
        buffer.fill(layout.yAxis)
        let cursorCell = window.pointCell(ofBucket: window.zoom.bucket(of: model.cursor.day))

        if series.isEmpty {
            drawNothingInView(model, in: layout, glyphs: glyphs, on: &buffer)
        } else if let range = series.range {
            let scale = YScale.fit(min: range.min, max: range.max, rows: plot.height)
            drawYAxis(scale, in: layout.yAxis, glyphs: glyphs, on: &buffer)
            drawPlot(model, scale: scale, in: plot, glyphs: glyphs, on: &buffer)
        }
        if cursorCell >= 0 && cursorCell < plot.width {
            buffer.restyle(Rect(x: plot.x + cursorCell, y: plot.y, width: 1, height: plot.height)) { cursorStyle($0) }
        }
        drawXAxis(model, cursorCell: cursorCell, in: layout, glyphs: glyphs, on: &buffer)
        drawLegend(model, in: layout.legend, writerRows: layout.legendWriterRows, glyphs: glyphs, on: &buffer)
    }

    /// The cursor column: reversed, so it shows without colour; an empty cell becomes a muted bar.
    static func cursorStyle(_ style: Style) -> Style {
        style == .plain ? Style(tint: .muted, .reverse, background: style.background) : style.with(.reverse)
    }

    static func drawTitle(_ model: Model, in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let window = model.window
        var scale = window.scaleWords
        if window.zoom != .day { scale += ", \(window.zoom.words)ly medians" }
        let style: Style = model.cursor.focused ? .focusedTitle : .bold
        let left = model.sedentaryOnly
            ? [Span(" Sedentary minimum, bpm", style), Span("  context, not resting  \(scale)", .muted)]
            : [Span(" Resting heart rate, bpm", style), Span("  \(scale)", .muted)]
        let cursor = model.cursor.day
        var right = [Span("\(glyphs.cursorRow) \(DayText.long(cursor)) ", .bold)]
        // The scale is never cut: on a narrow screen the cursor's date loses its weekday first.
        if StyledLine(left).width + StyledLine(right).width + 2 > rect.width {
            right = [Span("\(glyphs.cursorRow) \(cursor.mediumText) ", .bold)]
        }
        var room = rect.width - StyledLine(left).width - StyledLine(right).width - 2
        if model.cursor.dayChanged && room >= 16 {
            right.insert(Span("\(glyphs.changed) just changed  ", .title), at: 0)
            room -= 16
        }
        if cursor == model.cursor.today && room >= 6 { right.insert(Span("today ", .muted), at: right.count - 1) }
        buffer.drawRow(left: left, right: right, in: rect, row: 0, ellipsis: glyphs.ellipsis)
    }

    static func drawNothingInView(_ model: Model, in layout: ChartLayout, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let plot = layout.plot
        var lines: [String]
        if model.allHidden {
            lines = ["All writers are hidden.", "Press 1\(glyphs.dash)\(min(9, model.writers.count)) to show them again."]
        } else if model.sedentaryOnly {
            lines = ["No sedentary heart rate from \(model.window.firstDay.mediumText) to \(model.window.lastDay.mediumText).",
                     "G goes to the most recent day with data."]
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

    /// The lines and the glyphs (each over the one before), and the band: without colour its edges are drawn
    /// first, with a theme that shades it a background put on last.
    static func drawPlot(_ model: Model, scale: YScale, in plot: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        let window = model.window
        let series = model.series
        let whiskers = model.series.whiskers
        func cellRect(_ bucket: Int, from top: Int, to bottom: Int) -> Rect {
            Rect(x: plot.x + window.cell(ofBucket: bucket), y: plot.y + top, width: window.cellsPerBucket,
                 height: bottom - top + 1)
        }

        // Without a shaded band the usual range is its two edges, drawn first so lines cross over them.
        if !model.shadedBand, let w = series.bandSlot {
            for p in series.band {
                for row in Set([scale.row(of: p.upper), scale.row(of: p.lower)]) {
                    let r = cellRect(p.bucket, from: row, to: row)
                    for x in r.x..<r.maxX { buffer.put(g.bandEdge, x: x, y: r.y, style: .series(w), clip: plot) }
                }
            }
        }

        // Context first, so every resting series is drawn over it.
        for points in series.context {
            for p in points {
                buffer.put(g.context, x: plot.x + window.pointCell(ofBucket: p.bucket), y: plot.y + scale.row(of: p.bpm),
                           style: .context, clip: plot)
            }
        }

        if g.unicode {
            // Braille, or half blocks for a font without braille. The writer drawn in full has a canvas of its own,
            // over the others': its line stays whole where they cross.
            let grid: DotCanvas.Grid = g.braille ? .braille : .halfBlocks
            func dot(_ bucket: Int, _ bpm: Double) -> (x: Int, y: Int) {
                (window.pointDot(ofBucket: bucket, across: grid.across), scale.dot(of: bpm, perRow: grid.down))
            }
            var canvas = DotCanvas(grid, width: plot.width, height: plot.height)
            var front = DotCanvas(grid, width: plot.width, height: plot.height)
            for line in series.lines {
                let w = line.slot
                let drawn = model.series.showsMean ? line.mean : line.points
                func draw(on canvas: inout DotCanvas) {
                    if model.series.showsMean {
                        for p in line.points { let d = dot(p.bucket, p.bpm); canvas.set(d.x, d.y, layer: w) }
                    }
                    for (a, b) in zip(drawn, drawn.dropFirst()) where b.bucket == a.bucket + 1 {
                        // A provisional stretch is dotted: Apple may still replace it.
                        canvas.line(from: dot(a.bucket, a.bpm), to: dot(b.bucket, b.bpm), layer: w,
                                    every: a.provisional || b.provisional ? 2 : 1)
                    }
                    for p in drawn { let d = dot(p.bucket, p.bpm); canvas.set(d.x, d.y, layer: w) }
                    if whiskers {
                        for p in line.points where p.low < p.high {
                            let x = window.pointDot(ofBucket: p.bucket, across: grid.across)
                            canvas.line(from: (x, scale.dot(of: p.high, perRow: grid.down)),
                                        to: (x, scale.dot(of: p.low, perRow: grid.down)), layer: w)
                        }
                    }
                }
                if line.writer == model.focused { draw(on: &front) } else { draw(on: &canvas) }
            }
            for y in 0..<canvas.height {
                for x in 0..<canvas.width {
                    if let glyph = front.glyph(x: x, y: y), let layer = front.layer(x: x, y: y) {
                        buffer.put(glyph, x: plot.x + x, y: plot.y + y, style: .series(layer), clip: plot)
                    } else if let glyph = canvas.glyph(x: x, y: y), let layer = canvas.layer(x: x, y: y) {
                        let style = model.focused == nil ? Style.series(layer) : Style.series(layer).with(.dim)
                        buffer.put(glyph, x: plot.x + x, y: plot.y + y, style: style, clip: plot)
                    }
                }
            }
        }

        // Glyphs: writer 1 last, so it is on top where they meet; the writer drawn in full over all. Each writer's
        // glyph stands on its line every `markInterval` columns (each writer at its own phase, so they take turns),
        // at a point alone, at its last point in view and on the cursor day, so every line reads without colour.
        let cursorBucket = window.zoom.bucket(of: model.cursor.day)
        let sparse = !g.unicode || window.cellsPerBucket >= 3
        let ordered = series.lines.reversed().filter { $0.writer != model.focused }
            + series.lines.filter { $0.writer == model.focused }
        for line in ordered {
            let w = line.slot, style = Self.style(line, model)
            let dimmed = model.focused != nil && line.writer != model.focused
            let drawn = model.series.showsMean ? line.mean : line.points
            let phase = (w * 7) % markInterval
            var marked: [(bucket: Int, bpm: Double, provisional: Bool)] = []
            for (i, p) in drawn.enumerated() {
                let isolated = (i == 0 || drawn[i - 1].bucket != p.bucket - 1)
                    && (i == drawn.count - 1 || drawn[i + 1].bucket != p.bucket + 1)
                // The first point past each of the writer's interval marks.
                let stripe = (window.pointCell(ofBucket: p.bucket) + phase) / markInterval
                let interval = i > 0 && stripe > (window.pointCell(ofBucket: drawn[i - 1].bucket) + phase) / markInterval
                if (sparse && !dimmed) || !g.unicode || isolated || interval || i == drawn.count - 1 {
                    marked.append((p.bucket, p.bpm, false))
                }
            }
            // The day's own values where they matter most: provisional ones and the cursor's.
            for p in line.points where p.provisional || p.bucket == cursorBucket {
                marked.append((p.bucket, p.bpm, p.provisional))
            }
            if !g.unicode && whiskers {
                for p in line.points where p.low < p.high {
                    let x = plot.x + window.pointCell(ofBucket: p.bucket)
                    for row in scale.row(of: p.high)...scale.row(of: p.low) {
                        buffer.put(g.vertical, x: x, y: plot.y + row, style: style, clip: plot)
                    }
                }
            }
            for m in marked {
                let glyph = m.provisional ? g.provisional(w) : g.series(w)
                var markStyle = m.provisional ? g.provisionalStyle(w) : Style.series(w)
                if dimmed { markStyle = markStyle.with(.dim) }
                buffer.put(glyph, x: plot.x + window.pointCell(ofBucket: m.bucket), y: plot.y + scale.row(of: m.bpm),
                           style: markStyle, clip: plot)
            }
        }
        // A live update's points underlined until the next key.
        for bucket in series.changedBuckets where window.contains(bucket: bucket) {
            buffer.restyle(cellRect(bucket, from: 0, to: plot.height - 1)) { $0 == .plain ? $0 : $0.with(.underline) }
        }

        // Shaded, the usual range is a quiet background behind everything.
        if model.shadedBand {
            for p in series.band {
                buffer.restyle(cellRect(p.bucket, from: scale.row(of: p.upper), to: scale.row(of: p.lower))) { $0.on(.band) }
            }
        }
    }

    static func drawYAxis(_ scale: YScale, in axis: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let labels = Dictionary(scale.labelledRows().map { ($0.row, $0.value) }, uniquingKeysWith: { a, _ in a })
        for row in 0..<axis.height {
            let y = axis.y + row
            if let value = labels[row] {
                let label = RestingValue.format(value)
                buffer.write(TextFit.padLeft(label, axis.width - 2), x: axis.x, y: y, style: .muted, clip: axis)
                buffer.put(glyphs.axisTick, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
            } else {
                buffer.put(glyphs.vertical, x: axis.maxX - 1, y: y, style: .muted, clip: axis)
            }
        }
    }

    struct Tick: Equatable {
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
            // Each month's first day, found by month number (`Zoom.month`'s buckets), years before 1 included.
            for month in Zoom.month.bucket(of: window.firstDay)...Zoom.month.bucket(of: window.lastDay) {
                let first = Zoom.month.firstDay(ofBucket: month)
                let year = first.year, m = first.month
                let bucket = zoom.bucket(of: first)
                if window.contains(bucket: bucket) && (zoom == .week || m % 3 == 1) {
                    let label = m == 1 ? "\(year)" : LocalDay.monthNames[m - 1]
                    ticks.append(Tick(cell: window.pointCell(ofBucket: bucket), label: label, priority: m == 1 ? 0 : 1))
                }
            }
        }
        return ticks
    }

    static func drawXAxis(_ model: Model, cursorCell: Int, in layout: ChartLayout, glyphs g: Glyphs,
                          on buffer: inout ScreenBuffer) {
        let rect = layout.xAxis
        let plot = layout.plot
        let window = model.window
        let series = model.series
        buffer.fill(rect)
        let lineY = rect.y, labelY = rect.y + 1
        buffer.put(g.corner, x: plot.x - 1, y: lineY, style: .muted, clip: rect)
        for x in 0..<min(plot.width, window.usedWidth) {
            buffer.put(g.horizontal, x: plot.x + x, y: lineY, style: .muted, clip: rect)
        }

        let all = ticks(window)
        for tick in all where tick.cell >= 0 && tick.cell < plot.width {
            buffer.put(g.tick, x: plot.x + tick.cell, y: lineY, style: .muted, clip: rect)
        }
        for bucket in series.outOfRangeBuckets where window.contains(bucket: bucket) {
            buffer.put(g.outOfRange, x: plot.x + window.pointCell(ofBucket: bucket), y: lineY, style: .bold, clip: rect)
        }
        // A live update's days, over the other marks until the next key.
        for bucket in series.changedBuckets where window.contains(bucket: bucket) {
            buffer.put(g.changed, x: plot.x + window.pointCell(ofBucket: bucket), y: lineY, style: .title, clip: rect)
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
            // The highlighted column runs through the axis; whatever mark is there stays readable.
            buffer.restyle(Rect(x: plot.x + cursorCell, y: lineY, width: 1, height: 1)) { cursorStyle($0) }
            let label = cursorLabel(model.cursor.day, zoom: window.zoom)
            let w = DisplayWidth.of(label)
            let start = min(max(0, cursorCell - w / 2), max(0, plot.width - w))
            // Two blank cells around it, so that "week of 23 Nov" and a tick's "Dec" never read as one label.
            if place(label, at: start, style: .title) {
                for i in max(0, start - 1)..<min(plot.width, start + w + 1) { taken[i] = true }
            }
        }
        for tick in all.sorted(by: { ($0.priority, $0.cell) < ($1.priority, $1.cell) }) {
            _ = place(tick.label, at: tick.cell, style: .muted)
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

    /// Which marks the legend tells the meaning of: those on screen (`marks(_:)`), or those that may come into
    /// view (the layout's, so the legend's rows do not change as the chart scrolls).
    struct Marks {
        /// With many writers in view, the one drawn in full.
        var focused: ChartLegend.Writer?
        /// Slots of writers with a provisional value.
        var provisional: [Int] = []
        var outOfRange = false
        var changed = false
        var mean = false
        /// The usual range: its writer's name and slot, and whether there is a band to draw yet.
        var band: (name: String, slot: Int, empty: Bool)?
        var whiskers = false
        var context = false
        var contextWriterNames: [String] = []
        var shadedBand = true
    }

    /// The marks the model's series put on screen.
    static func marks(_ model: Model) -> Marks {
        let series = model.series
        var marks = Marks(provisional: series.provisionalWriters, outOfRange: !series.outOfRangeBuckets.isEmpty,
                          changed: !series.changedBuckets.isEmpty, mean: series.showsMean, whiskers: series.whiskers,
                          context: series.hasContext, contextWriterNames: model.contextWriterNames, shadedBand: model.shadedBand)
        if let f = model.focused, model.writers.indices.contains(f) { marks.focused = model.writers[f] }
        if let w = series.bandWriter, let slot = series.bandSlot {
            marks.band = (model.writers.indices.contains(w) ? model.writers[w].name : "", slot, series.band.isEmpty)
        }
        return marks
    }

    /// What each mark means, most needed first (the legend drops from the end when short of room).
    static func markers(_ marks: Marks, glyphs g: Glyphs, short: Bool) -> [[Span]] {
        var markers: [[Span]] = []
        if let writer = marks.focused {
            markers.append([Span(String(g.series(writer.slot)), .series(writer.slot)),
                            Span(short ? " \(writer.name) in full (f: next)" : " \(writer.name) in full, the others dimmed (f: next)")])
        }
        if !marks.provisional.isEmpty {
            var item = marks.provisional.prefix(3).map { Span(String(g.provisional($0)), g.provisionalStyle($0)) }
            item.append(Span(" " + (short ? DayFlag.provisional.word : DayFlag.provisional.legend)))
            markers.append(item)
        }
        if marks.outOfRange {
            markers.append([Span(String(g.outOfRange), .bold), Span(" out of range")])
        }
        if marks.changed {
            markers.append([Span(String(g.changed), .title), Span(" just changed")])
        }
        if marks.mean {
            markers.append([Span(short ? "lines: 7-day mean" : "lines: 7-day mean, dots: daily values")])
        }
        if let (name, slot, empty) = marks.band {
            let swatch = marks.shadedBand ? Span("   ", Style.series(slot).on(.band))
                : Span(String(repeating: g.bandEdge, count: 2), .series(slot))
            if empty {
                markers.append([swatch, Span(short ? " usual range (\(name)): not yet"
                                             : " usual range of \(name): not here (it needs 14 days with a value in 28)")])
            } else {
                markers.append([swatch, Span(short ? " usual range (\(name))"
                                             : " usual range of \(name): middle half of its last 28 days")])
            }
        }
        if marks.whiskers {
            markers.append([Span(String(g.whisker), .muted), Span(" lowest to highest day")])
        }
        if marks.context {
            let who = marks.contextWriterNames.count == 1 ? " (\(marks.contextWriterNames[0]))" : ""
            markers.append([Span(String(g.context), .context), Span(" sedentary minimum\(who): context, not resting")])
        }
        return markers
    }

    static func legend(_ model: Model, in rect: Rect, writerRows: Int? = nil, glyphs g: Glyphs) -> ChartLegend {
        let marks = marks(model)
        let long = markers(marks, glyphs: g, short: false)
        let full = ChartLegend(writers: model.writers, markers: long, in: rect, writerRows: writerRows, glyphs: g)
        let shown = full.entries.filter { $0.writer == nil }.count
        let short = markers(marks, glyphs: g, short: true)
        // Short forms when the long ones leave some out; then, where room is left, what each writer's number is.
        let chosen = shown < short.count ? short : long
        return ChartLegend(writers: model.writers, markers: chosen + derivationMarkers(model, glyphs: g), in: rect,
                           writerRows: writerRows, glyphs: g)
    }

    /// "● lowest 10-minute night average" for each visible writer (R15), or with a writer drawn in full for that one,
    /// after every other marker: the legend places markers in order while they fit, so these never push another out,
    /// nor count in the rows the layout gives the legend (`markers` alone does).
    /// One entry per derivation: writers whose numbers are the same thing (two watches' all-day rest estimate) share
    /// it, each with its glyph.
    static func derivationMarkers(_ model: Model, glyphs g: Glyphs) -> [[Span]] {
        let writers = model.focused.map { model.writers.indices.contains($0) ? [model.writers[$0]] : [] } ?? model.writers
        var order: [String] = []
        var slots: [String: [Int]] = [:]
        for writer in writers where writer.visible && !writer.derivation.isEmpty {
            if slots[writer.derivation] == nil { order.append(writer.derivation) }
            slots[writer.derivation, default: []].append(writer.slot)
        }
        return order.map { derivation in
            slots[derivation]!.map { Span(String(g.series($0)), .series($0)) } + [Span(" " + derivation, .muted)]
        }
    }

    static func drawLegend(_ model: Model, in rect: Rect, writerRows: Int?, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        buffer.fill(rect)
        guard !rect.isEmpty else { return }
        for entry in legend(model, in: rect, writerRows: writerRows, glyphs: g).entries {
            StyledLine(entry.spans).draw(in: &buffer, x: rect.x + entry.x, y: rect.y + entry.row,
                                         clip: rect.row(entry.row))
        }
    }
}
