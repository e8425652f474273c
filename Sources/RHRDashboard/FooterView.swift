import RHRScreen

/// The bottom row: the `/` prompt when it is open, else key hints from the key table. A message has its own
/// row above (`drawMessage`), so the hints are never covered.
enum FooterView {
    struct Model {
        /// What was typed at the open `/` prompt; nil when it is closed.
        var prompt: String?
        /// The keys that do something on this screen; nil: all of them.
        var keys: Set<DashboardAction>?
    }

    /// Without resting values: reload, help and quit, and `c` where there is a sedentary minimum to chart.
    static func keys(_ content: DashboardLayout.Content, hasContext: Bool) -> Set<DashboardAction>? {
        switch content {
        case .dashboard: return nil
        case .sedentaryChart: return [.earlier, .zoomIn, .context, .focusNext, .goToDate, .reload, .help, .quit]
        case .words: return hasContext ? [.context, .reload, .help, .quit] : [.reload, .help, .quit]
        }
    }

    static func draw(_ model: Model, in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        guard !rect.isEmpty else { return }
        if let text = model.prompt {
            let prompt = [Span(" Go to date: ", .title), Span(text), Span(" ", .reverse),
                          Span("   Enter go \(glyphs.dot) Esc cancel \(glyphs.dot) 2026-03-12, 2026-03, 12 Mar 2026", .muted)]
            buffer.drawRow(StyledLine(prompt), in: rect, row: 0, ellipsis: glyphs.ellipsis)
            return
        }
        buffer.drawRow(StyledLine(hints(keys: model.keys, width: rect.width, unicode: glyphs.unicode)),
                       in: rect, row: 0)
    }

    /// The message row: the text, cut with an ellipsis when it is longer than the row.
    static func drawMessage(_ message: String, in rect: Rect, glyphs: Glyphs, on buffer: inout ScreenBuffer) {
        let text = TextFit.truncate(glyphs.text(message), rect.width - 1, ellipsis: glyphs.ellipsis)
        buffer.drawRow(StyledLine(" " + text, .accent), in: rect, row: 0)
    }

    /// As many hints as fit; help and quit always stay.
    static func hints(keys: Set<DashboardAction>?, width: Int, unicode: Bool) -> [Span] {
        var bindings = KeyTable.bindings.filter { $0.hint != nil }
        if let keys { bindings = bindings.filter { keys.contains($0.action) } }
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
        let dropOrder: [DashboardAction] = [.reload, .context, .comparison, .band, .mean, .goToDate, .toggleWriter,
                                            .zoomIn, .aggregation, .focusNext, .earlier]
        for action in dropOrder where spans(list).reduce(0, { $0 + $1.width }) > width {
            list.removeAll { $0.action == action }
        }
        return spans(list)
    }
}
