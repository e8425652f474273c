import Foundation

/// JSON text rhr refuses, with the place: byte offset (0-based), line and column (1-based; the column
/// counts characters), the JSON path of the innermost value being read (`upserted[3].start`; empty at the
/// top), and what was expected there.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var path: String
    public var message: String

    /// `line 3, column 14 (byte 40): upserted[0]: expected ',' or '}' after an object member`.
    public var description: String {
        "line \(line), column \(column) (byte \(offset)): " + messageWithPath
    }

    /// `upserted[0]: expected ',' or '}' after an object member`, or the message alone at the top.
    public var messageWithPath: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A strict RFC 8259 parser working straight on UTF-8 bytes.
///
/// Refuses what the RFC refuses (leading zeros, trailing commas, NaN and Infinity, unescaped control
/// characters, invalid UTF-8, unpaired surrogate escapes, anything after the value) and, on top of it,
/// duplicate keys, numbers beyond `Double`'s range, and nesting deeper than `maxDepth`. A byte order mark
/// is refused too: callers reading files strip it. Nesting is handled with an explicit stack, not
/// recursion, so the depth limit does not depend on the thread's stack size.
///
/// Why rhr has its own parser rather than Foundation's `JSONSerialization` or `JSONDecoder`: Foundation's
/// accepts `[1,2,]` and `{"a":1,}`, keeps one of two values of a repeated key without a word (a batch with two
/// `value`s would lose one), and its errors name no line, column or JSON path ("Unexpected end of file during
/// JSON parse." for a cut-off line), where rhr's errors must name the file and the position. And `JSONSerialization`
/// takes about three times as long on the same bytes (a 1,000-sample batch line: `rhr-bench store` measures both).
/// `JSONParserTests` shows Foundation's behaviour on those inputs next to ours.
public enum JSONParser {
    public static let defaultMaxDepth = 512

    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try data.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

// MARK: - The parser proper

private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let lowerE = UInt8(ascii: "e")
    static let upperE = UInt8(ascii: "E")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}

/// One open array or object while its members are read.
private struct Frame {
    var isObject: Bool
    var elements: [JSONValue] = []
    var object = JSONObject()
    /// The key whose value is being read (objects).
    var key: String?
}

private struct Parser {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let maxDepth: Int
    var pos = 0
    var stack: [Frame] = []
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []
    /// Set once a value has been added to the innermost frame: errors then name that member.
    var afterMember = false

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.count = bytes.count
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if pos < count { throw fail(at: pos, "unexpected \(found(pos)) after the JSON value") }
        return value
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < count {
            let b = bytes[pos]
            guard b == Byte.space || b == Byte.lineFeed || b == Byte.carriageReturn || b == Byte.tab else { return }
            pos += 1
        }
    }

    /// Reads one value with everything nested in it; `pos` is at its first byte.
    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        var value: JSONValue
        readValue: while true {
            afterMember = false
            guard pos < count else { throw fail(at: pos, "expected a value, found the end of the input") }
            switch bytes[pos] {
            case Byte.openBrace, Byte.openBracket:
                // A container opens: an empty one is a value now; otherwise its first key or element comes next.
                let isObject = bytes[pos] == Byte.openBrace
                try checkDepth()
                pos += 1
                skipWhitespace()
                if pos < count && bytes[pos] == (isObject ? Byte.closeBrace : Byte.closeBracket) {
                    pos += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    stack.append(Frame(isObject: isObject))
                    if isObject { try parseKey(afterComma: false) }
                    continue readValue
                }
            case Byte.quote:
                value = .string(try parseString())
            case Byte.minus, Byte.zero...Byte.nine:
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                throw fail(at: pos, "NaN and Infinity are not JSON numbers")
            default:
                throw fail(at: pos, "expected a value, found \(found(pos))")
            }

            // Add the finished value to the open containers, closing those that end here.
            while let top = stack.indices.last {
                afterMember = true
                if stack[top].isObject {
                    stack[top].object.appendNew(stack[top].key!, value)
                } else {
                    stack[top].elements.append(value)
                }
                skipWhitespace()
                guard pos < count else {
                    throw fail(at: pos, stack[top].isObject ? "expected ',' or '}' after an object member, found the end of the input"
                                                            : "expected ',' or ']' after an array element, found the end of the input")
                }
                let b = bytes[pos]
                if b == Byte.comma {
                    pos += 1
                    afterMember = false
                    skipWhitespace()
                    if stack[top].isObject {
                        try parseKey(afterComma: true)
                    } else if pos < count && bytes[pos] == Byte.closeBracket {
                        throw fail(at: pos, "a trailing ',' is not allowed before ']'")
                    }
                    continue readValue
                }
                if stack[top].isObject {
                    guard b == Byte.closeBrace else {
                        throw fail(at: pos, "expected ',' or '}' after an object member, found \(found(pos))")
                    }
                    value = .object(stack.removeLast().object)
                } else {
                    guard b == Byte.closeBracket else {
                        throw fail(at: pos, "expected ',' or ']' after an array element, found \(found(pos))")
                    }
                    value = .array(stack.removeLast().elements)
                }
                pos += 1
            }
            return value
        }
    }

    mutating func checkDepth() throws(JSONSyntaxError) {
        if stack.count >= maxDepth { throw fail(at: pos, "nesting deeper than \(maxDepth) levels") }
    }

    /// Reads `"key" :` into the innermost frame, refusing a key it already has.
    mutating func parseKey(afterComma: Bool) throws(JSONSyntaxError) {
        let top = stack.count - 1
        guard pos < count, bytes[pos] == Byte.quote else {
            afterMember = false
            stack[top].key = nil
            if afterComma && pos < count && bytes[pos] == Byte.closeBrace {
                throw fail(at: pos, "a trailing ',' is not allowed before '}'")
            }
            throw fail(at: pos, (afterComma ? "expected a string key after ','" : "expected a string key or '}'")
                + ", found \(found(pos))")
        }
        let keyOffset = pos
        let key = try parseString()
        afterMember = false
        stack[top].key = key
        if stack[top].object.contains(key: key) { throw fail(at: keyOffset, "duplicate key") }
        skipWhitespace()
        guard pos < count, bytes[pos] == Byte.colon else {
            throw fail(at: pos, "expected ':' after an object key, found \(found(pos))")
        }
        pos += 1
        skipWhitespace()
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        let start = word.utf8Start
        for i in 0..<n where pos + i >= count || bytes[pos + i] != start[i] {
            throw fail(at: pos, "invalid literal, expected '\(word)'")
        }
        pos += n
    }

    // MARK: Strings

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = pos
        pos += 1
        let contentStart = pos
        while pos < count {
            let b = bytes[pos]
            if b == Byte.quote {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[contentStart..<pos]), as: UTF8.self)
                pos += 1
                return text
            }
            if b == Byte.backslash { return try parseEscapedString(open: open, contentStart: contentStart) }
            if b < 0x20 { throw controlCharacter(at: pos) }
            if b < 0x80 { pos += 1 } else { try skipUTF8Sequence() }
        }
        throw fail(at: open, "unterminated string")
    }

    /// The slow path, from the first backslash on: the string is built in `scratch`.
    mutating func parseEscapedString(open: Int, contentStart: Int) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[contentStart..<pos]))
        while pos < count {
            let b = bytes[pos]
            if b == Byte.quote {
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == Byte.backslash {
                try parseEscape()
            } else if b < 0x20 {
                throw controlCharacter(at: pos)
            } else if b < 0x80 {
                scratch.append(b)
                pos += 1
            } else {
                let start = pos
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<pos]))
            }
        }
        throw fail(at: open, "unterminated string")
    }

    mutating func parseEscape() throws(JSONSyntaxError) {
        let escape = pos
        guard pos + 1 < count else { throw fail(at: escape, "unterminated escape sequence") }
        let c = bytes[pos + 1]
        pos += 2
        switch c {
        case Byte.quote: scratch.append(Byte.quote)
        case Byte.backslash: scratch.append(Byte.backslash)
        case Byte.slash: scratch.append(Byte.slash)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4(escape: escape)
            var scalar: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard pos + 1 < count, bytes[pos] == Byte.backslash, bytes[pos + 1] == UInt8(ascii: "u") else {
                    throw fail(at: escape, "unpaired surrogate \\u\(hexText(unit)): no low surrogate follows")
                }
                let lowEscape = pos
                pos += 2
                let low = try hex4(escape: lowEscape)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail(at: escape, "unpaired surrogate \\u\(hexText(unit)): followed by \\u\(hexText(low))")
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw fail(at: escape, "unpaired surrogate \\u\(hexText(unit)): a low surrogate without a high one")
            default:
                scalar = unit
            }
            appendUTF8(scalar)
        default:
            throw fail(at: escape, "invalid escape '\\\(printable(c))'")
        }
    }

    /// Four hex digits after `\u`; `pos` is at the first.
    mutating func hex4(escape: Int) throws(JSONSyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard pos < count, let digit = hexValue(bytes[pos]) else {
                throw fail(at: escape, "invalid \\u escape: expected four hex digits")
            }
            unit = unit << 4 | digit
            pos += 1
        }
        return unit
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case Byte.zero...Byte.nine: return UInt32(b - Byte.zero)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    func hexText(_ unit: UInt32) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }

    mutating func appendUTF8(_ scalar: UInt32) {
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

    /// Checks one multi-byte UTF-8 sequence at `pos` (Unicode table 3-7: no overlong forms, no surrogates,
    /// nothing above U+10FFFF) and moves past it.
    mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[pos]
        guard let (length, secondRange) = UTF8Sequence.rule(lead: lead) else {
            throw fail(at: pos, "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true))) in a string")
        }
        for i in 1..<length {
            let range = i == 1 ? secondRange : 0x80...0xBF
            guard pos + i < count, range.contains(bytes[pos + i]) else {
                throw fail(at: pos, "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)) starts a malformed sequence) in a string")
            }
        }
        pos += length
    }

    func controlCharacter(at offset: Int) -> JSONSyntaxError {
        fail(at: offset, "control character U+\(hexText(UInt32(bytes[offset]))) must be escaped in a string")
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = pos
        let negative = bytes[pos] == Byte.minus
        if negative { pos += 1 }
        guard pos < count, isDigit(bytes[pos]) else {
            if pos < count && bytes[pos] == UInt8(ascii: "I") { throw fail(at: start, "NaN and Infinity are not JSON numbers") }
            throw fail(at: pos, "expected a digit after '-', found \(found(pos))")
        }
        // Up to 19 significant digits are gathered exactly into `mantissa`; the value is
        // mantissa × 10^(decimalShift + exponent). When digits had to be left out, `significant` is 19 and
        // the mantissa at least 10^18, so the fast path below (which needs it under 2^53) never sees them.
        var mantissa: UInt64 = 0
        var significant = 0
        var decimalShift = 0
        @inline(__always) func gather(_ b: UInt8, fraction: Bool) {
            if significant < 19 {
                if mantissa != 0 || b != Byte.zero { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(b - Byte.zero)
                if fraction { decimalShift -= 1 }
            } else if !fraction {
                decimalShift += 1
            }
        }
        if bytes[pos] == Byte.zero {
            pos += 1
            if pos < count && isDigit(bytes[pos]) { throw fail(at: pos - 1, "leading zeros are not allowed") }
        } else {
            while pos < count && isDigit(bytes[pos]) {
                gather(bytes[pos], fraction: false)
                pos += 1
            }
        }
        var isInteger = true
        if pos < count && bytes[pos] == Byte.dot {
            isInteger = false
            pos += 1
            guard pos < count, isDigit(bytes[pos]) else {
                throw fail(at: pos, "expected a digit after the decimal point, found \(found(pos))")
            }
            while pos < count && isDigit(bytes[pos]) {
                gather(bytes[pos], fraction: true)
                pos += 1
            }
        }
        var exponent = 0
        if pos < count && (bytes[pos] == Byte.lowerE || bytes[pos] == Byte.upperE) {
            isInteger = false
            pos += 1
            var exponentNegative = false
            if pos < count && (bytes[pos] == Byte.plus || bytes[pos] == Byte.minus) {
                exponentNegative = bytes[pos] == Byte.minus
                pos += 1
            }
            guard pos < count, isDigit(bytes[pos]) else {
                throw fail(at: pos, "expected a digit in the exponent, found \(found(pos))")
            }
            while pos < count && isDigit(bytes[pos]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[pos] - Byte.zero) }
                pos += 1
            }
            if exponentNegative { exponent = -exponent }
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
        let scale = exponent + decimalShift
        if !isInteger && mantissa < 1 << 53 && abs(scale) <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / Parser.powersOfTen[-scale] : value * Parser.powersOfTen[scale]
            return JSONNumber(negative ? -value : value)
        }
        // Everything else goes through the standard library's correctly rounded, locale-free conversion.
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        guard let value = Double(literal), value.isFinite else {
            throw fail(at: start, "number out of range (beyond ±1.8e308)")
        }
        return isInteger ? .bigInteger(value) : JSONNumber(value)
    }

    static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { acc, _ in acc * 10 } }

    @inline(__always)
    func isDigit(_ b: UInt8) -> Bool { b >= Byte.zero && b <= Byte.nine }

    // MARK: Errors

    /// "'x'", "byte 0x01", "the end of the input".
    func found(_ offset: Int) -> String {
        guard offset < count else { return "the end of the input" }
        let b = bytes[offset]
        if b >= 0x20 && b < 0x7F { return "'\(printable(b))'" }
        return "byte 0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }

    func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    func fail(at offset: Int, _ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(offset, count)
        for i in 0..<end where bytes[i] == Byte.lineFeed {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(offset: offset, line: line, column: column, path: currentPath(), message: message)
    }

    /// `upserted[3].start`: where in the document the parser is. Very deep paths keep their last part.
    func currentPath() -> String {
        var path = ""
        for (depth, frame) in stack.enumerated() {
            let isTop = depth == stack.count - 1
            if frame.isObject {
                guard let key = frame.key else { continue }
                path += path.isEmpty ? key : "." + key
            } else {
                let index = isTop && afterMember ? frame.elements.count - 1 : frame.elements.count
                path += "[\(index)]"
            }
        }
        return path.utf8.count > 240 ? "…" + String(path.suffix(200)) : path
    }
}

/// What a well-formed UTF-8 sequence that starts with a given byte looks like (Unicode table 3-7: no overlong forms,
/// no surrogates, nothing above U+10FFFF): the one rule for every JSON reader rhr has.
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
