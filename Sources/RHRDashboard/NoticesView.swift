import RHRScreen

/// Notes under the header: a store with heart rate but no resting writer (R9), Health Connect limits (R10).
enum NoticesView {
    static func draw(_ ctx: RenderContext, in buffer: inout ScreenBuffer) {
        let rect = ctx.layout.notices
        guard !rect.isEmpty else { return }
        buffer.fill(rect)
        let shown = ctx.notices.prefix(rect.height)
        for (row, note) in shown.enumerated() {
            var text = ctx.text(note)
            if row == rect.height - 1 && ctx.notices.count > rect.height {
                text = "(\(ctx.notices.count - rect.height + 1) notes, all in ? help) " + text
            }
            let line = TextFit.truncate(text, rect.width - 3, ellipsis: ctx.glyphs.ellipsis)
            ctx.drawRow(StyledLine([Span(" \(ctx.glyphs.dot) ", .muted), Span(line, .muted)]), rect, row, in: &buffer)
        }
    }
}
