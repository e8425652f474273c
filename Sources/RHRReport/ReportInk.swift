// How each writer's line looks on paper: its colour and its dash pattern, by its lasting number.
import CPangoCairo

/// A writer's ink on a page, chosen by its lasting number less one (`TrendReport.Series.number`, the dashboard's
/// slot), so a writer has on paper the hue it has on screen, with its glyph. The hues follow the terminal palette's
/// order (blue, gold, violet, teal, salmon, sky, khaki, orchid, cyan; none red or green, R11), darker for white
/// paper. A page printed in grey still tells writers apart: each has its own dash pattern and glyph too.
struct ReportInk {
    let red: Double, green: Double, blue: Double
    /// On, off, on, off… in points; empty: a solid line.
    let dashes: [Double]

    static let all: [ReportInk] = [
        ReportInk(red: 0.12, green: 0.38, blue: 0.68, dashes: []),
        ReportInk(red: 0.72, green: 0.50, blue: 0.00, dashes: [4, 1.6]),
        ReportInk(red: 0.46, green: 0.28, blue: 0.66, dashes: [1, 1.4]),
        ReportInk(red: 0.00, green: 0.46, blue: 0.46, dashes: [6, 1.6, 1, 1.6]),
        ReportInk(red: 0.78, green: 0.40, blue: 0.30, dashes: [8, 2.4]),
        ReportInk(red: 0.28, green: 0.55, blue: 0.80, dashes: [2, 1.6]),
        ReportInk(red: 0.52, green: 0.48, blue: 0.16, dashes: [6, 1.6, 1, 1.6, 1, 1.6]),
        ReportInk(red: 0.68, green: 0.30, blue: 0.60, dashes: [3, 1]),
        ReportInk(red: 0.20, green: 0.52, blue: 0.58, dashes: [10, 1.6, 2, 1.6]),
    ]

    /// Writer number `number`'s ink (1-based; numbers past the palette start it again, with the glyphs).
    static func of(number: Int) -> ReportInk { all[((number - 1) % all.count + all.count) % all.count] }

    static let text = (red: 0.0, green: 0.0, blue: 0.0)
    static let muted = (red: 0.33, green: 0.33, blue: 0.33)
    static let grid = (red: 0.86, green: 0.86, blue: 0.86)
    /// The usual range's fill: a quiet grey, never a colour that judges (R11).
    static let band = (red: 0.90, green: 0.90, blue: 0.90)

    func use(on cr: OpaquePointer) { cairo_set_source_rgb(cr, red, green, blue) }

    func useDashes(on cr: OpaquePointer) {
        dashes.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 0) }
    }

    static func use(_ colour: (red: Double, green: Double, blue: Double), on cr: OpaquePointer) {
        cairo_set_source_rgb(cr, colour.red, colour.green, colour.blue)
    }
}
