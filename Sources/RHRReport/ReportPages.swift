// The report laid out on pages: a chart a year, then the writers, how it was read, the flags and the notes.
import CPangoCairo
import Foundation
import RHRCore
import RHRDashboard

/// The pages of a report (docs/design.md section 6, the report), laid out before anything is drawn so each page
/// can say how many there are. A chart takes at most a year: a longer period gets a chart page per stretch of
/// equal length (all on one bpm scale), and the words follow the last chart, onto more pages when they need them.
/// Every page has the header (what, which period, how aggregated) and the footer (the wellness note, R11, and the
/// page's number).
struct ReportPages {
    /// Something placed on a page: measured first, drawn later into the box it was given.
    struct Piece {
        var height: Double
        /// Starts a page (a chart after the first).
        var newPage = false
        /// Stays on the page of the piece after it (a heading).
        var keepWithNext = false
        var draw: (OpaquePointer, Box) -> Void
    }

    static let margin = 36.0
    static let headerHeight = 36.0
    static let footerHeight = 18.0
    /// The longest a chart's stretch runs: a year, a leap year's too.
    static let daysPerChart = 366

    let size: PageSize
    let report: TrendReport
    let text: ReportText
    /// Each page's pieces with where they start, from the top of the body.
    private(set) var pages: [[(piece: Piece, y: Double)]] = []

    var contentWidth: Double { size.width - 2 * Self.margin }
    var bodyTop: Double { Self.margin + Self.headerHeight }
    var bodyHeight: Double { size.height - 2 * Self.margin - Self.headerHeight - Self.footerHeight }

    init(_ report: TrendReport, size: PageSize, text: ReportText) {
        self.size = size
        self.report = report
        self.text = text
        pages = Self.paginate(pieces(), height: bodyHeight)
    }

    /// The stretches of the period a chart each: one for a year or less, else equal ones of at most a year.
    static func stretches(from: LocalDay, to: LocalDay) -> [(from: LocalDay, to: LocalDay)] {
        let days = from.distance(to: to) + 1
        let count = (days + daysPerChart - 1) / daysPerChart
        let length = (days + count - 1) / count
        return (0..<count).map { i in
            (from.adding(days: i * length), min(to, from.adding(days: (i + 1) * length - 1)))
        }
    }

    /// Pieces in order onto pages: a piece that does not fit, or asks for it, starts a page; a heading goes with the
    /// piece after it.
    static func paginate(_ pieces: [Piece], height: Double) -> [[(piece: Piece, y: Double)]] {
        var pages: [[(piece: Piece, y: Double)]] = [[]]
        var y = 0.0
        for (i, piece) in pieces.enumerated() {
            let next = piece.keepWithNext && i + 1 < pieces.count ? pieces[i + 1].height : 0
            let started = !pages[pages.count - 1].isEmpty
            if started && (piece.newPage || y + piece.height + next > height) {
                pages.append([])
                y = 0
            }
            pages[pages.count - 1].append((piece, y))
            y += piece.height
        }
        return pages
    }

    // MARK: - Pieces

    private func pieces() -> [Piece] {
        var words: [Piece] = []
        if report.period != nil {
            words += writers()
        } else if let nothing = report.nothing {
            words.append(paragraph(Markup.bold(nothing.title), size: 11, after: 6))
            words += nothing.paragraphs.map { paragraph(Markup.escape($0), size: 8.5, after: 4) }
        }
        words += read()
        words += flagged()
        if !report.notes.isEmpty {
            words.append(heading("Notes on this data"))
            words += report.notes.map { paragraph(Markup.escape($0), after: 2) }
        }
        guard let (from, to) = report.period, let range = report.valueRange else { return words }

        let scale = BPMScale(range)
        let stretches = Self.stretches(from: from, to: to)
        let legend = ReportLegend(report, width: contentWidth - ReportChart.axisWidth, text: text)
        let titles = stretches.map { stretches.count > 1 ? TrendReport.periodWords($0.from, $0.to) : nil }
        // As tall as a chart may be (panels a little taller); shorter, down to a floor, where that keeps the words on
        // the chart's page.
        let panels = report.series.count > TrendReport.writersInOneChart
        let tallest = (bodyHeight * (panels ? 0.6 : 0.45)).rounded()
        let lowest = panels ? Double(report.series.count) * 30 + 20 : Self.lowestChart
        let room = bodyHeight - chart(legend, title: titles.last!, height: 0).height - words.reduce(0) { $0 + $1.height }
        let height = room >= tallest || room < lowest ? tallest : room.rounded(.down)
        var out: [Piece] = []
        for (i, stretch) in stretches.enumerated() {
            var piece = chart(legend, title: titles[i], height: height,
                              ReportChart(report: report, from: stretch.from, to: stretch.to, scale: scale))
            piece.newPage = i > 0
            out.append(piece)
        }
        return out + words
    }

    /// The lowest a chart is made to keep the words on its page.
    static let lowestChart = 190.0

    /// A chart of `height` points with its title (a stretch of a longer period) and legend under it; without a chart,
    /// only measured.
    private func chart(_ legend: ReportLegend, title: String?, height: Double, _ chart: ReportChart? = nil) -> Piece {
        let titleParagraph = title.map { text.layout(Markup.bold($0), size: 8.5, width: contentWidth) }
        let titleHeight = titleParagraph.map { $0.height + 4 } ?? 0
        return Piece(height: titleHeight + height + 6 + legend.height + 6) { cr, box in
            if let titleParagraph {
                ReportInk.use(ReportInk.text, on: cr)
                titleParagraph.draw(at: box.x, box.y, on: cr)
            }
            chart?.draw(in: Box(x: box.x, y: box.y + titleHeight, width: box.width, height: height), on: cr, text: self.text)
            legend.draw(at: box.x + ReportChart.axisWidth, box.y + titleHeight + height + 6, on: cr, text: self.text)
        }
    }

    /// Each writer: its line and glyph, number, name, store and provenance, its days and range in the period, and
    /// what its maker documents its number to be, with the pages (R15).
    private func writers() -> [Piece] {
        var out = [heading("Writers")]
        let indent = ReportLegend.sampleWidth + 6
        for s in report.series {
            // What the full name adds to the short one ("(com.ouraring.oura)"), in grey.
            let rest = s.name.hasPrefix(s.shortName) ? s.name.dropFirst(s.shortName.count).trimmingCharacters(in: .whitespaces) : ""
            let more = rest.isEmpty ? "" : " " + Markup.muted(rest)
            let head = Markup.bold("\(s.number)  ") + "<b>\(Markup.name(s.shortName))</b>" + more + " · "
                + Markup.name(s.provenance) + " · " + Markup.escape(s.daysWords)
            let paragraph = text.layout(head + "\n" + Markup.muted(TrendReport.derivationWords(s.derivation)),
                                        size: 7.5, width: contentWidth - indent)
            out.append(Piece(height: paragraph.height + 5) { cr, box in
                let ink = ReportInk.of(number: s.number)
                ink.use(on: cr)
                cairo_set_line_width(cr, 1.0)
                ink.useDashes(on: cr)
                let y = box.y + 4.5
                cairo_move_to(cr, box.x, y)
                cairo_line_to(cr, box.x + ReportLegend.sampleWidth, y)
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
                self.text.drawGlyph(s.glyph, size: ReportChart.glyphSize, at: box.x + ReportLegend.sampleWidth / 2, y, on: cr)
                ReportInk.use(ReportInk.text, on: cr)
                paragraph.draw(at: box.x + indent, box.y, on: cr)
            })
        }
        if !report.leftOut.isEmpty {
            out.append(paragraph(Markup.escape("Left out (hidden in the dashboard): ")
                + Wording.list(report.leftOut.map(Markup.name)) + ".", after: 2))
        }
        return out
    }

    /// When each store was read (R3), the aggregation (R7) and the aids.
    private func read() -> [Piece] {
        var out = [heading("How it was read")]
        var lines = report.currency.isEmpty ? ["No store says when it was read."] : [report.currency.joined(separator: " · ") + "."]
        lines.append(report.aggregationWords)
        lines += report.aidWords
        out += lines.map { paragraph(Markup.escape($0), after: 2) }
        return out
    }

    /// R3, R5, R6, R13: each flag that marks a value drawn, what it means, and whose days.
    private func flagged() -> [Piece] {
        guard report.period != nil else { return [] }
        var out = [heading("What was flagged and why")]
        if report.flags.isEmpty {
            out.append(paragraph(Markup.escape("Nothing in this period is flagged: no value is "
                + Wording.list(DayFlag.allCases.map(\.word)).replacingOccurrences(of: " and ", with: " or ") + "."), after: 2))
        }
        for note in report.flags {
            out.append(paragraph(Markup.bold(note.flag.word) + Markup.escape(": " + note.meaning + "."), after: 1))
            out += note.writers.map { paragraph(Markup.name($0.name) + Markup.escape(": " + $0.days), indent: 10, after: 1) }
            out[out.count - 1].height += 2
        }
        return out
    }

    private func heading(_ words: String) -> Piece {
        let p = text.layout(Markup.bold(words), size: 9, width: contentWidth)
        return Piece(height: p.height + 10, keepWithNext: true) { cr, box in
            ReportInk.use(ReportInk.text, on: cr)
            p.draw(at: box.x, box.y + 7, on: cr)
        }
    }

    private func paragraph(_ markup: String, size: Double = 7.5, indent: Double = 0, after: Double) -> Piece {
        let p = text.layout(markup, size: size, width: contentWidth - indent)
        return Piece(height: p.height + after) { cr, box in
            ReportInk.use(ReportInk.text, on: cr)
            p.draw(at: box.x + indent, box.y, on: cr)
        }
    }

    // MARK: - Drawing

    /// Page `number` (0-based) with its header and footer, its top left at the origin.
    func draw(page number: Int, on cr: OpaquePointer) {
        drawHeader(on: cr)
        let width = contentWidth
        for (piece, y) in pages[number] {
            piece.draw(cr, Box(x: Self.margin, y: bodyTop + y, width: width, height: piece.height))
        }
        drawFooter(page: number, on: cr)
    }

    private func drawHeader(on cr: OpaquePointer) {
        let title = text.layout(Markup.bold("Resting heart rate"), size: 13, width: nil)
        let period = report.period.map { TrendReport.periodWords($0.from, $0.to) } ?? ""
        let right = text.layout(Markup.bold(period), size: 10, width: nil)
        var about = [report.request.aggregation.words]
        if report.period != nil { about.append(Wording.count(report.series.count, "writer")) }
        about += report.aidNames
        let line = text.layout(Markup.muted(about.joined(separator: " · ")), size: 7.5, width: contentWidth)
        ReportInk.use(ReportInk.text, on: cr)
        title.draw(at: Self.margin, Self.margin, on: cr)
        right.draw(at: size.width - Self.margin - right.width, Self.margin + title.height - right.height, on: cr)
        line.draw(at: Self.margin, Self.margin + title.height + 1, on: cr)
        ReportInk.use(ReportInk.muted, on: cr)
        cairo_set_line_width(cr, 0.5)
        let y = Self.margin + Self.headerHeight - 6
        cairo_move_to(cr, Self.margin, y)
        cairo_line_to(cr, size.width - Self.margin, y)
        cairo_stroke(cr)
    }

    private func drawFooter(page: Int, on cr: OpaquePointer) {
        let number = text.layout(Markup.muted("page \(page + 1) of \(pages.count)"), size: 7, width: nil)
        let wellness = text.layout(Markup.muted(TrendReport.wellness), size: 7,
                                   width: contentWidth - number.width - 12)
        let y = size.height - Self.margin - wellness.height
        wellness.draw(at: Self.margin, y, on: cr)
        number.draw(at: size.width - Self.margin - number.width, y, on: cr)
    }
}
