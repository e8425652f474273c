import RHRCore
import RHRScreen

/// `render(state, size) -> ScreenBuffer`: the whole screen from the state, no terminal involved. The layout
/// gives each view its rectangle, the state its input (`ViewInputs.swift`).
public enum DashboardRenderer {
    public static func render(_ state: DashboardState, size: TerminalSize) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        render(state, into: &buffer)
        return buffer
    }

    /// Draws every cell of `buffer` (tests fill it with a sentinel first to prove that).
    public static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let size = buffer.size
        guard size.width > 0 && size.height > 0 else { return }
        let glyphs = Glyphs(state.capabilities)
        let notices = state.notices()
        let layout = DashboardLayout(state, size: size, noticeCount: notices.count)
        if layout.isTooSmall {
            TooSmallView.draw(glyphs: glyphs, on: &buffer)
            return
        }
        if state.overlay == .help {
            HelpView.draw(HelpView.Model(state, notices: state.notices(whole: true)), glyphs: glyphs, on: &buffer)
            return
        }
        if state.overlay == .comparison {
            ComparisonView.draw(ComparisonView.Model(state), glyphs: glyphs, on: &buffer)
            return
        }
        if state.overlay == .derivations {
            DerivationsView.draw(DerivationsView.Model(index: state.index, scroll: state.helpScroll), glyphs: glyphs, on: &buffer)
            return
        }
        HeaderView.draw(HeaderView.Model(state), in: layout.header, glyphs: glyphs, on: &buffer)
        if state.content == .words {
            EmptyStateView.draw(EmptyStateView.Model(state, notices: notices), in: layout.body, glyphs: glyphs,
                                on: &buffer)
        } else {
            NoticesView.draw(notices, in: layout.notices, glyphs: glyphs, on: &buffer)
            ChartView.draw(ChartView.Model(state, plotWidth: layout.chart.plot.width, glyphs: glyphs), in: layout.chart,
                           glyphs: glyphs, on: &buffer)
            if let rect = layout.columns {
                ColumnsView.draw(ColumnsView.Model(state), in: rect, columns: layout.columnPlan, glyphs: glyphs, on: &buffer)
            }
            if let divider = layout.divider {
                for y in divider.y..<divider.maxY { buffer.put(glyphs.vertical, x: divider.x, y: y, style: .muted) }
            }
            if let rect = layout.detail {
                DetailView.draw(DetailView.Model(state), in: rect, glyphs: glyphs, on: &buffer)
            }
            if let spare = layout.spare { buffer.fill(spare) }
        }
        if let rect = layout.message, let message = state.message {
            FooterView.drawMessage(message, in: rect, glyphs: glyphs, on: &buffer)
        }
        FooterView.draw(FooterView.Model(state), in: layout.footer, glyphs: glyphs, on: &buffer)
    }
}
