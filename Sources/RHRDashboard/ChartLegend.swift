import RHRCore
import RHRScreen

/// Where the legend's entries go: every writer, grouped by store (R1), and after them the markers' meanings
/// where there is room. A writer is never dropped: names are cut (ending in "…") and, when even that does not
/// fit, an entry is its number and glyph only. The writers' places depend only on the writers and the
/// rectangle, so a click can be matched to an entry without drawing.
struct ChartLegend {
    /// One writer in the legend.
    struct Writer {
        var store: HealthStore
        var name: String
        var visible: Bool
        /// Its number less one, glyph and colour (`DashboardIndex.slots`).
        var slot: Int
        /// With many writers in view, the one drawn in full and the dimmed others (`ChartView.fullWriters`).
        var emphasis: Emphasis = .plain
        /// What its number is, in a short phrase (`Derivation.short`, R15): said where the legend has room.
        var derivation = ""
    }

    enum Emphasis {
        case plain, focused, dimmed
    }

    /// An entry placed on a row, relative to the legend's rectangle.
    struct Placed {
        var row: Int
        var x: Int
        var spans: [Span]
        /// The writer it stands for; nil for a marker.
        var writer: Int?
        var width: Int { spans.reduce(0) { $0 + $1.width } }
    }

    private(set) var entries: [Placed] = []

    static let gap = 2

    /// The writers laid out in `rect` on `writerRows` rows (by default all but the last when there are two or more,
    /// which is kept for the markers), then `markers` wherever they still fit.
    init(writers: [Writer], markers: [[Span]], in rect: Rect, writerRows: Int? = nil, glyphs g: Glyphs) {
        guard rect.width > 2, rect.height > 0 else { return }
        // One column of margin at the left.
        let width = rect.width - 1
        let writerRows = writerRows.map { max(1, min($0, rect.height)) } ?? (rect.height >= 2 ? rect.height - 1 : 1)
        // Each name measured once, as far as a line can show; every layout below cuts from that.
        // A marker wider than a line never shows (a writer in full with a name of that length): it asks for no row.
        let markers = markers.filter { $0.reduce(0) { $0 + $1.width } <= width - 1 }
        let names = writers.map { FittedName($0.name, limit: width) }
        var items = Self.items(writers, names: names, nameWidth: nil, lineWidth: width, glyphs: g)
        var rows = Self.flow(items, width: width)
        if rows.count > writerRows {
            // The widest cut of every name that keeps the writers on their rows, found by halving: fewer columns
            // a name never takes more rows. Below 5 columns a name says nothing: the compact form instead.
            var fits = 4, tooWide = names.map(\.width).max() ?? 0
            while tooWide - fits > 1 {
                let middle = (fits + tooWide) / 2
                let cut = Self.items(writers, names: names, nameWidth: middle, lineWidth: width, glyphs: g)
                if Self.flow(cut, width: width).count <= writerRows { fits = middle } else { tooWide = middle }
            }
            if fits >= 5 {
                items = Self.items(writers, names: names, nameWidth: fits, lineWidth: width, glyphs: g)
            } else {
                items = Self.items(writers, names: names, nameWidth: nil, compact: true, lineWidth: width, glyphs: g)
            }
            rows = Self.flow(items, width: width)
        }
        for (r, row) in rows.prefix(rect.height).enumerated() {
            for (x, i) in row { entries.append(Placed(row: r, x: 1 + x, spans: items[i], writer: i)) }
        }
        // Markers after the last writer, on its row when there is room, then on the rows below.
        var row = max(0, min(rows.count, rect.height) - 1)
        var x = entries.last.map { $0.x + $0.width + Self.gap + 1 } ?? 1
        for marker in markers {
            let w = marker.reduce(0) { $0 + $1.width }
            if x + w > rect.width {
                row += 1
                x = 1
            }
            guard row < rect.height, x + w <= rect.width else { break }
            entries.append(Placed(row: row, x: x, spans: marker, writer: nil))
            x += w + Self.gap + 1
        }
    }

    /// The rows a legend `width` wide takes with every name whole and every marker in (at most `limit`), and how
    /// many of them the writers take. A name a line cannot hold whole asks for no rows of its own: it is counted at
    /// a quarter of the width, and the legend cuts it to what its rows leave.
    static func rowsNeeded(writers: [Writer], markers: [[Span]], width: Int, glyphs g: Glyphs,
                           limit: Int = 5) -> (rows: Int, writerRows: Int) {
        let writers = writers.map { writer in
            var writer = writer
            if !FittedName(writer.name, limit: width - 8).isWhole { writer.name = TextFit.truncate(writer.name, width / 4, ellipsis: g.ellipsis) }
            return writer
        }
        // A marker wider than a line never shows (a writer in full with a name of that length): it asks for no row.
        let markers = markers.filter { $0.reduce(0) { $0 + $1.width } <= width - 1 }
        let names = writers.map { FittedName($0.name, limit: width) }
        let writerRows = max(1, flow(items(writers, names: names, nameWidth: nil, lineWidth: width - 1, glyphs: g), width: width - 1).count)
        for rows in writerRows..<max(writerRows, limit) {
            let legend = ChartLegend(writers: writers, markers: markers, in: Rect(x: 0, y: 0, width: width, height: rows),
                                     writerRows: writerRows, glyphs: g)
            if legend.entries.filter({ $0.writer == nil }).count == markers.count { return (rows, writerRows) }
        }
        return (max(writerRows, limit), writerRows)
    }

    /// The writer whose entry covers column `x` of row `row` (relative to the legend), if any.
    func writer(atRow row: Int, x: Int) -> Int? {
        entries.first { $0.writer != nil && $0.row == row && x >= $0.x && x < $0.x + $0.width }?.writer
    }

    /// "Health Connect: 1 ● Oura", "3 ■ Withings (hidden)", or compact "1●", "(3■)". A name is cut to `nameWidth`
    /// columns when given, and always to what is left of a line (`lineWidth`) after its entry's other parts.
    static func items(_ writers: [Writer], names: [FittedName], nameWidth: Int?, compact: Bool = false, lineWidth: Int,
                      glyphs g: Glyphs) -> [[Span]] {
        var previousStore: HealthStore?
        let ellipsisWidth = DisplayWidth.of(g.ellipsis)
        return writers.enumerated().map { i, writer in
            let w = writer.slot
            // In ASCII the glyph is the number itself: said once.
            let number = w < 9 && g.unicode ? "\(w + 1)" : ""
            var item: [Span] = []
            if writer.store != previousStore && !compact {
                item.append(Span(writer.store.displayName + ": ", .muted))
            }
            previousStore = writer.store
            let glyph = String(g.series(w))
            let glyphStyle = writer.emphasis == .dimmed ? Style.series(w).with(.dim) : .series(w)
            if compact {
                item += writer.visible ? [Span(number, .muted), Span(glyph, glyphStyle)]
                    : [Span("(\(number)\(glyph))", .muted)]
                return item
            }
            let lead = (number.isEmpty ? "" : number + " ") + glyph + " "
            let rest = writer.visible ? "" : " (hidden)"
            let room = lineWidth - item.reduce(0) { $0 + $1.width } - DisplayWidth.of(lead + rest)
            let name = names[i].text(columns: max(0, min(nameWidth ?? room, room)), ellipsis: g.ellipsis,
                                     ellipsisWidth: ellipsisWidth).text
            // The name is a span of its own: joined to the space before it, a name that starts with a combining
            // mark or a variation selector would become one character with it and take another width than measured.
            if writer.visible {
                let nameStyle: Style = writer.emphasis == .focused ? .bold : writer.emphasis == .dimmed ? .muted : .plain
                item += [Span(number.isEmpty ? "" : number + " ", .muted), Span(glyph, glyphStyle), Span(" ", nameStyle),
                         Span(name, nameStyle)]
            } else {
                item += [Span(lead, .muted), Span(name, .muted), Span(rest, .muted)]
            }
            return item
        }
    }

    /// Items placed left to right, `gap` apart, wrapping: per row, each item's x and index.
    static func flow(_ items: [[Span]], width: Int) -> [[(x: Int, index: Int)]] {
        var rows: [[(x: Int, index: Int)]] = [[]]
        var x = 0
        for (i, item) in items.enumerated() {
            let w = item.reduce(0) { $0 + $1.width }
            if x > 0 && x + gap + w > width {
                rows.append([])
                x = 0
            } else if x > 0 {
                x += gap
            }
            rows[rows.count - 1].append((x, i))
            x += w
        }
        return rows.first?.isEmpty == true ? [] : rows
    }
}
