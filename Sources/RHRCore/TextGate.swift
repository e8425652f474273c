/// What makes a text unfit to name something (a writer, a record id): the first NUL or other control character.
public enum TextFlaw: Equatable, Sendable {
    case nul(atScalar: Int)
    case control(UInt32, atScalar: Int)

    /// "a NUL (U+0000) at character 5", "a control character (U+0009) at character 3": counted from 1, in scalars.
    public var words: String {
        switch self {
        case .nul(let at): return "a NUL (U+0000) at character \(at + 1)"
        case .control(let value, let at):
            let hex = String(value, radix: 16, uppercase: true)
            return "a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) at character \(at + 1)"
        }
    }
}

/// The one check of a name's characters: SQLite, C strings and terminals all cut or garble a name at a NUL or a
/// control character, so such a name would quietly merge or split writers (R2, R14).
public enum TextGate {
    /// The first NUL, C0 control (tab, CR and LF included: none belongs in a name), DEL or C1 control in `text`,
    /// by its index in Unicode scalars; nil when there is none.
    public static func flaw(in text: String) -> TextFlaw? {
        // Most names are short ASCII without a control: one pass over the UTF-8 finds that.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) { return nil }
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let v = scalar.value
            if v == 0 { return .nul(atScalar: index) }
            if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) { return .control(v, atScalar: index) }
        }
        return nil
    }
}
