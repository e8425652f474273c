import Foundation

extension JSONLexer {
    /// A number, `pos` at its first byte, checked for JSON's grammar (no leading zeros, digits after a point and in
    /// an exponent) and for `Double`'s range; its value when `keep` (else zero, for a number only checked).
    mutating func number(keep: Bool) throws(JSONSyntaxError) -> JSONNumber {
        token = HeldPlace(offset: offset)
        let start = offset
        let negative = byte(pos) == 0x2D
        if negative { pos += 1 }
        guard let first = try next(), Self.isDigit(first) else {
            if try next() == UInt8(ascii: "I") { throw fail(at: start, "NaN and Infinity are not JSON numbers") }
            throw fail(at: offset, "expected a digit after '-', found \(found())")
        }
        // Up to 19 significant digits are gathered exactly into `mantissa`; the value is
        // mantissa × 10^(decimalShift + exponent). When digits had to be left out, `significant` is 19 and
        // the mantissa at least 10^18, so the fast path below (which needs it under 2^53) never sees them.
        var mantissa: UInt64 = 0
        var significant = 0
        var decimalShift = 0
        @inline(__always) func gather(_ b: UInt8, fraction: Bool) {
            if significant < 19 {
                if mantissa != 0 || b != 0x30 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(b - 0x30)
                if fraction { decimalShift -= 1 }
            } else if !fraction {
                decimalShift += 1
            }
        }
        if first == 0x30 {
            pos += 1
            if let b = try next(), Self.isDigit(b) { throw fail(at: offset - 1, "leading zeros are not allowed") }
        } else {
            while let b = try next(), Self.isDigit(b) {
                gather(b, fraction: false)
                pos += 1
            }
        }
        var isInteger = true
        if try next() == 0x2E {
            isInteger = false
            pos += 1
            guard let b = try next(), Self.isDigit(b) else {
                throw fail(at: offset, "expected a digit after the decimal point, found \(found())")
            }
            while let b = try next(), Self.isDigit(b) {
                gather(b, fraction: true)
                pos += 1
            }
        }
        var exponent = 0
        if let e = try next(), e == 0x65 || e == 0x45 {
            isInteger = false
            pos += 1
            var exponentNegative = false
            if let sign = try next(), sign == 0x2B || sign == 0x2D {
                exponentNegative = sign == 0x2D
                pos += 1
            }
            guard let b = try next(), Self.isDigit(b) else {
                throw fail(at: offset, "expected a digit in the exponent, found \(found())")
            }
            while let b = try next(), Self.isDigit(b) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(b - 0x30) }
                pos += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let scale = exponent + decimalShift

        guard keep else {
            // Only checked: a number is out of range when its first digit stands at 10^309 or above, or at 10^308
            // and it rounds to infinity, which the standard library tells from its text (or, if the window let go
            // of it, from the 19 digits kept, exact for any number a program wrote).
            let magnitude = significant - 1 + scale
            if significant > 0 && magnitude >= 308 {
                let value = magnitude > 308 ? nil : Double(literal(from: start) ?? "\(mantissa)e\(scale)")
                guard let value, value.isFinite else { throw fail(at: start, Self.outOfRange) }
            }
            return JSONNumber(0)
        }
        if isInteger && decimalShift == 0 {
            if negative {
                if mantissa == 0 { return .negativeZero }
                if mantissa <= UInt64(Int64.max) + 1 { return JSONNumber(Int64(truncatingIfNeeded: 0 &- mantissa)) }
            } else if mantissa <= UInt64(Int64.max) {
                return JSONNumber(Int64(mantissa))
            }
        }
        // Clinger's fast path: an exact mantissa times an exact power of ten rounds once, correctly.
        if !isInteger && mantissa < 1 << 53 && abs(scale) <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / Self.powersOfTen[-scale] : value * Self.powersOfTen[scale]
            return JSONNumber(negative ? -value : value)
        }
        // Everything else goes through the standard library's correctly rounded, locale-free conversion.
        guard let value = literal(from: start).flatMap(Double.init), value.isFinite else {
            throw fail(at: start, Self.outOfRange)
        }
        return isInteger ? .bigInteger(value) : JSONNumber(value)
    }

    static let outOfRange = "number out of range (beyond ±1.8e308)"

    /// The text from input offset `start` to `pos`, when the window still holds it.
    private func literal(from start: Int64) -> String? {
        guard start >= base else { return nil }
        return String(decoding: window(Int(start - base)..<pos), as: UTF8.self)
    }

    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { acc, _ in acc * 10 } }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
