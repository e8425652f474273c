import RHRScreen

/// Fitting text into cells: truncation with an ellipsis, padding, word wrapping.
public enum TextFit {
    /// `text` cut to `width` columns, ending in `ellipsis` when cut. One pass that stops where the text stops
    /// fitting: a megabyte of name costs what the columns hold.
    public static func truncate(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        let fitted = FittedName(text, limit: width)
        return fitted.isWhole ? text : fitted.text(columns: width, ellipsis: ellipsis).text
    }

    /// `text` padded with spaces (or cut) to exactly `width` columns.
    static func pad(_ text: String, _ width: Int, ellipsis: String = "…") -> String {
        let t = truncate(text, width, ellipsis: ellipsis)
        return t + String(repeating: " ", count: max(0, width - DisplayWidth.of(t)))
    }

    /// Right-aligned in `width` columns.
    static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) + text
    }

    /// Words wrapped to `width` columns; a word longer than a line is cut.
    public static func wrap(_ text: String, _ width: Int, ellipsis: String = "…") -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if line.isEmpty {
                line = truncate(word, width, ellipsis: ellipsis)
            } else if DisplayWidth.of(line) + 1 + DisplayWidth.of(word) <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = truncate(word, width, ellipsis: ellipsis)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

/// A name measured once, as far as `limit` columns can show of it: its characters' widths, and whether it ends
/// there. Cutting it to any width up to the limit reads no more of it, however long it is: a name has no length limit.
struct FittedName {
    /// The characters measured (all of the text when it is whole) and the columns taken after each.
    private let characters: [Character]
    private let ends: [Int]
    /// Whether the text ended within the limit (counted in characters too, so a megabyte of zero-width
    /// characters is not whole either).
    let isWhole: Bool
    let limit: Int

    init(_ text: String, limit: Int) {
        var characters: [Character] = [], ends: [Int] = []
        var used = 0, whole = true
        for ch in text {
            if characters.count > 2 * limit + 8 { whole = false; break }
            used += DisplayWidth.of(ch)
            if used > limit { whole = false; break }
            characters.append(ch)
            ends.append(used)
        }
        self.characters = characters
        self.ends = ends
        self.isWhole = whole
        self.limit = limit
    }

    /// The columns the whole text takes; more than `limit` when it is not whole.
    var width: Int { isWhole ? ends.last ?? 0 : limit + 1 }

    /// The text within `columns` (at most `limit`): whole when it fits, else its start and `ellipsis`.
    func text(columns: Int, ellipsis: String, ellipsisWidth: Int? = nil) -> (text: String, width: Int) {
        if isWhole && width <= columns { return (String(characters), width) }
        let dots = ellipsisWidth ?? DisplayWidth.of(ellipsis)
        let room = columns - dots
        guard room > 0 else { return (String(repeating: ".", count: max(0, columns)), max(0, columns)) }
        // The last character that ends within the room (`ends` never decreases).
        var low = 0, high = ends.count
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] <= room { low = mid + 1 } else { high = mid }
        }
        return (String(characters[..<low]) + ellipsis, (low > 0 ? ends[low - 1] : 0) + dots)
    }
}

/// A run of text in one style, the unit of the flowing layouts (legend, detail lines, footer hints).
struct Span: Sendable {
    var text: String
    var style: Style

    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    var width: Int { DisplayWidth.of(text) }
}

/// A line of spans.
struct StyledLine: Sendable {
    var spans: [Span]
    init(_ spans: [Span]) { self.spans = spans }
    init(_ text: String, _ style: Style = .plain) { self.spans = [Span(text, style)] }

    var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// Draws the line from (x, y), clipped to `clip`.
    func draw(in buffer: inout ScreenBuffer, x: Int, y: Int, clip: Rect) {
        var column = x
        for span in spans { column += buffer.write(span.text, x: column, y: y, style: span.style, clip: clip) }
    }

    /// `text` as the help, the comparison and the empty state set it: wrapped to `width` columns after `indent`
    /// spaces, in ASCII where `g` says so.
    static func paragraph(_ text: String, width: Int, indent: Int = 2, style: Style = .plain, glyphs g: Glyphs) -> [StyledLine] {
        TextFit.wrap(g.text(text), width - indent, ellipsis: g.ellipsis).map { StyledLine(String(repeating: " ", count: indent) + $0, style) }
    }
}

enum Flow {
    /// Places items (each a few spans that stay together) left to right, `gap` apart, wrapping onto new lines
    /// that start with `indent` spaces; an item wider than a line is cut, ending in `ellipsis`.
    static func lines(_ items: [[Span]], width: Int, gap: Int = 2, indent: Int = 0, firstIndent: Int = 0,
                      ellipsis: String = "…") -> [StyledLine] {
        guard width > 0 else { return [] }
        var lines: [StyledLine] = []
        var current: [Span] = firstIndent > 0 ? [Span(String(repeating: " ", count: firstIndent))] : []
        var used = firstIndent
        for item in items {
            let w = item.reduce(0) { $0 + $1.width }
            let atLineStart = used == (lines.isEmpty ? firstIndent : indent)
            if !atLineStart && used + gap + w > width {
                lines.append(StyledLine(current))
                current = indent > 0 ? [Span(String(repeating: " ", count: indent))] : []
                used = indent
            } else if !atLineStart {
                current.append(Span(String(repeating: " ", count: gap)))
                used += gap
            }
            let room = width - used
            if w > room, item.count == 1, case let words = TextFit.wrap(item[0].text, room, ellipsis: ellipsis),
               words.count > 1 {
                // Words too long for the line go on, indented, on the next lines.
                current.append(Span(words[0], item[0].style))
                for more in words.dropFirst().flatMap({ TextFit.wrap($0, width - indent, ellipsis: ellipsis) }) {
                    lines.append(StyledLine(current))
                    current = [Span(String(repeating: " ", count: indent)), Span(more, item[0].style)]
                }
                used = indent + (current.last?.width ?? 0)
                continue
            }
            // Any other item wider than a line is cut, ending in an ellipsis.
            current += w > room ? cut(item, room, ellipsis: ellipsis) : item
            used += min(w, room)
        }
        if used > (lines.isEmpty ? firstIndent : indent) { lines.append(StyledLine(current)) }
        return lines
    }

    /// Spans cut to `width` columns, ending in `ellipsis`.
    static func cut(_ spans: [Span], _ width: Int, ellipsis: String) -> [Span] {
        let room = width - DisplayWidth.of(ellipsis)
        guard room > 0 else { return [Span(TextFit.truncate(spans.map(\.text).joined(), width, ellipsis: ellipsis))] }
        var out: [Span] = []
        var used = 0
        for span in spans {
            if used + span.width <= room {
                out.append(span)
                used += span.width
                continue
            }
            var text = ""
            for ch in span.text {
                let w = DisplayWidth.of(ch)
                if used + w > room { break }
                text.append(ch)
                used += w
            }
            out.append(Span(text + ellipsis, span.style))
            return out
        }
        return out
    }
}
