/// The one gate for strings that come from outside rhr: a file, a sync batch, the socket, an HTTP request
/// (docs/design.md sections 1 and 8). It finds what must not pass (NUL and other control characters), bounds the
/// length of names, and writes text for a terminal with every control character visible. The policy for a flaw
/// (refuse the request, pass the record over) is its caller's; what a flaw *is* is decided here only.
public enum TextFlaw: Equatable, Sendable {
    /// U+0000, which C strings (SQLite's `-1` length, libmicrohttpd's headers) would cut the text at.
    case nul(atScalar: Int)
    /// Another C0 control (U+0001–U+001F), DEL (U+007F) or a C1 control (U+0080–U+009F): ESC, OSC and CSI
    /// among them, which a terminal obeys.
    case control(UInt32, atScalar: Int)

    /// The 0-based index of the flaw among the text's Unicode scalars.
    public var scalarIndex: Int {
        switch self {
        case .nul(let at), .control(_, let at): return at
        }
    }

    /// "a NUL (U+0000) at character 7", "a control character (U+001B) at character 1": positions counted from 1,
    /// in Unicode scalars.
    public var words: String {
        switch self {
        case .nul(let at): return "a NUL (U+0000) at character \(at + 1)"
        case .control(let value, let at): return "a control character (\(TextGate.codePoint(value))) at character \(at + 1)"
        }
    }
}

/// A string as the gate lets it in: cut to `TextGate.maxBytes`, with the length it had when it was cut.
public struct BoundedText: Equatable, Sendable {
    public var text: String
    /// The UTF-8 length of the text before the cut; nil when nothing was cut.
    public var fullBytes: Int?

    public init(text: String, fullBytes: Int?) {
        self.text = text
        self.fullBytes = fullBytes
    }
}

public enum TextGate {
    /// The bound on a writer's name and the other names a feed gives (app, device, bundle identifier, product
    /// type, stream), in UTF-8 bytes. Real ones are short (an Android package name is at most 255 characters of
    /// ASCII); none of the platforms bounds them, and a 1 MB name costs every sample that carries it (its identity
    /// holds the name) and every frame that draws it.
    public static let maxBytes = 256

    /// The first NUL, C0 control, DEL or C1 control in `text`; nil when there is none.
    public static func flaw(in text: String) -> TextFlaw? {
        guard mayHoldControl(text) else { return nil }
        for (i, scalar) in text.unicodeScalars.enumerated() where isControl(scalar) {
            return scalar.value == 0 ? .nul(atScalar: i) : .control(scalar.value, atScalar: i)
        }
        return nil
    }

    /// NUL, C0, DEL and C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// `text` cut to at most `maxBytes` UTF-8 bytes, at the last character (grapheme) boundary that fits, so
    /// no letter loses its accent and no emoji is split. A single character longer than the bound (a letter
    /// under thousands of combining marks) is cut between scalars instead.
    public static func bounded(_ text: String, maxBytes: Int = TextGate.maxBytes) -> BoundedText {
        let full = text.utf8.count
        guard full > maxBytes else { return BoundedText(text: text, fullBytes: nil) }
        var used = 0
        for character in text {
            let bytes = character.utf8.count
            if used + bytes > maxBytes { break }
            used += bytes
        }
        if used == 0 {
            for scalar in text.unicodeScalars {
                let bytes = UTF8.width(scalar)
                if used + bytes > maxBytes { break }
                used += bytes
            }
        }
        // `used` ends on a character (or scalar) boundary, so the prefix is whole UTF-8.
        return BoundedText(text: String(decoding: text.utf8.prefix(used), as: UTF8.self), fullBytes: full)
    }

    /// A descriptive name (an app's, a device's) within the bound: whole, or cut and ending in "…", so whoever
    /// reads it sees that it was cut. Not for names that identify something (a writer, a stream).
    public static func clipped(_ text: String) -> String {
        let ellipsis = "…"
        guard text.utf8.count > maxBytes else { return text }
        return bounded(text, maxBytes: maxBytes - ellipsis.utf8.count).text + ellipsis
    }

    /// `text` for a terminal or a log: every NUL, C0 control, DEL and C1 control named in words in angle brackets
    /// (`Tester<null>Watch`, `<escape>[31m`, `<control character 155>`), never raw and never as an escape a person
    /// would have to decode; with `keepingLineBreaks`, a line feed stays one (text of several lines). Text without
    /// them comes back as it is.
    public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard mayHoldControl(text) else { return text }
        var out = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingLineBreaks && scalar == "\n") {
                out.append(contentsOf: "<\(controlName(scalar.value))>".unicodeScalars)
                changed = true
            } else {
                out.append(scalar)
            }
        }
        return changed ? String(out) : text
    }

    /// A control character's name in words: its common name, else "control character" and its number.
    static func controlName(_ value: UInt32) -> String {
        let names: [UInt32: String] = [0x00: "null", 0x07: "bell", 0x08: "backspace", 0x09: "tab", 0x0A: "line feed",
                                       0x0B: "vertical tab", 0x0C: "form feed", 0x0D: "carriage return", 0x1B: "escape",
                                       0x7F: "delete"]
        return names[value] ?? "control character \(value)"
    }

    /// "U+001B".
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether any UTF-8 byte could start a control: a byte below 0x20, DEL, or 0xC2 followed by 0x80–0x9F
    /// (C1's encoding). One pass over the bytes, no decoding: most text has none.
    private static func mayHoldControl(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && byte < 0xA0 && byte >= 0x80) { return true }
            previous = byte
        }
        return false
    }
}
