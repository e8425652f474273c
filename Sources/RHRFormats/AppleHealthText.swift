import Foundation

/// Exact decoding of the bytes inside an Apple Health export's attribute values.
///
/// What is decoded, as an XML 1.0 parser would:
/// - the five predefined entities `&lt; &gt; &amp; &quot; &apos;`;
/// - character references `&#NNN;` and `&#xHHH;` naming a Unicode scalar other than U+0000;
/// - attribute-value normalisation: a literal tab, line feed, carriage return or CR LF pair becomes one space
///   (a character reference such as `&#10;` stays the character it names).
///
/// Everything else is kept literally, as written: any other named entity (`&nbsp;`, or one the internal DTD
/// declares; no entity is ever expanded beyond the five), a bare `&`, a reference to U+0000, a surrogate or a
/// value above U+10FFFF, and raw control characters such as `\x0b` that XML 1.0 forbids but real exports hold.
/// Refusing a multi-gigabyte export for one odd name would lose the user's data for nothing; keeping the text
/// as written keeps the writer recognisable. Bytes that are not UTF-8 become U+FFFD.
enum AppleHealthText {
    /// The decoded value of an attribute whose raw bytes (between the quotes) are `raw`.
    static func attributeValue(_ raw: UnsafeRawBufferPointer) -> String {
        if !needsDecoding(raw) { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        decode(raw, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `raw` holds an entity, a reference or white space that normalisation changes.
    @inline(__always)
    static func needsDecoding(_ raw: UnsafeRawBufferPointer) -> Bool {
        for b in raw where b == 0x26 || b == 0x09 || b == 0x0A || b == 0x0D { return true }
        return false
    }

    /// Appends the decoded bytes of `raw` to `out`.
    static func decode(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + raw.count)
        let n = raw.count
        var i = 0
        while i < n {
            let b = raw[i]
            switch b {
            case 0x26:  // &
                if let (scalar, length) = reference(raw, at: i) {
                    appendUTF8(scalar, to: &out)
                    i += length
                } else {
                    out.append(b)
                    i += 1
                }
            case 0x0D:  // CR, and CR LF as one line end
                out.append(0x20)
                i += (i + 1 < n && raw[i + 1] == 0x0A) ? 2 : 1
            case 0x09, 0x0A:
                out.append(0x20)
                i += 1
            default:
                out.append(b)
                i += 1
            }
        }
    }

    /// The scalar an entity or character reference at `raw[start]` (an `&`) names, and its length in bytes;
    /// nil when it is not one of those rhr decodes.
    static func reference(_ raw: UnsafeRawBufferPointer, at start: Int) -> (UInt32, Int)? {
        // The longest reference rhr decodes is `&#x0010FFFF;`; allow some leading zeros, bound the search.
        let limit = min(raw.count, start + 16)
        var semicolon = start + 1
        while semicolon < limit && raw[semicolon] != 0x3B { semicolon += 1 }
        guard semicolon < limit, semicolon > start + 1 else { return nil }
        let length = semicolon - start + 1
        let body = UnsafeRawBufferPointer(rebasing: raw[(start + 1)..<semicolon])
        if body[0] == 0x23 {  // #
            guard let scalar = characterReference(body) else { return nil }
            return (scalar, length)
        }
        switch String(decoding: body, as: UTF8.self) {
        case "lt": return (0x3C, length)
        case "gt": return (0x3E, length)
        case "amp": return (0x26, length)
        case "quot": return (0x22, length)
        case "apos": return (0x27, length)
        default: return nil
        }
    }

    /// `#NNN` or `#xHHH` (the body between `&` and `;`): a Unicode scalar other than U+0000.
    private static func characterReference(_ body: UnsafeRawBufferPointer) -> UInt32? {
        var i = 1
        let hex = body.count > 1 && body[1] == 0x78  // lower-case x only, as XML says
        if hex { i = 2 }
        guard i < body.count else { return nil }
        var value: UInt32 = 0
        while i < body.count {
            let b = body[i]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x61...0x66 where hex: digit = UInt32(b - 0x61 + 10)
            case 0x41...0x46 where hex: digit = UInt32(b - 0x41 + 10)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
            if value > 0x10FFFF { return nil }
            i += 1
        }
        guard value != 0, Unicode.Scalar(value) != nil else { return nil }
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: - Numbers

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// A decimal number as Apple writes it (`72`, `58.5`, `-1`, `1e2`, `NaN`), exactly as `Double(String)` reads it.
    /// The fast path covers plain decimals of up to 15 significant digits, which divide exactly by a power of ten.
    static func number(_ raw: UnsafeRawBufferPointer) -> Double? {
        let n = raw.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if raw[0] == 0x2D { negative = true; i = 1 } else if raw[0] == 0x2B { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var plain = i < n
        while i < n {
            let b = raw[i]
            if b >= 0x30 && b <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(b - 0x30)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if b == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                plain = false
                break
            }
            i += 1
        }
        if plain && digits > 0 && digits <= 15 && fractionDigits <= 22 {
            let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        return Double(attributeValue(raw))
    }
}
