/// Writes JSON values as UTF-8 text.
///
/// `compact`: one line, no spaces; what goes over the socket and into batch files (a JSON line).
/// `pretty`: two-space indentation, `"key": value`; what `rhr export --format json` prints.
/// Both keep object key order, write non-ASCII characters raw, leave `/` unescaped, escape `"`, `\` and
/// control characters (DEL and C1 too), write integers as integers and other doubles in the shortest form that reads back
/// to the same `Double`. NaN and infinities are not JSON: putting them in a value is a programmer error,
/// and the writer writes `null` for them rather than invalid text.
public enum JSONWriter {
    public enum Style: Sendable {
        case compact
        case pretty
    }

    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        String(decoding: bytes(value, style: style), as: UTF8.self)
    }

    public static func bytes(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        append(value, to: &out, style: style)
        return out
    }

    /// Appends the value's text to `out` (no trailing newline).
    public static func append(_ value: JSONValue, to out: inout [UInt8], style: Style = .compact) {
        switch style {
        case .compact: appendCompact(value, to: &out)
        case .pretty: appendPretty(value, indent: 0, to: &out)
        }
    }

    // MARK: - Compact

    private static func appendCompact(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: appendASCII("null", to: &out)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &out)
        case .number(let number): appendNumber(number, to: &out)
        case .string(let text): appendString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendCompact(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for i in object.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(object.keys[i], to: &out)
                out.append(UInt8(ascii: ":"))
                appendCompact(object.values[i], to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    // MARK: - Pretty

    private static func appendPretty(_ value: JSONValue, indent: Int, to out: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, to: &out)
                appendPretty(element, indent: indent + 1, to: &out)
            }
            newline(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            for i in object.indices {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1, to: &out)
                appendString(object.keys[i], to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(UInt8(ascii: " "))
                appendPretty(object.values[i], indent: indent + 1, to: &out)
            }
            newline(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        default:
            appendCompact(value, to: &out)
        }
    }

    private static func newline(_ indent: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    // MARK: - Scalars

    private static func appendASCII(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Copy runs of bytes that need no escape in one go. DEL and the C1 controls (0xC2 0x80–0x9F in UTF-8)
            // are escaped too, though JSON allows them raw: what a terminal would obey is never written raw.
            var runStart = 0
            var i = 0
            while i < utf8.count {
                let b = utf8[i]
                let c1 = b == 0xC2 && i + 1 < utf8.count && utf8[i + 1] >= 0x80 && utf8[i + 1] < 0xA0
                guard b < 0x20 || b == 0x7F || c1 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendEscape(c1 ? utf8[i + 1] : b, to: &out)
                i += c1 ? 2 : 1
                runStart = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ b: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch b {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 0xF)]])
        }
    }

    static func appendNumber(_ number: JSONNumber, to out: inout [UInt8]) {
        if let int = number.int64 {
            if int == 0 && number.double.sign == .minus { out.append(UInt8(ascii: "-")) }
            appendInteger(int, to: &out)
            return
        }
        let value = number.double
        guard value.isFinite else {
            appendASCII("null", to: &out)
            return
        }
        if number.isInteger && value == value.rounded() {
            // An integer literal beyond Int64: all its digits, so it reads back as an integer.
            out.append(contentsOf: exactIntegerDigits(value).utf8)
            return
        }
        // Swift's description is the shortest text that reads back to the same Double, and is valid JSON
        // ("58.5", "1e-07", "1e+16", "100.0"): the ".0" keeps a double a double when read back.
        out.append(contentsOf: value.description.utf8)
    }

    private static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: digits[first...])
        }
    }

    /// The exact decimal digits of an integral Double, however large (up to 309 digits).
    static func exactIntegerDigits(_ value: Double) -> String {
        // value = significand × 2^exponent with an integral significand below 2^53.
        let negative = value < 0
        let magnitude = value.magnitude
        guard magnitude >= 0x1p53 else { return (negative ? "-" : "") + String(UInt64(magnitude)) }
        let exponent = Int(magnitude.exponent) - 52
        let significand = UInt64(magnitude.significandBitPattern) | 1 << 52
        // Little-endian base-10^9 limbs, doubled `exponent` times.
        var limbs: [UInt64] = []
        var rest = significand
        while rest > 0 {
            limbs.append(rest % 1_000_000_000)
            rest /= 1_000_000_000
        }
        for _ in 0..<exponent {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let doubled = limbs[i] * 2 + carry
                limbs[i] = doubled % 1_000_000_000
                carry = doubled / 1_000_000_000
            }
            if carry > 0 { limbs.append(carry) }
        }
        var text = negative ? "-" : ""
        text += String(limbs.last!)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}
