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
        /// The trend aids that are on, each in a long and a short form: "7-day mean" / "mean".
        var aids: [(long: String, short: String)] = []
        /// R14: records the store keeps passed over.
        var passedOver = 0
    }

    /// "12 Jan – 12 Mar 2026", or with both years when they differ.
    static func range(_ first: LocalDay, _ last: LocalDay, _ g: Glyphs) -> String {
        if first == last { return first.mediumText }
        if first.year == last.year { return "\(first.shortText) \(g.dash) \(last.mediumText)" }
        return "\(first.mediumText) \(g.dash) \(last.mediumText)"
    }

    /// The aids that are on and the aggregation, in the longest form that fits in `room` columns.
    static func aidsAndAggregation(_ model: Model, room: Int, glyphs g: Glyphs) -> [Span] {
        guard let aggregation = model.aggregation else { return [] }
        let forms: [(aids: [String], aggregation: String)] = [
            (model.aids.map(\.long), aggregation.words),
            (model.aids.map(\.short), aggregation.words),
            (model.aids.map(\.short), aggregation.rawValue),
        ]
        func spans(_ form: (aids: [String], aggregation: String)) -> [Span] {
            (form.aids.isEmpty ? [] : [Span(form.aids.joined(separator: " \(g.dot) ") + "  ", .accent)])
                + [Span(form.aggregation + " ", .bold)]
        }
        return forms.map(spans).first { StyledLine($0).width <= room } ?? spans(forms.last!)
    }

    static func draw(_ model: Model, in rect: Rect, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        var left = [Span(" rhr ", .title)]
        var words: Span?, dates: Span?
        if case let (first, last)? = model.restingDays {
            words = Span("  resting heart rate  ", .muted)
            // While the history is still being read, its first day is not known yet.
            dates = model.isPartial ? Span("\(g.ellipsis) \(g.dash) \(last.mediumText)  reading earlier days")
                : Span(range(first, last, g))
        } else if model.stores.isEmpty {
            left.append(Span("  no data yet", .muted))
        }
        let datesWidth = 5 + 2 + (dates?.width ?? 0)
        let right = aidsAndAggregation(model, room: rect.width - datesWidth - 2, glyphs: g)
        let rightWidth = right.reduce(0) { $0 + $1.width }
        if let words, let dates {
            // The words go first when the row is short; the dates stay.
            let fits = 5 + words.width + dates.width + 2 + rightWidth <= rect.width
            left += fits ? [words, dates] : [Span("  "), dates]
        }
        buffer.drawRow(left: left, right: right, in: rect, row: 0, ellipsis: g.ellipsis)

        // Every store present, with the newest time its data was read, each with its offset, or the offset once
        // after them when they share it; shorter forms on narrow screens.
        let times = model.stores.compactMap { model.asOf[$0] }
        let oneOffset = Set(times.map(\.offsetSeconds)).count == 1 && times.count > 1 ? times.first?.offsetSeconds : nil
        func currency(separator: String, words: String, offsetOnce: Bool = false) -> [Span] {
            var spans: [Span] = []
            for (i, store) in model.stores.enumerated() {
                spans.append(Span(i == 0 ? " " : separator, .muted))
                spans.append(Span(store.displayName, .bold))
                if let t = model.asOf[store] {
                    spans.append(Span(words, .muted))
                    spans.append(Span(t.text(thisYear: model.today.year, offset: !offsetOnce)))
                }
            }
            if offsetOnce, let offset = oneOffset { spans.append(Span(" (\(Timestamp.offsetText(offset)))", .muted)) }
            if model.passedOver > 0, !spans.isEmpty {
                spans.append(Span(separator + "\(Wording.grouped(model.passedOver)) passed over", .muted))
            }
            return spans
        }
        let long = currency(separator: "  \(g.dot)  ", words: " \(AsOfWording.words) ")
        let short = currency(separator: " \(g.dot) ", words: " ")
        var lefts = [long] + (oneOffset == nil ? [] : [currency(separator: "  \(g.dot)  ", words: " \(AsOfWording.words) ", offsetOnce: true)])
            + [short] + (oneOffset == nil ? [] : [currency(separator: " \(g.dot) ", words: " ", offsetOnce: true)])
        if long.isEmpty && !model.source.isEmpty {
            lefts = [[Span(" store: ", .muted), Span(g.text(model.source))]]
        }
        // The live state on the right, in the longest form that fits beside the currency; the currency is cut
        // before the live state is.
        let rights = live(model.live, today: model.today)
        func draw(_ left: [Span], _ right: [Span]) {
            if right.isEmpty { buffer.drawRow(StyledLine(left), in: rect, row: 1, ellipsis: g.ellipsis) } else {
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
        case .off, .temporary:
            return [[]]
        case .connected:
            return [[Span("live ", .title)]]
        case .stopped(let at):
            let time = DayText.recent(at, today: today)
            return [[Span("live: ", .muted), Span("daemon stopped", .bold), Span("; showing the store \(AsOfWording.words) \(time) ", .muted)],
                    [Span("daemon stopped", .bold), Span("; store \(AsOfWording.words) \(time) ", .muted)],
                    [Span("daemon stopped ", .bold)]]
        }
    }
}
