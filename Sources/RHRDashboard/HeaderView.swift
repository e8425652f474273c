import RHRCore
import RHRScreen

/// The two header rows: the date range and the aggregation in words; then the stores present with their data
/// currency ("HealthKit as of 12 Mar 21:00").
enum HeaderView {
    struct Model {
        /// Nil without resting values: nothing to aggregate.
        var aggregation: Aggregation?
        /// The first and last day with a resting value.
        var restingDays: (first: LocalDay, last: LocalDay)?
        /// Only the recent days are read yet.
        var isPartial: Bool
        /// Every store present, in order.
        var stores: [HealthStore]
        /// The newest time each store's data was read.
        var asOf: [HealthStore: Timestamp]
        /// The store file, named when no store is present yet.
        var source: String
        var today: LocalDay
        var live: LiveStatus
    }

    /// "12 Jan – 12 Mar 2026", or with both years when they differ.
    static func range(_ first: LocalDay, _ last: LocalDay, _ g: Glyphs) -> String {
        if first == last { return first.mediumText }
        if first.year == last.year { return "\(first.shortText) \(g.dash) \(last.mediumText)" }
        return "\(first.mediumText) \(g.dash) \(last.mediumText)"
    }

    static func draw(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        let right = model.aggregation.map { [Span($0.words + " ", .bold)] } ?? []
        let rightWidth = right.reduce(0) { $0 + $1.width }
        var left = [Span(" rhr ", .title)]
        if case let (first, last)? = model.restingDays {
            let words = Span("  resting heart rate  ", .muted)
            // While the history is still being read, its first day is not known yet.
            let dates = model.isPartial ? Span("\(g.ellipsis) \(g.dash) \(last.mediumText)  reading earlier days")
                : Span(range(first, last, g))
            // The words go first when the row is short; the dates stay.
            let fits = 5 + words.width + dates.width + 2 + rightWidth <= rect.width
            left += fits ? [words, dates] : [Span("  "), dates]
        } else if model.stores.isEmpty {
            left.append(Span("  no data yet", .muted))
        }
        buffer.drawRow(left: left, right: right, in: rect, row: 0, ellipsis: g.ellipsis)

        // Every store present, with the newest time its data was read; shorter forms on narrow screens.
        func currency(separator: String, words: String) -> [Span] {
            var spans: [Span] = []
            for (i, store) in model.stores.enumerated() {
                spans.append(Span(i == 0 ? " " : separator, .muted))
                spans.append(Span(store.displayName, .bold))
                if let t = model.asOf[store] {
                    spans.append(Span(words, .muted))
                    spans.append(Span(DayText.moment(t, thisYear: model.today.year)))
                }
            }
            return spans
        }
        let long = currency(separator: "  \(g.dot)  ", words: " as of ")
        let short = currency(separator: " \(g.dot) ", words: " ")
        var lefts = [long, short]
        if long.isEmpty && !model.source.isEmpty {
            lefts = [[Span(" store: ", .muted), Span(g.text(model.source))]]
        }
        // The live state on the right, in the longest form that fits beside the currency; the currency is cut
        // before the live state is.
        let rights = live(model.live, today: model.today)
        func draw(_ left: [Span], _ right: [Span]) {
            if right.isEmpty { buffer.drawRow(StyledLine(left), in: rect, row: 1) } else {
                buffer.drawRow(left: left, right: right, in: rect, row: 1, ellipsis: g.ellipsis)
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
    static func live(_ status: LiveStatus, today: LocalDay) -> [[Span]] {
        switch status {
        case .off:
            return [[]]
        case .connected:
            return [[Span("live ", .title)]]
        case .stopped(let at):
            let time = DayText.recent(at, today: today)
            return [[Span("live: ", .muted), Span("daemon stopped", .bold), Span("; showing the store as of \(time) ", .muted)],
                    [Span("daemon stopped", .bold), Span("; store as of \(time) ", .muted)],
                    [Span("daemon stopped ", .bold)]]
        }
    }
}
