extension JSONLexer {
    /// A string, `pos` at its opening quote, checked (RFC 8259: escaped control characters, valid escapes and
    /// surrogate pairs, valid UTF-8). Its text, of which at most `keep` bytes are kept (then "…" is added); "" for a
    /// `keep` of 0, a string that is only checked.
    mutating func string(keep: Int) throws(JSONSyntaxError) -> String {
        token = HeldPlace(offset: offset)
        let open = offset
        pos += 1
        // Bytes from `start` are the text not yet copied; once anything was, the text is built in `scratch`.
        var start = pos
        var copied = false
        scratchCut = false
        while true {
            while pos < end {
                let b = byte(pos)
                if b >= 0x20 && b < 0x80 && b != 0x22 && b != 0x5C {
                    pos += 1
                    continue
                }
                if b == 0x22 {
                    defer { pos += 1 }
                    if keep == 0 { return "" }
                    if !copied && pos - start <= keep {
                        return String(decoding: window(start..<pos), as: UTF8.self)
                    }
                    copy(from: &start, copied: &copied, keep: keep)
                    return String(decoding: scratch, as: UTF8.self) + (scratchCut ? "…" : "")
                }
                if b == 0x5C {
                    if keep > 0 { copy(from: &start, copied: &copied, keep: keep) }
                    escapeStart = HeldPlace(offset: offset)
                    try escape(keep: keep)
                    start = pos
                } else if b < 0x20 {
                    throw fail(at: offset, "control character U+\(Self.hex4Text(UInt32(b))) must be escaped in a string")
                } else {
                    // A sequence that may need more input: what was read is copied before the window moves.
                    if keep > 0 && end - pos < 4 { copy(from: &start, copied: &copied, keep: keep) }
                    try utf8Sequence()
                }
            }
            if keep > 0 { copy(from: &start, copied: &copied, keep: keep) }
            if try !fill() { throw fail(at: open, "unterminated string") }
            start = pos
        }
    }

    /// Copies the text read since `start` into `scratch` (up to `keep` bytes in all), and moves `start` to `pos`.
    private mutating func copy(from start: inout Int, copied: inout Bool, keep: Int) {
        if !copied {
            scratch.removeAll(keepingCapacity: true)
            copied = true
        }
        let n = min(pos - start, max(0, keep - scratch.count))
        if n < pos - start { scratchCut = true }
        scratch.append(contentsOf: window(start..<(start + n)))
        start = pos
    }

    /// One escape, `pos` at its backslash; what it stands for goes to `scratch` while it holds under `keep` bytes.
    private mutating func escape(keep: Int) throws(JSONSyntaxError) {
        let at = offset
        guard try ensure(2) else { throw fail(at: at, "unterminated escape sequence") }
        let c = byte(pos + 1)
        let plain: UInt8
        switch c {
        case 0x22, 0x5C, 0x2F: plain = c
        case 0x62: plain = 0x08
        case 0x66: plain = 0x0C
        case 0x6E: plain = 0x0A
        case 0x72: plain = 0x0D
        case 0x74: plain = 0x09
        case 0x75:
            let unit = try hex4(escape: at)
            var scalar = unit
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard try ensure(2), byte(pos) == 0x5C, byte(pos + 1) == 0x75 else {
                    throw fail(at: at, "unpaired surrogate \\u\(Self.hex4Text(unit)): no low surrogate follows")
                }
                let low = try hex4(escape: offset)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(at: at, "unpaired surrogate \\u\(Self.hex4Text(unit)): followed by \\u\(Self.hex4Text(low))")
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw fail(at: at, "unpaired surrogate \\u\(Self.hex4Text(unit)): a low surrogate without a high one")
            default:
                break
            }
            if keep > scratch.count { appendUTF8(scalar) } else if keep > 0 { scratchCut = true }
            return
        default:
            let shown = c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "\\u{\(String(c, radix: 16))}"
            throw fail(at: at, "invalid escape '\\\(shown)'")
        }
        if keep > scratch.count { scratch.append(plain) } else if keep > 0 { scratchCut = true }
        pos += 2
    }

    /// `\uXXXX` at `pos` (the escape at input offset `escape`): its code unit.
    private mutating func hex4(escape: Int64) throws(JSONSyntaxError) -> UInt32 {
        _ = try ensure(6)
        var unit: UInt32 = 0
        for k in 2..<6 {
            guard pos + k < end, let digit = Self.hexValue(byte(pos + k)) else {
                throw fail(at: escape, "invalid \\u escape: expected four hex digits")
            }
            unit = unit << 4 | digit
        }
        pos += 6
        return unit
    }

    private static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: return UInt32(b - 0x30)
        case 0x61...0x66: return UInt32(b - 0x61 + 10)
        case 0x41...0x46: return UInt32(b - 0x41 + 10)
        default: return nil
        }
    }

    static func hex4Text(_ unit: UInt32) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// One multi-byte UTF-8 sequence at `pos` (Unicode table 3-7), checked and passed.
    private mutating func utf8Sequence() throws(JSONSyntaxError) {
        let lead = byte(pos)
        guard let (length, second) = UTF8Sequence.rule(lead: lead) else {
            throw fail(at: offset, "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true))) in a string")
        }
        _ = try ensure(length)
        for k in 1..<length {
            guard pos + k < end, (k == 1 ? second : 0x80...0xBF).contains(byte(pos + k)) else {
                throw fail(at: offset, "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)) starts a malformed sequence) in a string")
            }
        }
        pos += length
    }
}

/// What a well-formed UTF-8 sequence that starts with a given byte looks like (Unicode table 3-7: no overlong forms,
/// no surrogates, nothing above U+10FFFF): the one rule for every reader of UTF-8 rhr has.
public enum UTF8Sequence {
    /// The sequence's length and the range its second byte must be in (the others are 0x80…0xBF); nil for a byte
    /// that starts no multi-byte sequence.
    public static func rule(lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80...0xBF)
        case 0xE0: return (3, 0xA0...0xBF)
        case 0xED: return (3, 0x80...0x9F)
        case 0xE1...0xEF: return (3, 0x80...0xBF)
        case 0xF0: return (4, 0x90...0xBF)
        case 0xF4: return (4, 0x80...0x8F)
        case 0xF1...0xF3: return (4, 0x80...0xBF)
        default: return nil
        }
    }
}
