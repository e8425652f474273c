import RHRCore
import RHRTerminal

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
        var left = [Span(" rhr ", .title)]
        if let first = index.firstRestingDay, let last = index.lastRestingDay {
            left.append(Span("  resting heart rate  ", .muted))
            left.append(Span(range(first, last, g)))
        } else if index.stores.isEmpty {
            left.append(Span("  no data yet", .muted))
        }
        let right = index.hasResting ? [Span(ctx.state.aggregation.words + " ", .bold)] : []
        ctx.drawRow(left: left, right: right, rect, 0, in: &buffer)

        // Every store present, with the newest time its data was read.
        var currency: [Span] = []
        let asOf = Dictionary(index.storeAsOf.map { ($0.store, $0.asOf) }, uniquingKeysWith: max)
        for (i, store) in index.stores.enumerated() {
            currency.append(Span(i == 0 ? " " : "  \(g.dot)  ", .muted))
            currency.append(Span(store.displayName, .bold))
            if let t = asOf[store] {
                currency.append(Span(" as of ", .muted))
                currency.append(Span(DayText.moment(t, thisYear: ctx.state.today.year)))
            }
        }
        if currency.isEmpty && !index.data.source.isEmpty {
            currency.append(Span(" store: ", .muted))
            currency.append(Span(ctx.text(index.data.source)))
        }
        ctx.drawRow(StyledLine(currency), rect, 1, in: &buffer)
    }
}
