// The report's text through pango: one font map and context per report, fonts in points, no hinting.
import CPangoCairo

/// Lays out and draws the report's text with pango (docs/design.md section 6, the report). Sizes are points, the
/// page's unit. On paper (PDF, SVG) text is laid out unhinted at 72 units an inch, as the page; on a PNG it is laid
/// out in the image's own pixels with hinted metrics (`pixelsPerPoint`), since cairo 1.16 puts each glyph of an
/// image on a whole pixel and unhinted advances would space letters unevenly. DejaVu Sans first; fontconfig falls
/// back to Noto for the scripts and emoji it lacks, so any writer's name renders, right-to-left ones in their own
/// direction.
final class ReportText {
    static let family = "DejaVu Sans"

    /// Device pixels a point: 1 on paper, the image's resolution over 72 on a PNG.
    let pixelsPerPoint: Double
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    /// Layouts of single glyphs, kept: a chart draws the same few glyphs many times.
    private var glyphs: [String: Glyph] = [:]

    struct Glyph {
        let layout: OpaquePointer
        /// From the layout's origin to the middle of its ink.
        let centreX: Double
        let centreY: Double
    }

    init(pixelsPerPoint: Double = 1) {
        self.pixelsPerPoint = pixelsPerPoint
        let pixels = pixelsPerPoint != 1
        fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72 * pixelsPerPoint)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, pixels ? CAIRO_HINT_METRICS_ON : CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, pixels ? CAIRO_HINT_STYLE_SLIGHT : CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        for glyph in glyphs.values { rhr_pango_release(UnsafeMutableRawPointer(glyph.layout)) }
        rhr_pango_release(UnsafeMutableRawPointer(context))
        rhr_pango_release(fontMap)
    }

    /// A paragraph: `markup` (pango's, made with `Markup`) at `size` points, wrapped at `width` (nil: one line).
    func layout(_ markup: String, size: Double, width: Double?, bold: Bool = false,
                alignment: PangoAlignment = PANGO_ALIGN_LEFT) -> Paragraph {
        let layout = pango_layout_new(context)!
        let font = pango_font_description_from_string("\(Self.family) \(bold ? "Bold " : "")\(format(size))")
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let width {
            pango_layout_set_width(layout, Int32((width * pixelsPerPoint * Double(PANGO_SCALE)).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        pango_layout_set_alignment(layout, alignment)
        // The page reads left to right whatever a name's script; a right-to-left name keeps its own order inside
        // (`Markup.name`).
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_markup(layout, markup, -1)
        return Paragraph(layout, text: self)
    }

    /// One glyph centred on a point (a writer's mark, `×`), at `size` points.
    func drawGlyph(_ character: Character, size: Double, at x: Double, _ y: Double, on cr: OpaquePointer) {
        let key = "\(character) \(size)"
        let glyph: Glyph
        if let known = glyphs[key] {
            glyph = known
        } else {
            let paragraph = layout(Markup.escape(String(character)), size: size, width: nil)
            let layout = paragraph.take()
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let scale = Double(PANGO_SCALE) * pixelsPerPoint
            glyph = Glyph(layout: layout, centreX: (Double(ink.x) + Double(ink.width) / 2) / scale,
                          centreY: (Double(ink.y) + Double(ink.height) / 2) / scale)
            glyphs[key] = glyph
        }
        show(glyph.layout, at: x - glyph.centreX, y - glyph.centreY, on: cr)
    }

    /// Draws a layout with its top left at a point of the page: on paper in the page's units, on a PNG in the
    /// image's pixels, where the layout was made.
    func show(_ layout: OpaquePointer, at x: Double, _ y: Double, on cr: OpaquePointer) {
        guard pixelsPerPoint != 1 else {
            cairo_move_to(cr, x, y)
            pango_cairo_show_layout(cr, layout)
            return
        }
        var dx = x, dy = y
        cairo_user_to_device(cr, &dx, &dy)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_move_to(cr, dx, dy)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    private func format(_ size: Double) -> String {
        size == size.rounded() ? String(Int(size)) : String(size)
    }
}

/// A laid-out piece of text: its size in points, drawn at its top left.
final class Paragraph {
    private var layout: OpaquePointer?
    private unowned let text: ReportText

    init(_ layout: OpaquePointer, text: ReportText) {
        self.layout = layout
        self.text = text
    }

    deinit { if let layout { rhr_pango_release(UnsafeMutableRawPointer(layout)) } }

    var width: Double { size.width }
    var height: Double { size.height }

    private var size: (width: Double, height: Double) {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        let scale = Double(PANGO_SCALE) * text.pixelsPerPoint
        return (Double(w) / scale, Double(h) / scale)
    }

    func draw(at x: Double, _ y: Double, on cr: OpaquePointer) {
        text.show(layout!, at: x, y, on: cr)
    }

    /// The layout, handed over: this paragraph no longer releases it.
    fileprivate func take() -> OpaquePointer {
        defer { layout = nil }
        return layout!
    }
}

/// Pango markup from plain text: escaped, so a writer named "<b>" is drawn as written.
enum Markup {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }

    static func bold(_ text: String) -> String { "<b>\(escape(text))</b>" }

    /// A writer's name, isolated (U+2068 … U+2069): a right-to-left name is read in its own direction and never
    /// pulls the words around it into its order.
    static func name(_ text: String) -> String { "\u{2068}\(escape(text))\u{2069}" }

    /// Text in a grey that prints as grey: what explains rather than what is reported.
    static func muted(_ text: String) -> String { "<span foreground=\"#555555\">\(escape(text))</span>" }
}
