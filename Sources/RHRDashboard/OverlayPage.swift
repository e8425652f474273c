import RHRScreen

/// A page over the whole screen (the help, the comparison): a title row that says where the page is scrolled
/// to and how to close it, the lines, and a last row that stays in view however far the page is scrolled.
enum OverlayPage {
    /// How far `lineCount` lines can scroll on a screen of `size`.
    static func maxScroll(lineCount: Int, size: TerminalSize) -> Int {
        max(0, lineCount - max(0, size.height - 2))
    }

    /// A page whose last row is a muted note, cut to the screen's width (the comparison's, the derivations').
    static func draw(_ lines: [StyledLine], title: String, closes: String, scroll: Int, note: String, glyphs g: Glyphs,
                     on buffer: inout ScreenBuffer) {
        draw(lines, title: title, closes: closes, scroll: scroll,
             lastRow: StyledLine(" " + TextFit.truncate(note, buffer.width - 2, ellipsis: g.ellipsis), .muted),
             glyphs: g, on: &buffer)
    }

    static func draw(_ lines: [StyledLine], title: String, closes: String, scroll: Int, lastRow: StyledLine,
                     glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        let rect = buffer.bounds
        buffer.fill(rect)
        guard rect.height >= 3 else { return }
        let body = Rect(x: 0, y: 1, width: rect.width, height: rect.height - 2)
        let maxScroll = max(0, lines.count - body.height)
        let scroll = min(scroll, maxScroll)
        let left = [Span(" rhr ", .title), Span("  " + title, .bold)]
        // How to close it always shows; where the page is and how to scroll it when there is room.
        var rights = [closes + " "]
        if maxScroll > 0 {
            let position = "lines \(scroll + 1)\(g.dash)\(min(lines.count, scroll + body.height)) of \(lines.count) \(g.dot) "
            rights.insert(position + closes + " ", at: 0)
            rights.insert(position + "\(g.unicode ? "↑↓" : "j k") PgUp PgDn \(g.dot) " + closes + " ", at: 0)
        }
        let room = rect.width - StyledLine(left).width - 2
        let right = rights.first { DisplayWidth.of($0) <= room } ?? rights.last!
        buffer.drawRow(left: left, right: [Span(right, .muted)], in: rect, row: 0, ellipsis: g.ellipsis)
        for (row, line) in lines.dropFirst(scroll).prefix(body.height).enumerated() {
            line.draw(in: &buffer, x: body.x, y: body.y + row, clip: body)
        }
        buffer.drawRow(lastRow, in: rect, row: rect.height - 1)
    }
}
