import RHRCore
import RHRScreen

/// `render(state, size) -> ScreenBuffer`: the whole screen from the state, no terminal involved.
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
        let ctx = RenderContext(state, size: size)
        if ctx.layout.isTooSmall {
            TooSmallView.draw(state, in: &buffer)
            return
        }
        if state.overlay == .help {
            HelpView.draw(ctx, in: &buffer)
            return
        }
        HeaderView.draw(ctx, in: &buffer)
        if case .resting = state.index.diagnosis, state.index.hasResting {
            NoticesView.draw(ctx, in: &buffer)
            ChartView.draw(ctx, in: &buffer)
            ColumnsView.draw(ctx, in: &buffer)
            if let divider = ctx.layout.divider {
                for y in divider.y..<divider.maxY { buffer.put(ctx.glyphs.vertical, x: divider.x, y: y, style: .muted) }
            }
            DetailView.draw(ctx, in: &buffer)
        } else {
            EmptyStateView.draw(ctx, in: &buffer)
        }
        FooterView.draw(ctx, in: &buffer)
    }
}
