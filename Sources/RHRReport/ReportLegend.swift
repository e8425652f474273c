// The key under each chart: each writer's line, glyph and name, then what the other marks mean.
import CPangoCairo
import RHRCore
import RHRDashboard

/// The key under a chart, flowed in rows: each writer's sample of line (ink and dashes) with its glyph, its number,
/// name and store; then the marks the report draws: the hollow glyph of a provisional value (R3), the `×` of an
/// out-of-range day (R6), the usual range and the 7-day mean when they are on.
struct ReportLegend {
    enum Sample {
        case writer(TrendReport.Series)
        case provisional([TrendReport.Series])
        case outOfRange(Character)
        case band
        case mean
    }

    struct Item {
        let sample: Sample
        let label: Paragraph
        var width: Double { ReportLegend.sampleWidth + 3 + label.width }
    }

    static let sampleWidth = 18.0
    static let size = 7.0
    static let gap = 10.0

    let rows: [[Item]]
    let rowHeight: Double

    init(_ report: TrendReport, width: Double, text: ReportText) {
        var items: [Item] = []
        // A chart of panels names each writer in its panel.
        for s in report.series where report.series.count <= TrendReport.writersInOneChart {
            items.append(Item(sample: .writer(s), label: text.layout(
                Markup.bold("\(s.number)") + " " + Markup.name(s.shortName) + " " + Markup.muted(s.store),
                size: Self.size, width: width - Self.sampleWidth - 3)))
        }
        let provisional = report.series.filter { s in s.values.contains(where: \.provisional) }
        if !provisional.isEmpty {
            items.append(Item(sample: .provisional(provisional),
                              label: text.layout(Markup.escape(DayFlag.provisional.word), size: Self.size, width: nil)))
        }
        if report.series.contains(where: { s in s.values.contains { $0.outOfRange > 0 } }) {
            items.append(Item(sample: .outOfRange(report.outOfRangeGlyph), label: text.layout(
                Markup.escape("\(DayFlag.outOfRange.word), at the foot of the chart"),
                size: Self.size, width: nil)))
        }
        if let band = report.band {
            items.append(Item(sample: .band, label: text.layout(Markup.escape("usual range of ")
                + Markup.name(report.series[band.series].shortName)
                + Markup.escape(": the middle half of its values in the 28 days ending on each day"),
                size: Self.size, width: width - Self.sampleWidth - 3)))
        }
        if report.request.view.showMean {
            items.append(Item(sample: .mean, label: text.layout(Markup.escape(
                "lines: 7-day mean (when 4 of the 7 days have a value); dots: the day values"), size: Self.size,
                width: width - Self.sampleWidth - 3)))
        }
        var rows: [[Item]] = [[]]
        var used = 0.0
        for item in items {
            if !rows[rows.count - 1].isEmpty && used + Self.gap + item.width > width {
                rows.append([])
                used = 0
            }
            used += (rows[rows.count - 1].isEmpty ? 0 : Self.gap) + item.width
            rows[rows.count - 1].append(item)
        }
        self.rows = rows.filter { !$0.isEmpty }
        rowHeight = (items.map(\.label.height).max() ?? 0) + 2
    }

    var height: Double { rows.reduce(0) { $0 + ($1.map(\.label.height).max() ?? 0) + 3 } }

    func draw(at x: Double, _ y: Double, on cr: OpaquePointer, text: ReportText) {
        var top = y
        for row in rows {
            let height = row.map(\.label.height).max() ?? 0
            var left = x
            for item in row {
                let middle = top + min(height, rowHeight) / 2
                drawSample(item.sample, x: left, y: middle, on: cr, text: text)
                ReportInk.use(ReportInk.text, on: cr)
                item.label.draw(at: left + Self.sampleWidth + 3, top, on: cr)
                left += item.width + Self.gap
            }
            top += height + 3
        }
    }

    private func drawSample(_ sample: Sample, x: Double, y: Double, on cr: OpaquePointer, text: ReportText) {
        let middle = x + Self.sampleWidth / 2
        switch sample {
        case .writer(let s):
            let ink = ReportInk.of(number: s.number)
            ink.use(on: cr)
            cairo_set_line_width(cr, 1.0)
            ink.useDashes(on: cr)
            cairo_move_to(cr, x, y)
            cairo_line_to(cr, x + Self.sampleWidth, y)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            text.drawGlyph(s.glyph, size: ReportChart.glyphSize, at: middle, y, on: cr)
        case .provisional(let writers):
            // The hollow glyphs of the first few writers that have one.
            let shown = writers.prefix(3)
            for (i, s) in shown.enumerated() {
                ReportInk.of(number: s.number).use(on: cr)
                let step = Self.sampleWidth / Double(shown.count)
                text.drawGlyph(s.provisionalGlyph, size: ReportChart.glyphSize, at: x + step * (Double(i) + 0.5), y, on: cr)
            }
        case .outOfRange(let glyph):
            ReportInk.use(ReportInk.text, on: cr)
            text.drawGlyph(glyph, size: ReportChart.glyphSize, at: middle, y, on: cr)
        case .band:
            ReportInk.use(ReportInk.band, on: cr)
            cairo_rectangle(cr, x, y - 3, Self.sampleWidth, 6)
            cairo_fill(cr)
        case .mean:
            ReportInk.use(ReportInk.muted, on: cr)
            cairo_set_line_width(cr, 1.0)
            cairo_move_to(cr, x, y)
            cairo_line_to(cr, x + Self.sampleWidth, y)
            cairo_stroke(cr)
            for dx in [3.0, 9, 15] {
                cairo_arc(cr, x + dx, y + (dx == 9 ? -2.5 : 2), 0.8, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
    }
}
