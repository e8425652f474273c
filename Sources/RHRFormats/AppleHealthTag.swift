import Foundation

/// A span of bytes in the block being scanned: `start..<start+count` relative to the block's base pointer.
struct ByteSpan: Sendable {
    var start: Int
    var count: Int
    static let empty = ByteSpan(start: 0, count: 0)
    var end: Int { start + count }
}

/// Walks the attributes of one start tag in a block, quote-aware, in any order, with either quote and any
/// XML white space (including line breaks) around names, `=` and values.
struct AttributeCursor {
    enum Step {
        /// An attribute: its name and its raw value (between the quotes, not decoded).
        case attribute(name: ByteSpan, value: ByteSpan)
        /// The tag ended; `end` is the index just past its `>`.
        case end(selfClosing: Bool, end: Int)
        /// The block ends before the tag does.
        case needMore
        /// Not an attribute: the index of the offending byte and what was expected. (A `StaticString` keeps the
        /// step plain data, which matters on a path taken for every attribute of a multi-gigabyte export.)
        case malformed(at: Int, expected: StaticString)
    }

    let base: UnsafeRawPointer
    let limit: Int
    var i: Int

    /// A cursor at `start` (just after the element name) over `base[0..<limit]`.
    init(base: UnsafeRawPointer, start: Int, limit: Int) {
        self.base = base
        self.limit = limit
        self.i = start
    }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    @inline(__always)
    private func byte(_ k: Int) -> UInt8 { base.load(fromByteOffset: k, as: UInt8.self) }

    @inline(__always)
    private mutating func skipSpace() {
        while i < limit && AttributeCursor.isSpace(byte(i)) { i += 1 }
    }

    mutating func next() -> Step {
        skipSpace()
        guard i < limit else { return .needMore }
        let first = byte(i)
        if first == 0x3E { return .end(selfClosing: false, end: i + 1) }  // >
        if first == 0x2F {  // />
            guard i + 1 < limit else { return .needMore }
            guard byte(i + 1) == 0x3E else { return .malformed(at: i + 1, expected: "'>' after '/'") }
            return .end(selfClosing: true, end: i + 2)
        }
        let nameStart = i
        while i < limit {
            let b = byte(i)
            if b == 0x3D || AttributeCursor.isSpace(b) || b == 0x3E || b == 0x2F || b == 0x3C { break }
            i += 1
        }
        guard i < limit else { return .needMore }
        let name = ByteSpan(start: nameStart, count: i - nameStart)
        skipSpace()
        guard i < limit else { return .needMore }
        guard byte(i) == 0x3D else { return .malformed(at: i, expected: "'=' after an attribute name") }
        i += 1
        skipSpace()
        guard i < limit else { return .needMore }
        let quote = byte(i)
        guard quote == 0x22 || quote == 0x27 else { return .malformed(at: i, expected: "a quote opening an attribute value") }
        let valueStart = i + 1
        guard let close = memchr(base + valueStart, Int32(quote), limit - valueStart) else { return .needMore }
        let valueEnd = base.distance(to: UnsafeRawPointer(close))
        i = valueEnd + 1
        // An attribute must be followed by white space or the tag's end: it is not taken before that byte is seen,
        // so that where a block ends never changes what is read.
        guard i < limit else { return .needMore }
        let b = byte(i)
        if !(AttributeCursor.isSpace(b) || b == 0x3E || b == 0x2F) {
            return .malformed(at: i, expected: "white space between attributes")
        }
        return .attribute(name: name, value: ByteSpan(start: valueStart, count: valueEnd - valueStart))
    }

    /// The value of the attribute written exactly as `prefix` says at the cursor (one space, the name, `="`), as
    /// Apple writes every attribute, and the cursor moved past it; nil, the cursor unmoved, for anything else:
    /// another name or spacing, a single quote, a value that is not followed, in the block, by white space or the
    /// tag's end. `next()` then reads the same bytes as it reads any attribute, with the same result
    /// (errors included), so this is only a shorter way to what `next()` would return.
    @inline(__always)
    mutating func literal(_ prefix: StaticString) -> ByteSpan? {
        let count = prefix.utf8CodeUnitCount
        guard i + count < limit, memcmp(base + i, prefix.utf8Start, count) == 0 else { return nil }
        let valueStart = i + count
        guard let close = memchr(base + valueStart, 0x22, limit - valueStart) else { return nil }
        let valueEnd = base.distance(to: UnsafeRawPointer(close))
        guard valueEnd + 1 < limit else { return nil }
        let b = byte(valueEnd + 1)
        guard AttributeCursor.isSpace(b) || b == 0x3E || b == 0x2F else { return nil }
        i = valueEnd + 1
        return ByteSpan(start: valueStart, count: valueEnd - valueStart)
    }
}

/// Compares the bytes at a span with an ASCII literal, without making a String.
@inline(__always)
func spanEquals(_ base: UnsafeRawPointer, _ span: ByteSpan, _ literal: StaticString) -> Bool {
    guard span.count == literal.utf8CodeUnitCount else { return false }
    return memcmp(base + span.start, literal.utf8Start, span.count) == 0
}
