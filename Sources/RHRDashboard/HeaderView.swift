import RHRCore
import RHRScreen

/// The two header rows: the date range and the aggregation in words; then the stores present with their data
/// currency ("HealthKit as of 12 Mar 21:00").
enum HeaderView {
    /// "12 Jan – 12 Mar 2026", or with both years when they differ.
    static func range(_ first: LocalDay, _ last: LocalDay, _ g: Glyphs) -> String {
        if first == last { return first.mediumText }
        if first.year == last.year { return "\(first.shortText) \(g.dash) \(last.mediumText)" }
        return "\(first.mediumText) \(g.dash) \(last.mediumText)"
    }

    static func draw(_ ctx: RenderContext, in buffer: inout ScreenBuffer) {
        let rect = ctx.layout.header
        let index = ctx.index
        let g = ctx.glyphs
        let right = index.hasResting ? [Span(ctx.state.aggregation.words + " ", .bold)] : []
        let rightWidth = right.reduce(0) { $0 + $1.width }
        var left = [Span(" rhr ", .title)]
        if let first = index.firstRestingDay, let last = index.lastRestingDay {
            let words = Span("  resting heart rate  ", .muted)
            // While the history is still being read, its first day is not known yet.
            let dates = index.data.isPartial ? Span("\(g.ellipsis) \(g.dash) \(last.mediumText)  reading earlier days")
                : Span(range(first, last, g))
            // The words go first when the row is short; the dates stay.
            let fits = 5 + words.width + dates.width + 2 + rightWidth <= rect.width
            left += fits ? [words, dates] : [Span("  "), dates]
        } else if index.stores.isEmpty {
            left.append(Span("  no data yet", .muted))
        }
        ctx.drawRow(left: left, right: right, rect, 0, in: &buffer)

        // Every store present, with the newest time its data was read; shorter forms on narrow screens.
        let asOf = Dictionary(index.storeAsOf.map { ($0.store, $0.asOf) }, uniquingKeysWith: max)
        func currency(separator: String, words: String) -> [Span] {
            var spans: [Span] = []
            for (i, store) in index.stores.enumerated() {
                spans.append(Span(i == 0 ? " " : separator, .muted))
                spans.append(Span(store.displayName, .bold))
                if let t = asOf[store] {
                    spans.append(Span(words, .muted))
                    spans.append(Span(DayText.moment(t, thisYear: ctx.state.today.year)))
                }
            }
            return spans
        }
        let long = currency(separator: "  \(g.dot)  ", words: " as of ")
        let short = currency(separator: " \(g.dot) ", words: " ")
        var lefts = [long, short]
        if long.isEmpty && !index.data.source.isEmpty {
            lefts = [[Span(" store: ", .muted), Span(ctx.text(index.data.source))]]
        }
        // The live state on the right, in the longest form that fits beside the currency; the currency is cut
        // before the live state is.
        let rights = live(ctx)
        func draw(_ left: [Span], _ right: [Span]) {
            if right.isEmpty { ctx.drawRow(StyledLine(left), rect, 1, in: &buffer) } else {
                ctx.drawRow(left: left, right: right, rect, 1, in: &buffer)
            }
        }
        for right in rights {
            let room = rect.width - StyledLine(right).width - (right.isEmpty ? 0 : 2)
            if let left = lefts.first(where: { StyledLine($0).width <= room }) { return draw(left, right) }
        }
        draw(lefts.last ?? [], rights.last ?? [])
    }

    /// "live", or "live: daemon stopped; showing the store as of 14:02" and shorter forms; nothing without a
    /// daemon.
    static func live(_ ctx: RenderContext) -> [[Span]] {
        switch ctx.state.live {
        case .off:
            return [[]]
        case .connected:
            return [[Span("live ", .title)]]
        case .stopped(let at):
            let time = DayText.recent(at, today: ctx.state.today)
            return [[Span("live: ", .muted), Span("daemon stopped", .bold), Span("; showing the store as of \(time) ", .muted)],
                    [Span("daemon stopped", .bold), Span("; store as of \(time) ", .muted)],
                    [Span("daemon stopped ", .bold)]]
        }
    }
}
