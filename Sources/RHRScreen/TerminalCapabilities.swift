/// What the terminal can show, decided from the environment before any drawing: glyphs (UTF-8, or ASCII in a
/// locale that is not UTF-8 or with the config's ASCII switch) and colour (none under `NO_COLOR` or `TERM=dumb`).
/// Each takes only its own: `NO_COLOR` keeps the glyphs, the ASCII switch keeps the colour.
public struct TerminalCapabilities: Sendable, Hashable {
    /// The locale's codeset is UTF-8: box drawing, geometric shapes and "×" are safe.
    public var unicode: Bool
    /// Colour is wanted and possible.
    public var color: Bool

    public init(unicode: Bool, color: Bool) {
        self.unicode = unicode
        self.color = color
    }

    public static let full = TerminalCapabilities(unicode: true, color: true)

    /// `codeset` is `nl_langinfo(CODESET)` after `setlocale(LC_ALL, "")`; `ascii`: the config's `glyphs = ascii`.
    public static func detect(environment: [String: String], codeset: String, ascii: Bool = false) -> TerminalCapabilities {
        let normalized = codeset.uppercased().filter { $0 != "-" && $0 != "_" }
        let unicode = normalized == "UTF8" && !ascii
        // https://no-color.org: set and not empty means no colour.
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let term = environment["TERM"] ?? ""
        return TerminalCapabilities(unicode: unicode, color: !noColor && term != "dumb" && !term.isEmpty)
    }
}
