/// What the terminal can show, decided from the environment before any drawing: glyphs (UTF-8 or ASCII)
/// and colour (none under `NO_COLOR` or `TERM=dumb`).
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

    /// `codeset` is `nl_langinfo(CODESET)` after `setlocale(LC_ALL, "")`.
    public static func detect(environment: [String: String], codeset: String) -> TerminalCapabilities {
        let normalized = codeset.uppercased().filter { $0 != "-" && $0 != "_" }
        let unicode = normalized == "UTF8"
        // https://no-color.org: set and not empty means no colour.
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let term = environment["TERM"] ?? ""
        return TerminalCapabilities(unicode: unicode, color: !noColor && term != "dumb" && !term.isEmpty)
    }
}
