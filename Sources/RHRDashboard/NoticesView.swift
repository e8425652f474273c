import RHRScreen

/// Notes under the header: a store with heart rate but no resting writer (R9), Health Connect limits (R10), and
/// phone feeds whose resting values stopped (`FeedNotices`).
enum NoticesView {
    static func draw(_ notices: [String], in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        let shown = notices.prefix(rect.height)
        for (row, note) in shown.enumerated() {
            var text = glyphs.text(note)
            if row == rect.height - 1 && notices.count > rect.height {
                text = "(\(notices.count - rect.height + 1) notes, all in ? help) " + text
            }
            let line = TextFit.truncate(text, rect.width - 3, ellipsis: glyphs.ellipsis)
            buffer.drawRow(StyledLine([Span(" \(glyphs.dot) ", .muted), Span(line, .muted)]), in: rect, row: row)
        }
    }
}
