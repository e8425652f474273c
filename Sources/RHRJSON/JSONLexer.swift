import Foundation
import RHRCore

/// Where streamed JSON comes from when it is not all in memory: a file read in blocks (`JSONStreamScanner`).
public protocol JSONByteSource {
    /// The input's size, for progress; 0 when nobody knows it (a pipe).
    var size: Int64 { get }
    /// Reads up to the buffer's size; 0 at the end of the input.
    func readJSON(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int
    /// Goes on reading at `offset`; false when the input cannot be read again (a pipe).
    func seekJSON(to offset: Int64) -> Bool
}

/// Why a `JSONByteSource` could not be read, in words (`cannot be read: Input/output error`).
public struct JSONSourceError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The one JSON lexer of rhr's two readers: `JSONParser` (a document in memory, made into values) and
/// `JSONStreamScanner` (files far larger than what should be held, walked in a window). Both read tokens, white space
/// and structure here, so the same mistake gets the same message at the same place from either.
///
/// The input is a window `buffer[0..<end]` whose first byte is at input offset `base`. In memory the window is the
/// whole input and `fill` never moves it; a stream refills it as it is consumed, keeping the bytes from `pos` (or
/// from `pin`, a value being captured), so a position before the window is gone. Line feeds and characters are
/// counted as the window moves, so every error names its line and column as well as its byte.
struct JSONLexer {
    let buffer: UnsafeMutableRawPointer
    let capacity: Int
    let source: (any JSONByteSource)?
    var end: Int
    var base: Int64 = 0
    var pos = 0
    var atEOF: Bool
    let total: Int64
    let maxDepth: Int
    /// A window index refilling must keep (the start of a value being captured), while the value is at most
    /// `captureLimit` bytes long; a longer one lets go of it (`captureOverflowed`).
    var pin: Int?
    var captureLimit = 0
    var captureOverflowed = false
    /// Called with the input consumed and its size after each refill.
    var progress: ((Int64, Int64) -> Void)?

    /// The open arrays and objects, outermost first: what names the JSON path of an error.
    var frames: [JSONFrame] = []
    /// Set once a value has been added to the innermost frame: errors then name that member.
    var afterMember = false
    /// Strings with escapes are built here; `scratchCut` when the text was longer than what was kept of it.
    var scratch: [UInt8] = []
    var scratchCut = false

    /// Line feeds before the window and the characters of its first line before it; and the same counted on to
    /// window index `counted`, so that the positions of a walk are counted once.
    var startLines = 0, startColumn = 0
    var counted = 0, countedLines = 0, countedColumn = 0
    /// Where the token being read starts (a string, a number) and the escape being read in a string: their errors
    /// name these places, so refilling keeps them in the window while they are near, and notes their lines and
    /// columns before it lets go of them.
    var token = HeldPlace()
    var escapeStart = HeldPlace()

    /// The bytes in memory: the window is all of them.
    init(memory bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        buffer = UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
        capacity = bytes.count
        source = nil
        end = bytes.count
        atEOF = true
        total = Int64(bytes.count)
        self.maxDepth = maxDepth
    }

    /// A stream, read into a window of `windowSize` bytes that the caller owns (and deallocates).
    init(source: any JSONByteSource, buffer: UnsafeMutableRawPointer, windowSize: Int, maxDepth: Int) {
        self.buffer = buffer
        capacity = windowSize
        self.source = source
        end = 0
        atEOF = false
        total = source.size
        self.maxDepth = maxDepth
    }

    /// The input offset of the next byte.
    var offset: Int64 { base + Int64(pos) }

    /// Input consumed so far (for progress).
    var consumed: Int64 { base + Int64(end) }

    @inline(__always)
    func byte(_ i: Int) -> UInt8 { buffer.load(fromByteOffset: i, as: UInt8.self) }

    func window(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer + range.lowerBound, count: range.count)
    }

    // MARK: - The window

    /// Reads more input, keeping the bytes from `pos` (or from `pin`, when it is earlier). False at the end.
    mutating func fill() throws(JSONSyntaxError) -> Bool {
        guard !atEOF, let source else { return false }
        if let p = pin, pos - p > captureLimit {
            pin = nil
            captureOverflowed = true
        }
        var keep = min(pin ?? pos, pos)
        let near = min(64, capacity / 4)
        for held in [token.offset, escapeStart.offset] where held >= base && held < base + Int64(keep) && pos - Int(held - base) <= near {
            keep = Int(held - base)
        }
        if keep > 0 {
            token = noted(token, before: keep)
            escapeStart = noted(escapeStart, before: keep)
            (startLines, startColumn) = count(to: keep)
            counted = 0
            countedLines = startLines
            countedColumn = startColumn
            memmove(buffer, buffer + keep, end - keep)
            base += Int64(keep)
            end -= keep
            pos -= keep
            if pin != nil { pin! -= keep }
        }
        if end == capacity {
            throw fail(at: base + Int64(pin ?? pos), "a value longer than \(ByteSize.words(capacity))")
        }
        let n: Int
        do {
            n = try source.readJSON(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
        } catch {
            throw fail(at: consumed, error.message)
        }
        if n == 0 {
            atEOF = true
            return false
        }
        end += n
        progress?(consumed, max(total, consumed))
        return true
    }

    /// Makes at least `count` bytes from `pos` available when the input has them; false when it ends first.
    @inline(__always)
    mutating func ensure(_ count: Int) throws(JSONSyntaxError) -> Bool {
        while end - pos < count { if try !fill() { return false } }
        return true
    }

    /// The byte at `pos`, reading more when the window is used up; nil at the end of the input.
    @inline(__always)
    mutating func next() throws(JSONSyntaxError) -> UInt8? {
        if pos < end { return byte(pos) }
        return try ensure(1) ? byte(pos) : nil
    }

    /// Skips white space and returns the next byte without consuming it; nil at the end of the input.
    @inline(__always)
    mutating func peek() throws(JSONSyntaxError) -> UInt8? {
        while true {
            while pos < end {
                let b = byte(pos)
                if b != 0x20 && b != 0x0A && b != 0x0D && b != 0x09 { return b }
                pos += 1
            }
            if try !fill() { return nil }
        }
    }

    /// Skips a UTF-8 byte order mark at the very start (files may begin with one; JSON itself has none).
    mutating func skipByteOrderMark() throws(JSONSyntaxError) {
        guard offset == 0, try ensure(3), byte(pos) == 0xEF, byte(pos + 1) == 0xBB, byte(pos + 2) == 0xBF else { return }
        pos += 3
    }

    // MARK: - Positions

    /// The line and column (1-based; columns count characters) of a window index.
    mutating func position(atIndex index: Int) -> (line: Int, column: Int) {
        let (lines, column) = count(to: index)
        return (lines + 1, column + 1)
    }

    /// The line feeds of the input before window index `index`, and the characters after the last of them.
    mutating func count(to index: Int) -> (lines: Int, column: Int) {
        var lines = startLines, column = startColumn, from = 0
        if index >= counted {
            lines = countedLines
            column = countedColumn
            from = counted
        }
        var p = from
        while p < index, let hit = memchr(buffer + p, 0x0A, index - p) {
            let next = buffer.distance(to: UnsafeMutableRawPointer(hit)) + 1
            lines += 1
            column = 0
            p = next
        }
        column += Self.characters(window(p..<index))
        if index >= counted {
            counted = index
            countedLines = lines
            countedColumn = column
        }
        return (lines, column)
    }

    private static func characters(_ bytes: UnsafeRawBufferPointer) -> Int {
        var n = 0
        for b in bytes where b & 0xC0 != 0x80 { n += 1 }
        return n
    }

    /// The place of an input offset: its line and column while it is in the window (or is held), else the byte alone.
    mutating func place(at offset: Int64) -> InputPlace {
        let index = offset - base
        if index >= 0 && index <= Int64(end) {
            let (line, column) = position(atIndex: Int(index))
            return InputPlace(line: line, column: column, byte: offset)
        }
        for held in [token, escapeStart] where held.offset == offset {
            if let (line, column) = held.place { return InputPlace(line: line, column: column, byte: offset) }
        }
        return InputPlace(byte: offset)
    }

    /// An input offset whose place an error may name after the window moved on.
    struct HeldPlace {
        var offset: Int64 = -1
        var place: (line: Int, column: Int)?
    }

    /// `held` with its place noted, when the window lets go of it with its first `keep` bytes.
    private mutating func noted(_ held: HeldPlace, before keep: Int) -> HeldPlace {
        guard held.place == nil && held.offset >= base && held.offset < base + Int64(keep) else { return held }
        return HeldPlace(offset: held.offset, place: position(atIndex: Int(held.offset - base)))
    }

    // MARK: - Errors

    /// The error at `offset`, at the JSON path the frames are at.
    mutating func fail(at offset: Int64, _ message: String) -> JSONSyntaxError {
        let place = place(at: offset)
        return JSONSyntaxError(offset: Int(offset), line: place.line, column: place.column, path: path(), message: message)
    }

    /// "'x'", "byte 0x01", "the end of the input": what the byte at `pos` is.
    func found() -> String {
        guard pos < end else { return "the end of the input" }
        let b = byte(pos)
        if b >= 0x20 && b < 0x7F { return "'\(String(UnicodeScalar(b)))'" }
        return "byte 0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }

    /// "expected X, found 'y'", at `pos`; the byte there is read first when the window ends before it.
    mutating func unexpected(_ expected: String) -> JSONSyntaxError {
        _ = try? ensure(1)
        return fail(at: offset, "expected \(expected), found \(found())")
    }

    /// After the document's value: nothing but white space.
    mutating func expectEnd() throws(JSONSyntaxError) {
        if try peek() != nil { throw fail(at: offset, "unexpected \(found()) after the JSON value") }
    }

    // MARK: - Literals

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        guard try ensure(n), memcmp(buffer + pos, word.utf8Start, n) == 0 else {
            throw fail(at: offset, "invalid literal, expected '\(word)'")
        }
        pos += n
    }
}
