import RHRCore
import RHRScreen

/// `?`: every key from the key table, what each marker means, the notes on this data, and the wellness note
/// (R11). Drawn over the whole screen; scrolls when it does not fit.
enum HelpView {
    /// The one-line note the help screen carries (R11), in view however far it is scrolled.
    static let wellnessNote = "rhr shows what your devices and apps recorded. It is not medical advice."

    struct Model {
        var writerCount: Int
        /// The store file.
        var source: String
        var revision: Int64
        var live: LiveStatus
        var today: LocalDay
        /// Each store's data currency.
        var storeAsOf: [(store: HealthStore, asOf: Timestamp)]
        var notices: [String]
        /// Rows scrolled away at the top (more than there are is fine).
        var scroll: Int
    }

    static func lines(_ model: Model, width: Int, glyphs g: Glyphs) -> [StyledLine] {
        let unicode = g.unicode
        var out: [StyledLine] = []
        let labelWidth = max(12, KeyTable.bindings.map { DisplayWidth.of($0.label(unicode: unicode)) }.max()! + 3)

        func entry(_ label: [Span], _ text: String) {
            let body = TextFit.wrap(g.text(text), max(10, width - labelWidth - 2), ellipsis: g.ellipsis)
            let labelW = label.reduce(0) { $0 + $1.width }
            for (i, line) in body.enumerated() {
                let lead = i == 0 ? [Span("  ")] + label + [Span(String(repeating: " ", count: max(1, labelWidth - labelW)))]
                    : [Span(String(repeating: " ", count: labelWidth + 2))]
                out.append(StyledLine(lead + [Span(line)]))
            }
        }
        func heading(_ text: String) {
            if !out.isEmpty { out.append(StyledLine("")) }
            out.append(StyledLine(" " + text, .title))
        }
        func paragraph(_ text: String, _ style: Style = .plain) {
            out += StyledLine.paragraph(text, width: width, style: style, glyphs: g)
        }

        heading("Keys")
        for binding in KeyTable.bindings {
            entry([Span(binding.label(unicode: unicode), .bold)], binding.help)
        }

        heading("Markers")
        let count = max(1, min(model.writerCount, 9))
        let filled = (0..<min(count, 4)).map { Span(String(g.series($0)) + " ", .series($0)) }
        entry(filled, "one glyph and colour per writer; the legend under the chart numbers them 1\(g.dash)9. "
              + (unicode ? "Each writer's days are a line of braille dots (half blocks with glyphs = blocks) in its "
                 + "colour, broken where a day has no value; its glyph stands on the line every 16 columns and marks "
                 + "the cursor day, the line's last point in view, a point alone, and every point when there are few "
                 + "(3 or more columns a day), so each writer reads without colour."
                 : "In plain ASCII each point is its writer's number (writers after the ninth a letter)."))
        let hollow = (0..<min(count, 4)).map { Span(String(g.provisional($0)) + " ", g.provisionalStyle($0)) }
        entry(hollow, "provisional: Apple may still replace this estimate. An Apple Watch value for the day the data "
              + "was read or the day before; Apple replaces those with better estimates.")
        entry([Span(String(g.context), .context)], "sedentary minimum (c): the lowest heart rate measured while still, "
              + "from heart-rate samples. Context, not resting heart rate, and never in a resting value.")
        entry([Span(String(g.outOfRange), .bold)], "a day with a value out of range (below 1, above 300 bpm, or not a "
              + "number): kept and flagged, never plotted or aggregated")
        entry([Span(" ", ChartView.cursorStyle(.plain))], "the highlighted column is the cursor day; its samples are in "
              + "the detail pane")
        if unicode {
            entry([Span("⠉⠒⠤", .series(0))], "a line; dotted where it is provisional. With the 7-day mean on (m), the "
                  + "line is the mean and the daily values are single dots.")
        }
        entry([Span("   ", Style.series(0).on(.band)), Span(" " + String(repeating: g.bandEdge, count: 2), .series(0))],
              "usual range (b): behind the lines, the middle half of one writer's values in the 28 days ending on "
              + "each day, once 14 of them have a value (without colour, its two edges). It describes that writer's "
              + "own recent values; it is not a norm.")
        entry([Span(String(g.whisker), .muted)], "whiskers (w, week and month zoom): from the lowest to the highest "
              + "day in the column")
        entry([Span("p o x", .bold)], "in the per-source columns: provisional, offset assumed (a Health Connect value "
              + "without a zone offset; this machine's offset was assumed), out of range")
        entry([Span(String(g.changed), .title)], "a day a live update changed (rhr daemon pushed new data for it): marked "
              + "on the date axis, in the per-source columns and over the detail pane, its points underlined, "
              + "until the next key")

        heading("Values")
        paragraph("Each writer keeps its own series: HealthKit and Health Connect are never merged. "
                  + "An Apple Watch's HealthKit values are estimates the system computes and revises; any other "
                  + "HealthKit value, and every Health Connect value, is what the named app wrote.")
        paragraph("What each writer's number is differs: a night's lowest 10-minute average, an all-day estimate, a "
                  + "spot check. The detail pane gives it for the writer f follows, the legend and the comparison in "
                  + "short; d lists every maker's words with the pages that say so. Where a maker documents nothing, "
                  + "rhr says so and infers nothing.")
        paragraph("One value per day: latest is the sample that ended last; lowest the smallest; mean the average "
                  + "of the day's valid samples. The a key switches between them.")
        paragraph("At week and month zoom a column holds several days: each writer's point is the median of its "
                  + "daily values in that week or month; the per-source columns and the detail pane keep showing days.")
        paragraph("The scale stays put: columns per day (or week, or month) depend on the zoom, the width and the "
                  + "span of the data, never on the cursor, which scrolls the chart. The bpm axis fits what is drawn.")
        paragraph("The comparison (v) takes each pair of writers with at least 14 days on which both have a value, "
                  + "and gives the mean of their daily differences and how much those differences vary (standard "
                  + "deviation). It says how far apart two writers read, not which one is right.")

        heading("Mouse and settings")
        paragraph("Mouse: a click on a day in the chart or the per-source columns moves the cursor there; a click on a "
                  + "legend entry shows or hides that writer; a click on a pane focuses it; the wheel scrolls. "
                  + "Turn it off with \"mouse = off\" in the config file.")
        paragraph("Config file: $XDG_CONFIG_HOME/rhr/config (else ~/.config/rhr/config), one \"key = value\" a line: "
                  + "theme = default (the terminal's own 16 colours), 256, truecolor, high-contrast (for a dark "
                  + "background) or mono; mouse = on or off; aggregation = latest, lowest or mean; glyphs = unicode, "
                  + "blocks (a font without braille) or ascii.")
        paragraph("The aggregation, zoom, hidden writers and aids are kept per store in $XDG_STATE_HOME/rhr/ (else "
                  + "~/.local/state/rhr/) and restored when the store is opened again.")

        heading("This data")
        if !model.source.isEmpty { paragraph("Source: \(model.source)") }
        paragraph("Store revision \(model.revision).")
        switch model.live {
        case .off:
            paragraph("Not live: no rhr daemon serves this store. Start one (rhr daemon) and the dashboard follows "
                      + "it within a few seconds; r reads the store again meanwhile.")
        case .temporary:
            paragraph("Not live: this is a temporary store, made for this run and removed when it ends; no daemon can serve "
                      + "it. To follow your own data live: import it into your store (rhr import FILE), start rhr daemon "
                      + "(with --http ADDR:PORT for phone feeds), then run rhr.")
        case .connected(let socket):
            paragraph("Live: following rhr daemon on \(socket). A push shows within a moment; the days it changed "
                      + "are marked \(g.changed).")
        case .stopped(let at):
            paragraph("The daemon stopped at \(DayText.recent(at, today: model.today)): this is the store \(AsOfWording.words) "
                      + "then. The dashboard follows the daemon again when it comes back; r reads the store again.")
        }
        for entry in model.storeAsOf {
            paragraph(AsOfWording.line(entry.store, entry.asOf, thisYear: model.today.year) + ".")
        }
        for note in model.notices { paragraph(note) }
        return out
    }

    /// How far the help can scroll on a screen of `size`.
    static func maxScroll(_ model: Model, size: TerminalSize, glyphs: Glyphs) -> Int {
        OverlayPage.maxScroll(lineCount: lines(model, width: size.width - 1, glyphs: glyphs).count, size: size)
    }

    /// Over the whole of `buffer`.
    static func draw(_ model: Model, glyphs g: Glyphs, on buffer: inout ScreenBuffer) {
        let width = buffer.width
        // The wellness note stays in view however far the help is scrolled (R11).
        let note = DisplayWidth.of(wellnessNote) + 2 <= width ? wellnessNote : "Not medical advice."
        OverlayPage.draw(lines(model, width: width - 1, glyphs: g), title: "help",
                         closes: "Esc, q or ? closes \(g.dot) F10 quits", scroll: model.scroll,
                         lastRow: StyledLine(" " + note, .bold), glyphs: g, on: &buffer)
    }
}
