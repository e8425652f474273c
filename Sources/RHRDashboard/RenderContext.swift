import RHRCore
import RHRScreen

/// What every view needs while drawing one frame: the state, the glyphs, the layout and the chart window.
struct RenderContext {
    let state: DashboardState
    let glyphs: Glyphs
    let layout: DashboardLayout
    let notices: [String]

    init(_ state: DashboardState, size: TerminalSize) {
        self.state = state
        self.glyphs = Glyphs(unicode: state.capabilities.unicode)
        self.notices = state.index.notices(today: state.today)
        self.layout = DashboardLayout(size: size, noticeCount: notices.count, focus: state.focus,
                                      writerCount: state.index.writers.count, showContext: state.showContext)
    }

    var index: DashboardIndex { state.index }

    /// The chart window at this frame's plot width.
    var window: ChartWindow { ChartWindow(state, width: layout.plot.width) }

    func text(_ s: String) -> String { glyphs.text(s) }

    func seriesStyle(_ writerIndex: Int) -> Style { Style(tint: .series(writerIndex)) }

    /// "Jane’s Apple Watch", "Oura": the short name for legends and column headings.
    func shortName(_ writer: Writer) -> String {
        switch writer.store {
        case .healthKit: return text(writer.name)
        case .healthConnect: return text(writer.appName.flatMap { $0.isEmpty ? nil : $0 } ?? writer.name)
        }
    }

    /// Draws `line` in one row of `rect`, first filling the row with blanks.
    func drawRow(_ line: StyledLine, _ rect: Rect, _ row: Int, in buffer: inout ScreenBuffer) {
        let r = rect.row(row)
        guard !r.isEmpty else { return }
        buffer.fill(r)
        line.draw(in: &buffer, x: r.x, y: r.y, clip: r)
    }

    /// Left and right text in one row; the left side is cut when both do not fit.
    func drawRow(left: [Span], right: [Span], _ rect: Rect, _ row: Int, in buffer: inout ScreenBuffer) {
        let r = rect.row(row)
        guard !r.isEmpty else { return }
        buffer.fill(r)
        let rightWidth = right.reduce(0) { $0 + $1.width }
        let leftWidth = left.reduce(0) { $0 + $1.width }
        let showRight = rightWidth + 2 <= r.width && (leftWidth + 2 + rightWidth <= r.width || rightWidth * 2 <= r.width)
        let leftClip = Rect(x: r.x, y: r.y, width: showRight ? r.width - rightWidth - 2 : r.width, height: 1)
        var x = r.x
        for span in left { x += buffer.write(span.text, x: x, y: r.y, style: span.style, clip: leftClip) }
        if leftWidth > leftClip.width, leftClip.width > 0 {
            buffer.write(glyphs.ellipsis, x: leftClip.maxX - 1, y: r.y, style: .dim, clip: leftClip)
        }
        if showRight {
            var rx = r.maxX - rightWidth
            for span in right { rx += buffer.write(span.text, x: rx, y: r.y, style: span.style, clip: r) }
        }
    }
}

/// Styles with meaning only as emphasis, never as judgement (R11).
extension Style {
    static let title = Style(tint: .accent, .bold)
    static let muted = Style(tint: .muted)
    static let accent = Style(tint: .accent)
    static let context = Style(tint: .context)
}
