import Foundation
import RHRJSON

/// A place in streamed JSON that is wrong: the byte offset in the input and what was expected there.
struct JSONStreamError: Error, Sendable, Equatable {
    var offset: Int64
    var message: String
}

/// Where streamed JSON comes from: a file read in blocks, or bytes already in memory (an HTTP request body).
enum JSONStreamSource {
    case file(ReadOnlyFile)
    case memory(UnsafeRawBufferPointer)
}

/// Walks JSON text in bounded memory, for files far larger than what should be parsed whole (Health Auto Export
/// files reach hundreds of MB): a window of the input is refilled as it is consumed, and only the values a caller
/// captures are kept, each at most as long as the caller allows.
///
/// What it checks of the values it passes over is what RFC 8259 asks (`JSONParser`'s rules: no trailing commas,
/// no leading zeros, escaped control characters, valid UTF-8, nesting up to 512), except duplicate keys, which
/// would need every key kept; the values a caller captures go through `JSONParser` whole, duplicates included.
struct JSONStreamScanner: ~Copyable {
    static let windowSize = 1 << 20
    static let maxDepth = 512

    private let source: JSONStreamSource
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private let owned: Bool
    /// The bytes of the window: `buffer[0..<end]`, the first at input offset `base`.
    private var end: Int
    private var base: Int64 = 0
    private(set) var pos = 0
    private var atEOF: Bool
    /// Line feeds in the input before `buffer[0]`: errors name the line.
    private var linesBefore = 0
    /// A window index refilling must keep (the start of a value being captured), while the value is at most
    /// `captureLimit` bytes long; a longer one lets go of it (`captureOverflowed`).
    private var pin: Int?
    private var captureLimit = 0
    private var captureOverflowed = false
    /// Called with the input consumed and its size after each refill.
    var progress: ((Int64, Int64) -> Void)?
    /// The file's size, for progress; the bytes' count in memory.
    let total: Int64

    init(_ source: JSONStreamSource) {
        self.source = source
        switch source {
        case .file(let file):
            capacity = JSONStreamScanner.windowSize
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            owned = true
            end = 0
            atEOF = false
            total = file.size
        case .memory(let bytes):
            capacity = bytes.count
            buffer = UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
            owned = false
            end = bytes.count
            atEOF = true
            total = Int64(bytes.count)
        }
    }

    deinit { if owned { buffer.deallocate() } }

    /// The input offset of the next byte.
    var offset: Int64 { base + Int64(pos) }

    /// Input consumed so far (for progress).
    var consumed: Int64 { base + Int64(end) }

    // MARK: - The window

    @inline(__always)
    private func byte(_ i: Int) -> UInt8 { buffer.load(fromByteOffset: i, as: UInt8.self) }

    /// Reads more input, keeping the bytes from `pos` (or from `pin`, when it is earlier). False at the end.
    private mutating func fill() throws(JSONStreamError) -> Bool {
        guard !atEOF, case .file(let file) = source else { return false }
        if let p = pin, pos - p > captureLimit {
            pin = nil
            captureOverflowed = true
        }
        let keep = min(pin ?? pos, pos)
        if keep > 0 {
            linesBefore += Self.lineFeeds(UnsafeRawBufferPointer(start: buffer, count: keep))
            memmove(buffer, buffer + keep, end - keep)
            base += Int64(keep)
            end -= keep
            pos -= keep
            if pin != nil { pin! -= keep }
        }
        if end == capacity {
            throw JSONStreamError(offset: base + Int64(pin ?? pos), message: "a value longer than \(capacity >> 20) MiB")
        }
        let n: Int
        do {
            n = try file.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
        } catch {
            throw JSONStreamError(offset: consumed, message: error.message)
        }
        if n == 0 { atEOF = true; return false }
        end += n
        progress?(consumed, max(total, consumed))
        return true
    }

    /// Makes at least `count` bytes from `pos` available when the input has them; false when it ends first.
    @inline(__always)
    private mutating func ensure(_ count: Int) throws(JSONStreamError) -> Bool {
        while end - pos < count { if try !fill() { return false } }
        return true
    }

    private static func lineFeeds(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard var p = bytes.baseAddress else { return 0 }
        var left = bytes.count, count = 0
        while left > 0, let hit = memchr(p, 0x0A, left) {
            count += 1
            let next = UnsafeRawPointer(hit) + 1
            left -= p.distance(to: next)
            p = next
        }
        return count
    }

    /// The line (1-based) of an input offset inside the window or at its end.
    func line(at offset: Int64) -> Int {
        let upTo = max(0, min(Int(offset - base), end))
        return linesBefore + Self.lineFeeds(UnsafeRawBufferPointer(start: buffer, count: upTo)) + 1
    }

    // MARK: - Reading

    /// Skips white space and returns the next byte without consuming it; nil at the end of the input.
    mutating func peek() throws(JSONStreamError) -> UInt8? {
        while true {
            while pos < end {
                let b = byte(pos)
                if b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 { return b }
                pos += 1
            }
            if try !fill() { return nil }
        }
    }

    /// Consumes `b` after white space, or says what was expected.
    mutating func expect(_ b: UInt8, _ expected: String) throws(JSONStreamError) {
        guard try peek() == b else { throw unexpected(expected) }
        pos += 1
    }

    /// Consumes `b` when it comes next (after white space).
    mutating func take(_ b: UInt8) throws(JSONStreamError) -> Bool {
        guard try peek() == b else { return false }
        pos += 1
        return true
    }

    /// Skips a byte order mark at the very start.
    mutating func skipByteOrderMark() throws(JSONStreamError) {
        guard offset == 0, try ensure(3), byte(pos) == 0xEF, byte(pos + 1) == 0xBB, byte(pos + 2) == 0xBF else { return }
        pos += 3
    }

    /// After the document's value: nothing but white space.
    mutating func expectEnd() throws(JSONStreamError) {
        if try peek() != nil { throw unexpected("the end of the input after the JSON value") }
    }

    /// "expected X, found 'y'".
    func unexpected(_ expected: String) -> JSONStreamError {
        JSONStreamError(offset: offset, message: "expected \(expected), found \(found())")
    }

    private func found() -> String {
        guard pos < end else { return "the end of the input" }
        let b = byte(pos)
        if b >= 0x20 && b < 0x7F { return "'\(String(UnicodeScalar(b)))'" }
        return "byte 0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }

    /// Reads the next value whole, when it is at most `limit` bytes long, and hands its bytes (valid JSON, checked
    /// on the way) to `body`; nil when it is longer, and then it has been skipped. `pos` moves past it.
    mutating func capture<T>(limit: Int, _ body: (UnsafeRawBufferPointer) throws(JSONStreamError) -> T) throws(JSONStreamError) -> T? {
        _ = try peek()
        let startOffset = offset
        pin = pos
        captureLimit = limit
        captureOverflowed = false
        defer { pin = nil }
        try skipValue()
        guard !captureOverflowed, offset - startOffset <= Int64(limit) else { return nil }
        let from = Int(startOffset - base)
        return try body(UnsafeRawBufferPointer(start: buffer + from, count: pos - from))
    }

    /// Skips the next value (after white space), checking its syntax.
    mutating func skipValue() throws(JSONStreamError) {
        // The containers open: true for an object.
        var open: [Bool] = []
        var expectingValue = true
        while true {
            if expectingValue {
                guard let b = try peek() else { throw JSONStreamError(offset: offset, message: "expected a value, found the end of the input") }
                switch b {
                case 0x7B, 0x5B:  // { [
                    if open.count >= Self.maxDepth {
                        throw JSONStreamError(offset: offset, message: "nesting deeper than \(Self.maxDepth) levels")
                    }
                    pos += 1
                    let isObject = b == 0x7B
                    open.append(isObject)
                    if try take(isObject ? 0x7D : 0x5D) {
                        open.removeLast()
                        expectingValue = false
                    } else if isObject {
                        try skipKey(afterComma: false)
                    }
                    continue
                case 0x22: try skipString()
                case 0x2D, 0x30...0x39: try skipNumber()
                case 0x74: try literal("true")
                case 0x66: try literal("false")
                case 0x6E: try literal("null")
                default: throw unexpected("a value")
                }
                expectingValue = false
            }
            guard let top = open.last else { return }
            // After a value inside a container: ',' and the next, or the container's end.
            guard let b = try peek() else {
                throw JSONStreamError(offset: offset, message: top ? "expected ',' or '}' after an object member, found the end of the input"
                                                                   : "expected ',' or ']' after an array element, found the end of the input")
            }
            if b == 0x2C {
                pos += 1
                if top {
                    try skipKey(afterComma: true)
                } else if try peek() == 0x5D {
                    throw JSONStreamError(offset: offset, message: "a trailing ',' is not allowed before ']'")
                }
                expectingValue = true
            } else if b == (top ? 0x7D : 0x5D) {
                pos += 1
                open.removeLast()
            } else {
                throw unexpected(top ? "',' or '}' after an object member" : "',' or ']' after an array element")
            }
        }
    }

    /// `"key" :` inside an object being skipped.
    private mutating func skipKey(afterComma: Bool) throws(JSONStreamError) {
        guard try peek() == 0x22 else {
            if afterComma, try peek() == 0x7D {
                throw JSONStreamError(offset: offset, message: "a trailing ',' is not allowed before '}'")
            }
            throw unexpected(afterComma ? "a string key after ','" : "a string key or '}'")
        }
        try skipString()
        try expect(0x3A, "':' after an object key")
    }

    private mutating func literal(_ word: StaticString) throws(JSONStreamError) {
        let n = word.utf8CodeUnitCount
        guard try ensure(n), memcmp(buffer + pos, word.utf8Start, n) == 0 else {
            throw JSONStreamError(offset: offset, message: "invalid literal, expected '\(word)'")
        }
        pos += n
    }

    /// A string, `pos` at its opening quote, checked as `JSONParser` checks it.
    mutating func skipString() throws(JSONStreamError) {
        let open = offset
        pos += 1
        while true {
            while pos < end {
                let b = byte(pos)
                if b == 0x22 { pos += 1; return }
                if b >= 0x20 && b < 0x80 && b != 0x5C { pos += 1; continue }
                if b == 0x5C {
                    try escape()
                } else if b < 0x20 {
                    throw JSONStreamError(offset: offset, message: "control character U+00\(b < 0x10 ? "0" : "")"
                        + String(b, radix: 16, uppercase: true) + " must be escaped in a string")
                } else {
                    try utf8()
                }
            }
            if try !fill() { throw JSONStreamError(offset: open, message: "unterminated string") }
        }
    }

    private mutating func escape() throws(JSONStreamError) {
        let at = offset
        guard try ensure(2) else { throw JSONStreamError(offset: at, message: "unterminated escape sequence") }
        switch byte(pos + 1) {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:
            pos += 2
        case 0x75:  // \u: four hex digits; a high surrogate needs a low one at once
            let unit = try hex4(at: at)
            if (0xD800...0xDBFF).contains(unit) {
                guard try ensure(2), byte(pos) == 0x5C, byte(pos + 1) == 0x75 else {
                    throw JSONStreamError(offset: at, message: "unpaired surrogate: no low surrogate follows")
                }
                let low = try hex4(at: at)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONStreamError(offset: at, message: "unpaired surrogate: followed by another escape")
                }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONStreamError(offset: at, message: "unpaired surrogate: a low surrogate without a high one")
            }
        default:
            throw JSONStreamError(offset: at, message: "invalid escape")
        }
    }

    /// `\uXXXX` at `pos`: its code unit.
    private mutating func hex4(at escape: Int64) throws(JSONStreamError) -> UInt32 {
        guard try ensure(6) else { throw JSONStreamError(offset: escape, message: "invalid \\u escape: expected four hex digits") }
        var unit: UInt32 = 0
        for k in 2..<6 {
            let b = byte(pos + k)
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            default: throw JSONStreamError(offset: escape, message: "invalid \\u escape: expected four hex digits")
            }
            unit = unit << 4 | digit
        }
        pos += 6
        return unit
    }

    /// One multi-byte UTF-8 sequence at `pos` (Unicode table 3-7), as `JSONParser` checks it.
    private mutating func utf8() throws(JSONStreamError) {
        let lead = byte(pos)
        guard let (length, second) = UTF8Sequence.rule(lead: lead) else {
            throw JSONStreamError(offset: offset, message: "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true))) in a string")
        }
        let available = try ensure(length)
        for k in 1..<length {
            guard available, (k == 1 ? second : 0x80...0xBF).contains(byte(pos + k)) else {
                throw JSONStreamError(offset: offset, message: "invalid UTF-8 (byte 0x\(String(lead, radix: 16, uppercase: true)) starts a malformed sequence) in a string")
            }
        }
        pos += length
    }

    /// A number, checked for JSON's grammar (its value is `JSONParser`'s business when captured).
    private mutating func skipNumber() throws(JSONStreamError) {
        let start = offset
        @inline(__always) func current() throws(JSONStreamError) -> UInt8? {
            if pos < end { return byte(pos) }
            return try ensure(1) ? byte(pos) : nil
        }
        @inline(__always) func digits() throws(JSONStreamError) -> Int {
            var n = 0
            while let b = try current(), b >= 0x30 && b <= 0x39 { pos += 1; n += 1 }
            return n
        }
        if try current() == 0x2D { pos += 1 }
        guard let first = try current(), first >= 0x30 && first <= 0x39 else {
            throw unexpected("a digit after '-'")
        }
        if first == 0x30 {
            pos += 1
            if let b = try current(), b >= 0x30 && b <= 0x39 {
                throw JSONStreamError(offset: start, message: "leading zeros are not allowed")
            }
        } else {
            _ = try digits()
        }
        if try current() == 0x2E {
            pos += 1
            guard try digits() > 0 else { throw unexpected("a digit after the decimal point") }
        }
        if let e = try current(), e == 0x65 || e == 0x45 {
            pos += 1
            if let sign = try current(), sign == 0x2B || sign == 0x2D { pos += 1 }
            guard try digits() > 0 else { throw unexpected("a digit in the exponent") }
        }
    }

    // MARK: - Going back

    /// A place to come back to, in input that can be read twice (a file, or bytes in memory; not a pipe).
    struct Mark {
        var offset: Int64
        var line: Int
    }

    func mark() -> Mark {
        Mark(offset: offset, line: line(at: offset) - 1)
    }

    /// Continues from `mark`. False when the input cannot be read again (a pipe).
    mutating func seek(to mark: Mark) throws(JSONStreamError) -> Bool {
        switch source {
        case .memory:
            pos = Int(mark.offset)
            return true
        case .file(let file):
            if mark.offset >= base && mark.offset <= base + Int64(end) {
                pos = Int(mark.offset - base)
                return true
            }
            guard lseek(file.descriptor, off_t(mark.offset), SEEK_SET) >= 0 else { return false }
            base = mark.offset
            end = 0
            pos = 0
            atEOF = false
            linesBefore = mark.line
            return true
        }
    }
}
