import Foundation
import RHRCore
import RHRScreen

/// `v`: how far apart the writers read, pair by pair, over the whole history under the chosen aggregation:
/// for each pair with at least 14 shared days, the mean of the daily differences and their spread, both
/// writers named with their stores (R1), and what each side's number is in its maker's words ("lowest 10-minute
/// night average vs. all-day rest estimate", R15). Drawn over the whole screen like the help; descriptive only (R11).
enum ComparisonView {
    struct Model {
        var index: DashboardIndex
        var aggregation: Aggregation
        /// The pairs, computed once when the view opens (ten years of eight writers take a while).
        var pairs: Pairs
        /// Rows scrolled away at the top (more than there are is fine).
        var scroll: Int
    }

    struct Pairs: Sendable {
        var compared: [WriterComparison] = []
        /// Pairs with some shared days, but fewer than the minimum: (first, second, shared days).
        var tooFew: [(first: Int, second: Int, days: Int)] = []
    }

    /// Every pair of writers, in writer order.
    static func pairs(_ index: DashboardIndex, aggregation: Aggregation) -> Pairs {
        var pairs = Pairs()
        let series = index.writers.indices.map { index.values(writer: $0, aggregation: aggregation) }
        for a in series.indices {
            for b in series.indices where b > a {
                // One walk over both writers' days serves either answer.
                let walk = WriterComparison.Walk(series[a], series[b])
                if let c = WriterComparison(walk, first: a, second: b) {
                    pairs.compared.append(c)
                } else if !walk.differences.isEmpty {
                    pairs.tooFew.append((a, b, walk.differences.count))
                }
            }
        }
        return pairs
    }

    static func lines(_ model: Model, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        let index = model.index
        var out: [StyledLine] = []
        func paragraph(_ text: String, _ style: Style = .plain) {
            out += StyledLine.paragraph(text, width: width, style: style, glyphs: g)
        }
        func writer(_ w: Int) -> [Span] {
            let writer = index.writers[w], slot = index.slots[w]
            return [Span(slot < 9 ? "\(slot + 1) " : "", .muted), Span(String(g.series(slot)), .series(slot)),
                    Span(" " + g.shortName(writer), .bold), Span(" (\(writer.store.displayName))", .muted)]
        }
        out.append(StyledLine(""))
        paragraph("For each pair of writers with at least \(WriterComparison.minimumSharedDays) days on which both "
                  + "have a value (\(model.aggregation.words)): the mean of the daily differences, first minus second, "
                  + "and their spread (standard deviation), beside what each one's number is as its maker documents "
                  + "it (d lists them). It says how far apart two writers read, not which one is right.", .muted)
        let pairs = model.pairs
        if pairs.compared.isEmpty {
            out.append(StyledLine(""))
            paragraph(index.writers.count < 2 ? "There is only one writer: nothing to compare."
                      : "No pair of writers has \(WriterComparison.minimumSharedDays) days with a value from both yet.")
        }
        for c in pairs.compared {
            out.append(StyledLine(""))
            out += Flow.lines([writer(c.first), [Span("and", .muted)], writer(c.second)], width: width - 1, gap: 2,
                              indent: 4, firstIndent: 2, ellipsis: g.ellipsis)
            let first = g.shortName(index.writers[c.first]), second = g.shortName(index.writers[c.second])
            // Items that stay whole when the line wraps.
            out += Flow.lines([[Span("mean difference \(signed(c.meanDifference, g)) bpm", .bold)],
                               [Span("(\(first) minus \(second))", .muted)],
                               [Span("spread \(String(format: "%.1f", c.spread)) bpm", .bold)],
                               [Span(Wording.count(c.sharedDays, "shared day"), .muted)],
                               [Span(HeaderView.range(c.days.lowerBound, c.days.upperBound, g), .muted)]],
                              width: width - 1, gap: 2, indent: 6, firstIndent: 6, ellipsis: g.ellipsis)
            // R15 beside the difference: what each side's number is, in its maker's words.
            let reads = readsWords(first, second, c.meanDifference)
            if index.facts.indices.contains(c.first), index.facts.indices.contains(c.second) {
                let what = Derivation.comparison(index.facts[c.first].derivation, index.facts[c.second].derivation)
                for (i, line) in TextFit.wrap(g.text("\(reads): \(what)"), max(1, width - 9), ellipsis: g.ellipsis).enumerated() {
                    out.append(StyledLine(String(repeating: " ", count: i == 0 ? 6 : 8) + line))
                }
            }
        }
        if !pairs.tooFew.isEmpty {
            out.append(StyledLine(""))
            paragraph("Not compared: fewer than \(WriterComparison.minimumSharedDays) shared days", .bold)
            for p in pairs.tooFew {
                out += Flow.lines([writer(p.first), [Span("and", .muted)], writer(p.second),
                                   [Span(Wording.count(p.days, "shared day"), .muted)]],
                                  width: width - 1, gap: 2, indent: 6, firstIndent: 4, ellipsis: g.ellipsis)
            }
        }
        return out
    }

    /// "Oura reads 3.5 bpm lower on average", "… higher …", "Oura and Withings read the same on average" (to 0.1 bpm).
    static func readsWords(_ first: String, _ second: String, _ mean: Double) -> String {
        let amount = String(format: "%.1f", abs(mean))
        if amount == "0.0" { return "\(first) and \(second) read the same on average" }
        return "\(first) reads \(amount) bpm \(mean < 0 ? "lower" : "higher") on average"
    }

    /// "+2.3", "−0.4" (ASCII "-0.4"), "0.0".
    static func signed(_ value: Double, _ g: Glyphs) -> String {
        let text = String(format: "%.1f", abs(value))
        if text == "0.0" { return text }
        return (value < 0 ? (g.unicode ? "−" : "-") : "+") + text
    }

    /// How far the view can scroll on a screen of `size`.
    static func maxScroll(_ model: Model, size: TerminalSize, glyphs: Glyphs) -> Int {
        OverlayPage.maxScroll(lineCount: lines(model, width: size.width - 1, glyphs: glyphs).count, size: size)
    }

    /// Over the whole of `buffer`.
    static func draw(_ model: Model, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        OverlayPage.draw(lines(model, width: buffer.width - 1, glyphs: g), title: "how far apart the writers read",
                         closes: "Esc, q or v closes", scroll: model.scroll,
                         note: "Descriptive only: differences between writers, not a judgement of either.", glyphs: g,
                         on: &buffer)
    }
}
