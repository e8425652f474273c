import RHRScreen

/// A screen's styles as text, one character per glyph beside the text rows (a wide glyph once, as `line(y)`
/// has it), so a golden screen states its styles as compactly as its text:
///
///     " " plain      "b" bold       "r" reverse        "R" bold, reverse
///     "m" muted      "M" muted, reverse
///     "a" accent     "T" title (accent, bold)          "t" title, reverse
///     "c" context    "1"…"9" writer 1…9's colour
///
/// A test adds codes for rarer styles (a writer's point in bold at the cursor); a style without a code shows
/// as "?", so it cannot pass unnoticed.
enum StyleMap {
    static let standard: [Character: Style] = {
        var codes: [Character: Style] = [
            " ": .plain, "b": .bold, "r": .reverse, "R": Style(tint: .plain, [.bold, .reverse]),
            "m": Style(tint: .muted), "M": Style(tint: .muted, .reverse),
            "a": Style(tint: .accent), "T": Style(tint: .accent, .bold), "t": Style(tint: .accent, [.bold, .reverse]),
            "c": Style(tint: .context),
        ]
        for n in 0..<9 { codes[Character(String(n + 1))] = Style(tint: .series(n)) }
        return codes
    }()

    /// Codes for the writers' colours with `attributes`: `writers("OJW", .bold)` makes "O" writer 1's colour
    /// in bold, "J" writer 2's, "W" writer 3's.
    static func writers(_ codes: String, _ attributes: Style.Attributes) -> [Character: Style] {
        Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, Style(tint: .series($0), attributes)) })
    }

    /// Row `y`'s styles, with `extra` codes besides the standard ones.
    static func row(_ buffer: ScreenBuffer, _ y: Int, extra: [Character: Style] = [:]) -> String {
        let codes = standard.merging(extra) { $1 }
        let byStyle = Dictionary(codes.map { ($0.value, $0.key) }, uniquingKeysWith: { a, b in min(a, b) })
        var text = ""
        for x in 0..<buffer.width where !buffer[x, y].isContinuation {
            text.append(byStyle[buffer[x, y].style] ?? "?")
        }
        return text
    }

    /// The styles of rows `rows`.
    static func rows(_ buffer: ScreenBuffer, _ rows: ClosedRange<Int>, extra: [Character: Style] = [:]) -> [String] {
        rows.map { row(buffer, $0, extra: extra) }
    }
}
