// The report's chart: one writer a line, glyph and ink, days along x, bpm up y, and its legend.
import CPangoCairo
import RHRCore
import RHRDashboard

/// A rectangle on the page, in points from the page's top left.
struct Box {
    var x: Double, y: Double, width: Double, height: Double
    var right: Double { x + width }
    var bottom: Double { y + height }
}

/// The bpm scale every chart of one report shares, so two pages of one report read on one scale: round ticks around
/// what is drawn (values, means, the usual range; never an out-of-range value, R6).
struct BPMScale {
    let low: Double, high: Double, step: Double

    init(_ range: (low: Double, high: Double)) {
        let span = max(range.high - range.low, 4)
        let step = [1.0, 2, 5, 10, 20, 25, 50, 100].first { span / $0 <= 7 } ?? 100
        self.step = step
        low = ((range.low - step / 2) / step).rounded(.down) * step
        high = ((range.high + step / 2) / step).rounded(.up) * step
    }

    func y(_ bpm: Double, in plot: Box) -> Double {
        plot.bottom - (bpm - low) / (high - low) * plot.height
    }

    var ticks: [Double] { stride(from: low, through: high + step / 1000, by: step).map { $0 } }
}

/// One page's chart: the days `from`…`to` of the report (docs/design.md section 6, the report). Each writer's days
/// are a line in its ink and dash pattern, broken where a day has no value, with its glyph on some of its points
/// (all of them when they are few), on a point alone and on its last; a provisional value (R3) is its hollow glyph,
/// a day with only out-of-range samples (R6) an `×` at the foot of the chart. With the mean the line is the 7-day mean
/// and the day values dots; the usual range is grey behind the lines, its edges dotted. Up to three writers share
/// one plot; more get a panel each, one under the other on the one bpm scale, so no line hides another.
struct ReportChart {
    let report: TrendReport
    let from: LocalDay
    let to: LocalDay
    let scale: BPMScale

    /// In points: the room for the bpm labels, for the day labels, a glyph's size, the gap between panels, a panel's
    /// name above it.
    static let axisWidth = 24.0, labelHeight = 12.0, glyphSize = 7.0, panelGap = 4.0, nameHeight = 9.0
    /// With this many days or fewer, every point carries its writer's glyph.
    static let everyPointDays = 62

    var days: Int { from.distance(to: to) + 1 }

    /// The writers of each plot: all in one, or one a panel.
    var panels: [[Int]] {
        let all = Array(report.series.indices)
        return all.count > TrendReport.writersInOneChart ? all.map { [$0] } : [all]
    }

    func x(_ day: LocalDay, in plot: Box) -> Double {
        plot.x + (Double(from.distance(to: day)) + 0.5) * plot.width / Double(days)
    }

    func plot(in box: Box) -> Box {
        Box(x: box.x + Self.axisWidth, y: box.y + 6, width: box.width - Self.axisWidth - 2,
            height: box.height - Self.labelHeight - 8)
    }

    func draw(in box: Box, on cr: OpaquePointer, text: ReportText) {
        let plot = plot(in: box)
        let panels = panels
        let height = (plot.height - Self.panelGap * Double(panels.count - 1)) / Double(panels.count)
        for (i, writers) in panels.enumerated() {
            var panel = Box(x: plot.x, y: plot.y + Double(i) * (height + Self.panelGap), width: plot.width, height: height)
            if panels.count > 1 {
                // Its writer named on a strip above its plot, never over a value.
                drawName(report.series[writers[0]], at: panel.y, on: cr, x: panel.x, text: text)
                panel.y += Self.nameHeight
                panel.height -= Self.nameHeight
            }
            drawGrid(panel, sparse: panels.count > 1, on: cr, text: text)
            cairo_save(cr)
            cairo_rectangle(cr, panel.x, panel.y - 4, panel.width, panel.height + 4)
            cairo_clip(cr)
            if let band = report.band, writers.contains(band.series) { drawBand(band.days, panel, on: cr) }
            for w in writers { drawLine(report.series[w], position: w, panel, on: cr, text: text) }
            cairo_restore(cr)
            drawOutOfRange(writers, panel, on: cr, text: text)
        }
        drawDays(plot, on: cr, text: text)
    }

    // MARK: - Scale and axes

    /// Grid lines at each tick, labelled. A panel keeps only its inner ticks at twice the step (50 and 60, not 40 and
    /// 70 next to the panels' above and below), with a line along its foot.
    private func drawGrid(_ plot: Box, sparse: Bool, on cr: OpaquePointer, text: ReportText) {
        cairo_set_line_width(cr, 0.4)
        cairo_set_dash(cr, nil, 0, 0)
        let ticks = sparse ? scale.ticks.dropFirst().dropLast().filter { ($0 / (2 * scale.step)).rounded() == $0 / (2 * scale.step) }
            : scale.ticks
        for tick in ticks {
            let y = scale.y(tick, in: plot)
            ReportInk.use(ReportInk.grid, on: cr)
            cairo_move_to(cr, plot.x, y)
            cairo_line_to(cr, plot.right, y)
            cairo_stroke(cr)
            let label = text.layout(Markup.escape(RestingValue.format(tick)), size: 6.5, width: nil)
            ReportInk.use(ReportInk.muted, on: cr)
            label.draw(at: plot.x - 3 - label.width, y - label.height / 2, on: cr)
        }
        if sparse {
            ReportInk.use(ReportInk.grid, on: cr)
            cairo_move_to(cr, plot.x, plot.bottom)
            cairo_line_to(cr, plot.right, plot.bottom)
            cairo_stroke(cr)
        } else {
            let unit = text.layout("bpm", size: 6.5, width: nil)
            ReportInk.use(ReportInk.muted, on: cr)
            unit.draw(at: plot.x - 3 - unit.width, plot.y - 4 - unit.height, on: cr)
        }
    }

    /// A panel's writer, named in its top left corner: glyph, number and name.
    private func drawName(_ series: TrendReport.Series, at y: Double, on cr: OpaquePointer, x: Double, text: ReportText) {
        let label = text.layout(Markup.bold("\(series.number)") + " " + Markup.name(series.shortName) + " "
                                + Markup.muted(series.store), size: 6.5, width: nil)
        ReportInk.of(number: series.number).use(on: cr)
        text.drawGlyph(series.glyph, size: Self.glyphSize, at: x + 4, y + label.height / 2, on: cr)
        ReportInk.use(ReportInk.text, on: cr)
        label.draw(at: x + 10, y, on: cr)
    }

    /// The x axis: ticks and labels by day, week or month, as many as the width holds.
    private func drawDays(_ plot: Box, on cr: OpaquePointer, text: ReportText) {
        ReportInk.use(ReportInk.muted, on: cr)
        cairo_set_line_width(cr, 0.6)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_move_to(cr, plot.x, plot.bottom)
        cairo_line_to(cr, plot.right, plot.bottom)
        cairo_stroke(cr)
        var lastLabelEnd = -Double.infinity
        for (day, label) in ticks(width: plot.width) {
            let x = self.x(day, in: plot)
            cairo_move_to(cr, x, plot.bottom)
            cairo_line_to(cr, x, plot.bottom + 3)
            cairo_stroke(cr)
            guard let label else { continue }
            let paragraph = text.layout(Markup.escape(label), size: 6.5, width: nil)
            let left = min(max(x - paragraph.width / 2, plot.x - 4), plot.right + 4 - paragraph.width)
            guard left > lastLabelEnd + 3 else { continue }
            paragraph.draw(at: left, plot.bottom + 3.5, on: cr)
            lastLabelEnd = left + paragraph.width
        }
    }

    /// Days to tick, each with its label or none: every few days for a month or less, Mondays up to four months,
    /// else the first of each month (with its year in January and on the first label).
    func ticks(width: Double) -> [(LocalDay, String?)] {
        var out: [(LocalDay, String?)] = []
        var day = from
        if days <= 31 {
            let every = [1, 2, 7, 14].first { Double(days) / Double($0) * 34 <= width } ?? 14
            var i = 0
            while day <= to {
                out.append((day, i % every == 0 ? day.shortText : nil))
                day = day.adding(days: 1)
                i += 1
            }
        } else if days <= 122 {
            while day.weekday != 1 { day = day.adding(days: 1) }
            while day <= to {
                out.append((day, day.shortText))
                day = day.adding(days: 7)
            }
        } else {
            while day.day != 1 { day = day.adding(days: 1) }
            var first = true
            while day <= to {
                let name = LocalDay.monthNames[day.month - 1]
                out.append((day, first || day.month == 1 ? "\(name) \(day.year)" : name))
                first = false
                day = LocalDay(year: day.month == 12 ? day.year + 1 : day.year, month: day.month % 12 + 1, day: 1)!
            }
        }
        return out
    }

    // MARK: - Series

    private func drawBand(_ band: [TrendReport.BandDay], _ plot: Box, on cr: OpaquePointer) {
        let shown = band.filter { $0.day >= from && $0.day <= to }
        for run in runs(shown.map(\.day)) {
            let days = shown[run]
            ReportInk.use(ReportInk.band, on: cr)
            for (i, d) in days.enumerated() {
                let x = self.x(d.day, in: plot), y = scale.y(d.upper, in: plot)
                if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
            }
            for d in days.reversed() { cairo_line_to(cr, x(d.day, in: plot), scale.y(d.lower, in: plot)) }
            cairo_close_path(cr)
            cairo_fill(cr)
            // The edges, dotted, so the band reads where grey does not print.
            ReportInk.use(ReportInk.muted, on: cr)
            cairo_set_line_width(cr, 0.4)
            let dots: [Double] = [0.8, 1.2]
            dots.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, 2, 0) }
            for edge in [\TrendReport.BandDay.upper, \.lower] {
                for (i, d) in days.enumerated() {
                    let x = self.x(d.day, in: plot), y = scale.y(d[keyPath: edge], in: plot)
                    if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
                }
                cairo_stroke(cr)
            }
            cairo_set_dash(cr, nil, 0, 0)
        }
    }

    private func drawLine(_ series: TrendReport.Series, position: Int, _ plot: Box, on cr: OpaquePointer,
                          text: ReportText) {
        let ink = ReportInk.of(number: series.number)
        let daily = series.points.filter { $0.day >= from && $0.day <= to }
        let line = report.request.view.showMean
            ? series.mean.filter { $0.day >= from && $0.day <= to }
            : daily
        ink.use(on: cr)
        cairo_set_line_width(cr, 1.0)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        ink.useDashes(on: cr)
        for run in runs(line.map(\.day)) where run.count > 1 {
            for (i, p) in line[run].enumerated() {
                let x = self.x(p.day, in: plot), y = scale.y(p.bpm, in: plot)
                if i == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
            }
            cairo_stroke(cr)
        }
        cairo_set_dash(cr, nil, 0, 0)
        if report.request.view.showMean {
            for p in daily {
                cairo_arc(cr, x(p.day, in: plot), scale.y(p.bpm, in: plot), 0.8, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
        // Glyphs where they tell the writer without colour: every point when few, else a staggered few per writer
        // (so two writers' glyphs seldom meet), a point alone, the last; a provisional value always, hollow.
        let stride = days <= Self.everyPointDays ? 1 : max(2, (days + 23) / 24)
        let phase = report.series.isEmpty ? 0 : position * stride / report.series.count
        let provisionalDays = Set(daily.filter(\.provisional).map(\.day))
        let present = Set(line.map(\.day))
        for (i, p) in line.enumerated() {
            let alone = !present.contains(p.day.adding(days: -1)) && !present.contains(p.day.adding(days: 1))
            let offset = from.distance(to: p.day)
            guard provisionalDays.contains(p.day) || alone || i == line.count - 1 || (offset + phase) % stride == 0 else { continue }
            let glyph = provisionalDays.contains(p.day) ? series.provisionalGlyph : series.glyph
            text.drawGlyph(glyph, size: Self.glyphSize, at: x(p.day, in: plot), scale.y(p.bpm, in: plot), on: cr)
        }
        // A provisional day value under a mean line: its hollow glyph where the value is.
        if report.request.view.showMean {
            for p in daily where p.provisional {
                text.drawGlyph(series.provisionalGlyph, size: Self.glyphSize, at: x(p.day, in: plot),
                               scale.y(p.bpm, in: plot), on: cr)
            }
        }
    }

    /// R6: a day with out-of-range samples gets an `×` in its writer's ink at the foot of the plot, stacked when
    /// several writers have one that day.
    private func drawOutOfRange(_ writers: [Int], _ plot: Box, on cr: OpaquePointer, text: ReportText) {
        var stacked: [LocalDay: Int] = [:]
        for series in writers.map({ report.series[$0] }) {
            ReportInk.of(number: series.number).use(on: cr)
            for v in series.values where v.outOfRange > 0 && v.day >= from && v.day <= to {
                let level = stacked[v.day, default: 0]
                stacked[v.day] = level + 1
                text.drawGlyph(report.outOfRangeGlyph, size: Self.glyphSize, at: x(v.day, in: plot),
                               plot.bottom - 4 - 7 * Double(level), on: cr)
            }
        }
    }

    /// Runs of consecutive days in `days` (sorted): the stretches a line joins.
    private func runs(_ days: [LocalDay]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for i in days.indices where i > 0 && days[i] != days[i - 1].adding(days: 1) {
            out.append(start..<i)
            start = i
        }
        if !days.isEmpty { out.append(start..<days.count) }
        return out
    }
}
