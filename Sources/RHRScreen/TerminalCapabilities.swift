/// What the terminal can show, decided from the environment before any drawing: glyphs (UTF-8, or ASCII in a
/// locale that is not UTF-8, on the Linux console or with the config's ASCII switch; UTF-8 without braille with
/// `glyphs = blocks`) and colour (none under `NO_COLOR` or `TERM=dumb`). Each takes only its own: `NO_COLOR` keeps
/// the glyphs, the glyph switches keep the colour.
public struct TerminalCapabilities: Sendable, Hashable {
    /// UTF-8 is drawn: box drawing, geometric shapes and "×" are safe.
    public var unicode: Bool
    /// Colour is wanted and possible.
    public var color: Bool
    /// The font has braille (the chart's lines): false with `glyphs = blocks`, whose chart is drawn in half blocks.
    public var braille: Bool
    /// The theme has a background for the usual range that reads on the terminal's background.
    public var bandColour: Bool

    public init(unicode: Bool, color: Bool, braille: Bool = true, bandColour: Bool = true) {
        self.unicode = unicode
        self.color = color
        self.braille = braille
        self.bandColour = bandColour
    }

    /// The usual range is a shaded background: colour, and a theme with a band colour; else its edges are drawn, as
    /// without colour.
    public var shadedBand: Bool { color && bandColour }

    public static let full = TerminalCapabilities(unicode: true, color: true)

    /// The glyphs the config's `glyphs =` asks for.
    public enum GlyphChoice: String, Sendable, Hashable, CaseIterable {
        /// UTF-8 with braille lines where the locale is UTF-8 and the terminal is not the Linux console.
        case unicode
        /// UTF-8 with the chart's lines in half blocks, for a font without braille.
        case blocks
        case ascii
    }

    /// `codeset` is `nl_langinfo(CODESET)` after `setlocale(LC_ALL, "")`; `glyphs`: the config's choice, nil when it
    /// makes none. The Linux console's font has no braille and few of the shapes rhr draws: it gets ASCII glyphs
    /// unless the config chooses, for a console font that has more.
    public static func detect(environment: [String: String], codeset: String,
                              glyphs: GlyphChoice? = nil) -> TerminalCapabilities {
        let normalized = codeset.uppercased().filter { $0 != "-" && $0 != "_" }
        // https://no-color.org: set and not empty means no colour.
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let term = environment["TERM"] ?? ""
        let choice = glyphs ?? (term == "linux" ? .ascii : .unicode)
        let unicode = normalized == "UTF8" && choice != .ascii
        return TerminalCapabilities(unicode: unicode, color: !noColor && term != "dumb" && !term.isEmpty,
                                    braille: choice == .unicode)
    }
}
