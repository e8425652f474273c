import RHRCore
import RHRScreen

/// One column per visible writer, headed by store and writer (HealthKit: the source name; Health Connect: the
/// app and package name), one row per day around the cursor, each cell the day's value with its flags. Every
/// writer stays reachable: columns narrow before any is left out, then scroll sideways (`<` `>`), and while
/// some are out of view a line at the bottom gives every writer's value on the cursor day.
enum ColumnsView {
    struct Model {
        /// The values, looked up per writer and day.
        var index: DashboardIndex
        /// Indexes of the writers shown, in order.
        var visible: [Int]
        var aggregation: Aggregation
        var cursor: PaneCursor
        /// The rows reach no earlier than this day, and no later than `lastDay`.
        var firstDay: LocalDay
        var lastDay: LocalDay
        /// The first of `visible` in view when they do not all fit.
        var scroll: Int
    }

    static let wideDate = 17
    static let shortDate = 12
    static let minColumn = 12
    /// The narrowest column: "57.5 po" and a space.
    static let compactColumn = 8
    /// Spare width widens a column up to this; a heading that needs more gets what it needs.
    static let maxColumn = 30
    /// A heading asks for no more than this: a longer name is cut in any table, so it does not push the detail
    /// pane from beside the columns.
    static let widestHeading = 60

    /// How the pane's width is shared: the date column, then a column for each writer in `shown`.
    struct Columns: Equatable {
        var dateWidth: Int
        /// The width of each writer's column in view (its cells and the blank column after them).
        var widths: [Int]
        /// The writers in view, as indexes into `visible`.
        var shown: Range<Int>
        /// Columns narrower than `minColumn`: short headings, short dates.
        var compact: Bool

        /// Where the `k`th column in view starts, from the pane's left edge.
        func x(_ k: Int) -> Int { dateWidth + widths.prefix(k).reduce(0, +) }
    }

    /// The width each visible writer's column needs for its heading whole (number, glyph and name; store;
    /// package or bundle id) and a blank column after: what `columns` shares the pane by. Each text is measured
    /// once and no further than `limit` columns (`FittedName`), so a long name costs what a line holds. The number
    /// before the glyph is counted in ASCII too (where the glyph is the number), so both share the width alike.
    static func headingWidths(_ model: Model, limit: Int, glyphs g: Glyphs) -> [Int] {
        model.visible.map { w in
            let writer = model.index.writers[w], slot = model.index.slots[w]
            let lead = (slot >= 9 ? 0 : DisplayWidth.of("\(slot + 1) ")) + 2
            var widths = [lead + FittedName(g.shortName(writer), limit: limit).width, DisplayWidth.of(writer.store.displayName)]
            if let identifier = identifier(writer) { widths.append(FittedName(g.text(identifier), limit: limit).width) }
            return min(widestHeading, max(minColumn, widths.max()! + 1))
        }
    }

    /// The third heading row: a Health Connect writer's package, a HealthKit live feed's bundle id.
    static func identifier(_ writer: Writer) -> String? {
        writer.store == .healthConnect ? writer.name : writer.bundleIdentifier
    }

    /// The pane's width shared among columns that need `needs` (`headingWidths`): every heading whole when they
    /// fit, spare width spread up to `maxColumn`; else the narrow headings whole and the rest sharing what is
    /// left evenly; then compact columns; then compact columns that scroll sideways from `scroll`.
    static func columns(needs: [Int], width: Int, scroll: Int) -> Columns {
        let count = needs.count
        guard count > 0 else { return Columns(dateWidth: wideDate, widths: [], shown: 0..<0, compact: false) }
        let room = width - wideDate
        if count * minColumn <= room {
            var widths = share(needs, room)
            // What no heading needs widens the narrow columns, so the table does not huddle at the left.
            let narrow = widths.indices.filter { widths[$0] < maxColumn }
            let more = narrow.isEmpty ? 0 : (room - widths.reduce(0, +)) / narrow.count
            for k in narrow { widths[k] = min(maxColumn, widths[k] + more) }
            return Columns(dateWidth: wideDate, widths: widths, shown: 0..<count, compact: false)
        }
        let avail = width - shortDate
        if count * compactColumn <= avail {
            return Columns(dateWidth: shortDate, widths: Array(repeating: min(minColumn - 1, avail / count), count: count),
                           shown: 0..<count, compact: true)
        }
        let shown = max(1, avail / compactColumn)
        let first = min(max(0, scroll), count - shown)
        return Columns(dateWidth: shortDate, widths: Array(repeating: compactColumn, count: shown),
                       shown: first..<(first + shown), compact: true)
    }

    /// `room` shared by columns that need `needs`: those needing less than an even share get their need, the
    /// others share the rest evenly (the leftmost get the odd columns).
    static func share(_ needs: [Int], _ room: Int) -> [Int] {
        var widths = needs
        var left = room
        var open = needs.indices.sorted { needs[$0] < needs[$1] }
        while let k = open.first, needs[k] * open.count <= left {
            left -= needs[k]
            open.removeFirst()
        }
        for (i, k) in open.sorted().enumerated() { widths[k] = left / open.count + (i < left % open.count ? 1 : 0) }
        return widths
    }

    /// The natural width of the pane: the date column and every heading whole.
    static func wholeWidth(_ needs: [Int]) -> Int { wideDate + needs.reduce(0, +) }

    /// The largest useful scroll for columns that need `needs` in a pane `width` wide.
    static func maxScroll(needs: [Int], width: Int) -> Int {
        columns(needs: needs, width: width, scroll: .max).shown.lowerBound
    }

    /// "58 p", "57.5 o", "— x2": the value and its flags (`DayFlag`, the letters `rhr summary` shows), with how
    /// many samples a counted flag marks.
    static func cell(_ value: DayValue?, glyphs: Glyphs, compact: Bool = false) -> (number: String, flags: String) {
        guard let value else { return ("", "") }
        let number = value.bpm == nil ? glyphs.emDash : value.bpmText
        return (number, DayFlag.cell(value, counts: true, separator: compact ? "" : " "))
    }

    /// Where the day rows are: the first row's day, its screen row and how many rows there are.
    struct DayRows {
        var first: LocalDay
        var top: Int
        var count: Int
        /// Rows at the bottom for the flags' meaning or the cursor day's values.
        var footer: Int
    }

    /// Writer, store, and a row for packages and bundle ids when one of the writers in view has one (never in
    /// compact columns, which have no room for them); fewer when the pane is short.
    static func headingRows(_ rect: Rect, _ model: Model, columns: Columns) -> Int {
        let identifiers = !columns.compact && model.visible[columns.shown].contains { identifier(model.index.writers[$0]) != nil }
        return rect.height >= 8 && identifiers ? 3 : min(2, rect.height)
    }

    static func dayRows(_ model: Model, in rect: Rect, columns: Columns) -> DayRows {
        let heading = headingRows(rect, model, columns: columns)
        var footer = rect.height >= 6 ? 1 : 0
        if columns.shown.count < model.visible.count { footer = min(2, max(footer, rect.height - heading - 1)) }
        let rows = max(0, rect.height - heading - footer)
        var first = model.cursor.day.adding(days: -(rows - 1) / 2)
        // Rows end with the data (or the cursor, past it): no column of empty days after the last value.
        let lastAllowed = model.lastDay.adding(days: -(rows - 1))
        if first > lastAllowed { first = lastAllowed }
        if first < model.firstDay { first = model.firstDay }
        return DayRows(first: first, top: rect.y + heading, count: rows, footer: footer)
    }

    /// The day on screen row `y`, if a day row is there.
    static func day(atRow y: Int, _ model: Model, in rect: Rect, columns: Columns) -> LocalDay? {
        let rows = dayRows(model, in: rect, columns: columns)
        guard y >= rows.top, y < rows.top + rows.count else { return nil }
        let day = rows.first.adding(days: y - rows.top)
        return day <= model.lastDay ? day : nil
    }

    /// Draws the pane in `rect`, its width shared as `layout` says (`DashboardLayout` works it out once).
    static func draw(_ model: Model, in rect: Rect, columns layout: Columns, glyphs g: Glyphs,
                     on buffer: inout ScreenBuffer) {
        buffer.fill(rect)
        let index = model.index
        let visible = model.visible
        let dateWidth = layout.dateWidth
        let shownWriters = Array(visible[layout.shown])

        // Headings: writer, store, and (Health Connect) the package or (HealthKit live feed) the bundle id;
        // fewer rows when the pane is short.
        let headingRows = headingRows(rect, model, columns: layout)
        let heading = Rect(x: rect.x, y: rect.y, width: rect.width, height: headingRows)
        buffer.write(" Per source", x: rect.x, y: rect.y, style: model.cursor.focused ? .focusedTitle : .bold, clip: heading)
        buffer.write(" " + model.aggregation.rawValue, x: rect.x, y: rect.y + 1, style: .muted, clip: heading)
        if layout.shown.count < visible.count {
            // How many writers are out of view on each side, and the keys that bring them.
            let before = layout.shown.lowerBound, after = visible.count - layout.shown.upperBound
            let text = "\(before > 0 ? "\(g.moreLeft)\(before)" : "") \(after > 0 ? "\(after)\(g.moreRight)" : "")"
            let y = rect.y + max(0, headingRows - 1)
            let x = rect.x + dateWidth - 1 - DisplayWidth.of(text)
            buffer.write(text, x: x, y: y, style: .title, clip: Rect(x: rect.x, y: y, width: dateWidth - 1, height: 1))
        }
        for (k, w) in shownWriters.enumerated() {
            let writer = index.writers[w]
            let x = rect.x + layout.x(k), columnWidth = layout.widths[k]
            let cellClip = Rect(x: x, y: rect.y, width: columnWidth - 1, height: heading.height)
            // In ASCII the glyph is the writer's number.
            let slot = index.slots[w]
            let number = layout.compact || slot >= 9 || !g.unicode ? "" : "\(slot + 1) "
            var used = buffer.write(number, x: x, y: rect.y, style: .muted, clip: cellClip)
            used += buffer.write(String(g.series(slot)) + " ", x: x + used, y: rect.y, style: .series(slot), clip: cellClip)
            buffer.write(TextFit.truncate(g.shortName(writer), columnWidth - 1 - used, ellipsis: g.ellipsis),
                         x: x + used, y: rect.y, style: .bold, clip: cellClip)
            let identifier = identifier(writer)
            var lines = [layout.compact ? (writer.store == .healthKit ? "HK" : "HC") : writer.store.displayName]
            if let identifier, !layout.compact {
                if headingRows >= 3 { lines.append(g.text(identifier)) } else { lines[0] += " \(g.dot) " + g.text(identifier) }
            }
            for (i, line) in lines.prefix(headingRows - 1).enumerated() {
                buffer.write(TextFit.truncate(line, columnWidth - 1, ellipsis: g.ellipsis), x: x, y: rect.y + 1 + i,
                             style: .muted, clip: cellClip)
            }
        }

        // Day rows, the cursor in the middle; a row for the flags' meaning at the bottom when there is room.
        let rows = dayRows(model, in: rect, columns: layout)
        for r in 0..<rows.count {
            let day = rows.first.adding(days: r)
            let y = rows.top + r
            let isCursor = day == model.cursor.day
            guard day <= model.lastDay else { continue }
            let rowRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            buffer.write(isCursor ? String(g.cursorRow) : " ", x: rect.x, y: y, style: .title, clip: rowRect)
            let date = layout.compact ? "\(DayText.weekdays[day.weekday]) \(day.day < 10 ? " " : "")\(day.shortText)"
                : DayText.long(day, padded: true)
            buffer.write(date, x: rect.x + 1, y: y, style: day == model.cursor.today ? .bold : .plain, clip: rowRect)
            // A live update's day, marked right after the date until the next key.
            if model.cursor.changedDays.contains(day) {
                buffer.put(g.changed, x: rect.x + dateWidth - 1, y: y, style: .title, clip: rowRect)
            }
            for (k, w) in shownWriters.enumerated() {
                let x = rect.x + layout.x(k), columnWidth = layout.widths[k]
                let value = index.value(writer: w, day: day, aggregation: model.aggregation)
                let (number, flags) = cell(value, glyphs: g, compact: layout.compact)
                let clip = Rect(x: x, y: y, width: columnWidth - 1, height: 1)
                let used = buffer.write(TextFit.padLeft(number, layout.compact ? 4 : 5), x: x, y: y, style: .plain, clip: clip)
                if !flags.isEmpty { buffer.write(" " + flags, x: x + used, y: y, style: .muted, clip: clip) }
            }
            if isCursor {
                buffer.restyle(Rect(x: rect.x + 1, y: y, width: rect.width - 1, height: 1)) { $0.with(.reverse) }
            }
        }
        guard rows.footer > 0 else { return }
        let footer = Rect(x: rect.x, y: rect.maxY - rows.footer, width: rect.width, height: rows.footer)
        if layout.shown.count < visible.count {
            drawCursorDay(model, in: footer, glyphs: g, on: &buffer)
        } else {
            // The flags' key; what the last two mean where it fits.
            let key = DayFlag.key(dot: g.dot), noted = key + " (\(DayFlag.implausibleDate.note))"
            let text = DisplayWidth.of(noted) <= rect.width - 2 ? noted : key
            buffer.write(" " + TextFit.truncate(text, rect.width - 2, ellipsis: g.ellipsis), x: rect.x, y: footer.y,
                         style: .muted, clip: footer.row(0))
        }
    }

    /// Every visible writer's value on the cursor day (those with samples that day), for when not all their
    /// columns are in view.
    static func drawCursorDay(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        var items: [[Span]] = [[Span("\(g.cursorRow) \(model.cursor.day.shortText):", .title)]]
        for w in model.visible {
            guard let value = model.index.value(writer: w, day: model.cursor.day, aggregation: model.aggregation) else { continue }
            let (number, flags) = cell(value, glyphs: g, compact: true)
            let slot = model.index.slots[w]
            items.append([Span(String(g.series(slot)), .series(slot)), Span(" " + number + (flags.isEmpty ? "" : " " + flags))])
        }
        if items.count == 1 { items.append([Span("no values", .muted)]) }
        for (row, line) in Flow.lines(items, width: rect.width - 1, gap: 2, indent: 1, firstIndent: 1, ellipsis: g.ellipsis).prefix(rect.height)
            .enumerated() {
            buffer.drawRow(line, in: rect, row: row)
        }
    }
}
