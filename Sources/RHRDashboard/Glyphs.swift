import Foundation
import RHRCore
import RHRScreen

/// The symbols the dashboard draws, in UTF-8 or plain ASCII (non-UTF-8 locales, the Linux console). One meaning
/// per glyph in either set: a writer's glyph is never a flag, an axis mark or the cursor (the cursor day is a
/// highlighted column, not a glyph). Each writer gets its own glyph so the chart reads without colour; a
/// provisional value (R3) is the hollow form of its writer's glyph. In ASCII a writer's glyph is its number, the
/// key that toggles it; writers after the ninth are letters (A, B, …) in either set, and a letter's or a number's
/// provisional form is itself underlined, so a provisional mark never hides whose it is.
struct Glyphs: Sendable {
    let unicode: Bool
    /// The chart's lines are braille; without (a font that has none, `glyphs = blocks`), half blocks.
    let braille: Bool

    init(unicode: Bool, braille: Bool = true) {
        self.unicode = unicode
        self.braille = unicode && braille
    }

    /// The glyphs a terminal with `capabilities` shows.
    init(_ capabilities: TerminalCapabilities) {
        self.init(unicode: capabilities.unicode, braille: capabilities.braille)
    }

    private static let filled: [Character] = ["●", "◆", "■", "▲", "▼", "★", "✚", "◀", "▶"]
    private static let hollow: [Character] = ["○", "◇", "□", "△", "▽", "☆", "✙", "◁", "▷"]
    private static let asciiSeries: [Character] = ["1", "2", "3", "4", "5", "6", "7", "8", "9"]
    /// Writers 10 and on; no lower-case letter, which the columns' flags (`p`, `o`, `x`, `d`) use.
    private static let letters: [Character] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// Writer `index`'s glyph (0-based).
    func series(_ index: Int) -> Character {
        let i = index % (Glyphs.filled.count + Glyphs.letters.count)
        if i >= Glyphs.filled.count { return Glyphs.letters[i - Glyphs.filled.count] }
        return unicode ? Glyphs.filled[i] : Glyphs.asciiSeries[i]
    }

    /// Writer `index`'s glyph for a provisional value: the hollow form, or where there is none (a number, a letter)
    /// the glyph itself, drawn with `provisionalStyle`.
    func provisional(_ index: Int) -> Character {
        let i = index % (Glyphs.filled.count + Glyphs.letters.count)
        return unicode && i < Glyphs.hollow.count ? Glyphs.hollow[i] : series(index)
    }

    /// How writer `index`'s provisional glyph is drawn: in its colour, underlined where the glyph has no hollow form.
    func provisionalStyle(_ index: Int) -> Style {
        provisional(index) == series(index) ? Style.series(index).with(.underline) : .series(index)
    }

    var context: Character { unicode ? "·" : ":" }
    var outOfRange: Character { unicode ? "×" : "x" }
    /// A day a live update just changed: a mark no writer, flag or axis uses.
    var changed: Character { unicode ? "↻" : "*" }
    var cursorRow: Character { unicode ? "▸" : ">" }
    var horizontal: Character { unicode ? "─" : "-" }
    var vertical: Character { unicode ? "│" : "|" }
    var tick: Character { unicode ? "┬" : "+" }
    var axisTick: Character { unicode ? "┤" : "+" }
    var corner: Character { unicode ? "└" : "+" }
    /// The usual range's edges where there is no colour to shade it.
    var bandEdge: Character { unicode ? "┄" : "." }
    /// A whisker as legends and the help show it (the chart draws whiskers with braille lines, in ASCII with `|`).
    var whisker: Character { unicode ? "⡇" : "|" }
    var ellipsis: String { unicode ? "…" : "~" }
    var dash: String { unicode ? "–" : "-" }
    var emDash: String { unicode ? "—" : "-" }
    var dot: String { unicode ? "·" : "-" }
    /// More per-source columns that way.
    var moreLeft: String { unicode ? "←" : "<-" }
    var moreRight: String { unicode ? "→" : "->" }

    /// "Jane’s Apple Watch", "Oura": a writer's short name for legends and column headings.
    func shortName(_ writer: Writer) -> String { text(writer.shortName) }

    /// Free text (writer names, messages) made safe for the terminal: control characters named in words
    /// (`TextGate.visible`: a name "A", NUL, "B" is drawn "A<null>B", never as "AB", another writer's name); unchanged in UTF-8
    /// otherwise, transliterated to ASCII where there is none, so a curly apostrophe or an emoji never comes out
    /// as mojibake.
    func text(_ raw: String) -> String {
        let s = TextGate.visible(raw)
        if unicode { return s }
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        var out = ""
        for ch in s {
            if ch.isASCII { out.append(ch); continue }
            switch ch {
            case "’", "‘", "‚", "′": out.append("'")
            case "“", "”", "„", "″": out.append("\"")
            case "–", "—", "−": out.append("-")
            case "…": out.append("...")
            case "×": out.append("x")
            case "·", "•": out.append("-")
            case "→": out.append("->")
            case "←": out.append("<-")
            case "↑": out.append("Up")
            case "↓": out.append("Down")
            case "\u{00A0}": out.append(" ")
            default:
                let folded = String(ch).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
                if folded.allSatisfy(\.isASCII) && !folded.isEmpty { out += folded } else { out.append("?") }
            }
        }
        return out
    }
}
