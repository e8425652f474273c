import RHRScreen

/// The bottom row: the `/` prompt when it is open, else a message, else key hints from the key table.
enum FooterView {
    static func draw(_ ctx: RenderContext, in buffer: inout ScreenBuffer) {
        draw(ctx, rect: ctx.layout.footer, in: &buffer)
    }

    static func draw(_ ctx: RenderContext, rect: Rect, in buffer: inout ScreenBuffer) {
        guard !rect.isEmpty else { return }
        if case .goTo(let text) = ctx.state.overlay {
            let prompt = [Span(" Go to date: ", .title), Span(text), Span(" ", .reverse),
                          Span("   Enter go \(ctx.glyphs.dot) Esc cancel \(ctx.glyphs.dot) 2026-03-12, 2026-03, 12 Mar 2026", .muted)]
            ctx.drawRow(StyledLine(prompt), rect, 0, in: &buffer)
            return
        }
        if let message = ctx.state.message {
            ctx.drawRow(StyledLine(" " + ctx.text(message), .accent), rect, 0, in: &buffer)
            return
        }
        ctx.drawRow(StyledLine(hints(ctx, width: rect.width)), rect, 0, in: &buffer)
    }

    /// As many hints as fit; help and quit always stay.
    static func hints(_ ctx: RenderContext, width: Int) -> [Span] {
        let unicode = ctx.glyphs.unicode
        var bindings = KeyTable.bindings.filter { $0.hint != nil }
        if !ctx.index.hasResting {
            bindings = bindings.filter { [.reload, .help, .quit].contains($0.action) }
        }
        func spans(_ list: [KeyBinding]) -> [Span] {
            var out: [Span] = []
            for b in list {
                out.append(Span(" " + b.footerLabel(unicode: unicode), .bold))
                out.append(Span(" " + b.hint! + " ", .muted))
            }
            return out
        }
        var list = bindings
        // Dropped first when the row is short: the least needed to find one's way.
        let dropOrder: [DashboardAction] = [.reload, .context, .goToDate, .toggleWriter, .zoomIn, .aggregation,
                                            .focusNext, .earlier]
        for action in dropOrder where spans(list).reduce(0, { $0 + $1.width }) > width {
            list.removeAll { $0.action == action }
        }
        return spans(list)
    }
}
