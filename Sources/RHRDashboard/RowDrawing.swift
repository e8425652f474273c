import RHRScreen

/// Whole rows of a view: the row filled with blanks first, so no cell keeps an older frame's text.
extension ScreenBuffer {
    /// Draws `line` in row `row` of `rect`.
    mutating func drawRow(_ line: StyledLine, in rect: Rect, row: Int, ellipsis: String? = nil) {
        let r = rect.row(row)
        guard !r.isEmpty else { return }
        fill(r)
        line.draw(in: &self, x: r.x, y: r.y, clip: r)
        // Cut text ends in an ellipsis, so whoever reads it sees there is more.
        if let ellipsis, line.width > r.width {
            write(ellipsis, x: r.maxX - DisplayWidth.of(ellipsis), y: r.y, style: .dim, clip: r)
        }
    }

    /// Left and right text in row `row` of `rect`; the left side is cut, ending in `ellipsis`, when both do
    /// not fit.
    mutating func drawRow(left: [Span], right: [Span], in rect: Rect, row: Int, ellipsis: String) {
        let r = rect.row(row)
        guard !r.isEmpty else { return }
        fill(r)
        let rightWidth = right.reduce(0) { $0 + $1.width }
        let leftWidth = left.reduce(0) { $0 + $1.width }
        let showRight = rightWidth + 2 <= r.width && (leftWidth + 2 + rightWidth <= r.width || rightWidth * 2 <= r.width)
        let leftClip = Rect(x: r.x, y: r.y, width: showRight ? r.width - rightWidth - 2 : r.width, height: 1)
        var x = r.x
        for span in left { x += write(span.text, x: x, y: r.y, style: span.style, clip: leftClip) }
        if leftWidth > leftClip.width, leftClip.width > 0 {
            write(ellipsis, x: leftClip.maxX - 1, y: r.y, style: .dim, clip: leftClip)
        }
        if showRight {
            var rx = r.maxX - rightWidth
            for span in right { rx += write(span.text, x: rx, y: r.y, style: span.style, clip: r) }
        }
    }
}
