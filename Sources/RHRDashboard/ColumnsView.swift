import RHRCore
import RHRScreen

/// One column per visible writer, headed by store and writer (HealthKit: the source name; Health Connect: the
/// app and package name), one row per day around the cursor, each cell the day's value with its flags.
enum ColumnsView {
    struct Model {
        /// The values, looked up per writer and day.
        var index: DashboardIndex
        /// Indexes of the writers shown, in order.
        var visible: [Int]
        var aggregation: Aggregation
        var cursor: LocalDay
        var today: LocalDay
        /// The rows reach no earlier than this day, and no later than `lastDay`.
        var firstDay: LocalDay
        var lastDay: LocalDay
        /// Days a live update just changed.
        var changedDays: Set<LocalDay>
        var focused: Bool
    }

    static let dateWidth = 17
    static let minColumn = 12
    static let maxColumn = 30

    /// "58 p", "57.5 o", "— x2": the value and the flags p (provisional), o (offset assumed), x (out of range).
    static func cell(_ value: DayValue?, glyphs: Glyphs) -> (number: String, flags: String) {
        guard let value else { return ("", "") }
        var flags: [String] = []
        if value.provisional { flags.append("p") }
        if value.offsetAssumed { flags.append("o") }
        if value.outOfRange > 0 { flags.append(value.outOfRange == 1 ? "x" : "x\(value.outOfRange)") }
        let number = value.bpm == nil ? glyphs.emDash : value.bpmText
        return (number, flags.joined(separator: " "))
    }

    static func draw(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        buffer.fill(rect)
        let index = model.index
        let visible = model.visible
        let focused = model.focused

        var avail = rect.width - dateWidth
        // Room for "+2 more" when not every writer fits.
        if visible.count * minColumn > avail { avail -= 9 }
        let shown = visible.isEmpty ? 0 : min(visible.count, max(1, avail / minColumn))
        let columnWidth = shown == 0 ? 0 : min(maxColumn, avail / shown)
        let more = visible.count - shown

        // Headings: writer, store, and (Health Connect) the package or (HealthKit live feed) the bundle id;
        // two rows when the pane is short.
        let headingRows = rect.height >= 8 ? 3 : min(2, rect.height)
        let heading = Rect(x: rect.x, y: rect.y, width: rect.width, height: headingRows)
        buffer.write(" Per source", x: rect.x, y: rect.y, style: focused ? .title : .bold, clip: heading)
        buffer.write(" " + model.aggregation.rawValue, x: rect.x, y: rect.y + 1, style: .muted, clip: heading)
        for (k, w) in visible.prefix(shown).enumerated() {
            let writer = index.writers[w]
            let x = rect.x + dateWidth + k * columnWidth
            let cellClip = Rect(x: x, y: rect.y, width: columnWidth - 1, height: heading.height)
            let name = "\(w < 9 ? "\(w + 1) " : "")"
            var used = buffer.write(name, x: x, y: rect.y, style: .muted, clip: cellClip)
            used += buffer.write(String(g.series(w)) + " ", x: x + used, y: rect.y, style: .series(w), clip: cellClip)
            buffer.write(TextFit.truncate(g.shortName(writer), columnWidth - 1 - used, ellipsis: g.ellipsis),
                         x: x + used, y: rect.y, style: .bold, clip: cellClip)
            let identifier: String? = writer.store == .healthConnect ? writer.name : writer.bundleIdentifier
            var lines = [writer.store.displayName]
            if let identifier {
                if headingRows >= 3 { lines.append(g.text(identifier)) } else { lines[0] += " \(g.dot) " + g.text(identifier) }
            }
            for (i, line) in lines.prefix(headingRows - 1).enumerated() {
                buffer.write(TextFit.truncate(line, columnWidth - 1, ellipsis: g.ellipsis), x: x, y: rect.y + 1 + i,
                             style: .muted, clip: cellClip)
            }
        }
        if more > 0 {
            let note = "+\(more) more"
            buffer.write(note, x: rect.maxX - DisplayWidth.of(note) - 1, y: rect.y, style: .muted, clip: heading)
        }

        // Day rows, the cursor in the middle; a row for the flags' meaning at the bottom when there is room.
        let legendRows = rect.height >= 6 ? 1 : 0
        let rows = max(0, rect.height - heading.height - legendRows)
        guard rows > 0 else { return }
        var first = model.cursor.adding(days: -(rows - 1) / 2)
        // Rows end with the data (or the cursor, past it): no column of empty days after the last value.
        let lastRow = model.lastDay
        let lastAllowed = lastRow.adding(days: -(rows - 1))
        if first > lastAllowed { first = lastAllowed }
        if first < model.firstDay { first = model.firstDay }
        for r in 0..<rows {
            let day = first.adding(days: r)
            let y = rect.y + heading.height + r
            let isCursor = day == model.cursor
            guard day <= lastRow else { continue }
            let rowRect = Rect(x: rect.x, y: y, width: rect.width, height: 1)
            buffer.write(isCursor ? String(g.cursorRow) : " ", x: rect.x, y: y, style: .title, clip: rowRect)
            buffer.write(DayText.long(day, padded: true), x: rect.x + 1, y: y,
                         style: day == model.today ? .bold : .plain, clip: rowRect)
            // A live update's day, marked right after the date until the next key.
            if model.changedDays.contains(day) {
                buffer.put(g.changed, x: rect.x + dateWidth - 1, y: y, style: .title, clip: rowRect)
            }
            for (k, w) in visible.prefix(shown).enumerated() {
                let x = rect.x + dateWidth + k * columnWidth
                let value = index.value(writer: w, day: day, aggregation: model.aggregation)
                let (number, flags) = cell(value, glyphs: g)
                let clip = Rect(x: x, y: y, width: columnWidth - 1, height: 1)
                let used = buffer.write(TextFit.padLeft(number, 5), x: x, y: y, style: .plain, clip: clip)
                if !flags.isEmpty { buffer.write(" " + flags, x: x + used, y: y, style: .muted, clip: clip) }
            }
            if isCursor {
                buffer.restyle(Rect(x: rect.x + 1, y: y, width: rect.width - 1, height: 1)) { $0.with(.reverse) }
            }
        }
        if legendRows > 0 {
            let y = rect.maxY - 1
            let text = "p provisional \(g.dot) o offset assumed \(g.dot) x out of range (kept, not in the value)"
            buffer.write(" " + TextFit.truncate(text, rect.width - 2, ellipsis: g.ellipsis), x: rect.x, y: y,
                         style: .muted, clip: Rect(x: rect.x, y: y, width: rect.width, height: 1))
        }
    }
}
