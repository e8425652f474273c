import RHRCore
import RHRScreen

/// `d` (and `d` in help): the whole derivation registry (R15, docs/design.md section 9): for each entry what finds it,
/// the writers of this store it describes, its window, statistic, when it appears, whether its maker revises it, its
/// sentences and the pages it rests on, by title. Drawn over the whole screen like the help; descriptive only (R11).
enum DerivationsView {
    struct Model {
        var index: DashboardIndex
        /// Rows scrolled away at the top (more than there are is fine).
        var scroll: Int
    }

    static func lines(_ model: Model, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        let index = model.index
        var out: [StyledLine] = []
        func paragraph(_ text: String, _ style: Style = .plain, indent: Int = 2) {
            out += StyledLine.paragraph(text, width: width, indent: indent, style: style, glyphs: g)
        }
        out.append(StyledLine(""))
        paragraph("What each writer's resting heart rate is, in its maker's own words: the window it covers, the "
                  + "statistic, when it appears and whether the maker may revise it, with the pages that say so. Where a "
                  + "maker documents nothing, it says so; rhr never infers a derivation from a field's name. The same "
                  + "words follow each writer in the detail pane, the legend, the comparison (v), rhr summary and rhr "
                  + "export (its derivation column holds the id in brackets).", .muted)
        for derivation in Derivation.all {
            out.append(StyledLine(""))
            out.append(StyledLine([Span("  " + g.text(derivation.writer), .bold), Span("  (\(derivation.id))", .muted)]))
            // The writers of this store it describes, with their glyphs.
            let here = index.writers.indices.filter { index.facts.indices.contains($0) && index.facts[$0].derivation.id == derivation.id }
            if !here.isEmpty {
                var items: [[Span]] = [[Span("in this store:", .muted)]]
                for w in here {
                    let slot = index.slots[w]
                    items.append([Span(String(g.series(slot)), .series(slot)), Span(" " + g.shortName(index.writers[w]))])
                }
                out += Flow.lines(items, width: width - 1, gap: 2, indent: 6, firstIndent: 4, ellipsis: g.ellipsis)
            }
            let found = DerivationRegistry.matchWords(derivation)
            if !found.isEmpty { paragraph("found by: " + found.joined(separator: "; "), .muted, indent: 4) }
            if derivation.isDocumented {
                for line in derivation.lines where line.label != "source" { paragraph("\(line.label): \(line.words)", indent: 4) }
            }
            paragraph(derivation.summary, indent: 4)
            for note in derivation.notes { paragraph(note, .muted, indent: 4) }
            if !derivation.sources.isEmpty { paragraph("source: \(derivation.sourceWords)", .muted, indent: 4) }
        }
        return out
    }

    /// How far the page can scroll on a screen of `size` (the page's lines, laid out as `draw` lays them).
    static func maxScroll(_ model: Model, size: TerminalSize, glyphs: Glyphs) -> Int {
        OverlayPage.maxScroll(lineCount: lines(model, width: size.width - 1, glyphs: glyphs).count, size: size)
    }

    /// Over the whole of `buffer`.
    static func draw(_ model: Model, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        OverlayPage.draw(lines(model, width: buffer.width - 1, glyphs: g), title: "what each writer's number is",
                         closes: "Esc, q or d closes", scroll: model.scroll,
                         note: "Descriptive only: what each number is, not which writer is right.", glyphs: g, on: &buffer)
    }
}
