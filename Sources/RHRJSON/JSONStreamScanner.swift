import Foundation
import RHRCore

/// Walks JSON text in bounded memory, for files far larger than what should be parsed whole (Health Auto Export
/// files reach hundreds of MB): a window of the input is refilled as it is consumed, and only the values a caller
/// takes are kept, each at most as long as the caller allows.
///
/// A reader walks the document's structure with it (`enterObject`, `nextKey`, `enterArray`, `nextElement`), takes
/// the values it reads (`value(limit:)`) and passes over the rest (`skipValue`). Its tokens, structure and errors are
/// `JSONLexer`'s, as `JSONParser`'s are: what it passes over is checked as the parser checks it, and an error names the
/// line, column, byte and JSON path the parser would name, except that repeated keys are caught only in the objects a
/// reader walks (catching them in what it passes over would need every key kept).
public struct JSONStreamScanner: ~Copyable {
    public static let windowSize = 1 << 20
    public static let maxDepth = JSONParser.defaultMaxDepth

    var lexer: JSONLexer
    private let owned: Bool

    /// A stream read in a window of `windowSize` bytes (a value the caller takes must fit in it).
    public init(source: some JSONByteSource, windowSize: Int = JSONStreamScanner.windowSize) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: windowSize, alignment: 16)
        lexer = JSONLexer(source: source, buffer: buffer, windowSize: windowSize, maxDepth: Self.maxDepth)
        owned = true
    }

    /// Bytes already in memory (an HTTP request body), which must outlive the scanner.
    public init(memory bytes: UnsafeRawBufferPointer) {
        lexer = JSONLexer(memory: bytes, maxDepth: Self.maxDepth)
        owned = false
    }

    deinit { if owned { lexer.buffer.deallocate() } }

    /// Called with the input consumed and its size after each refill.
    public var progress: ((Int64, Int64) -> Void)? {
        get { lexer.progress }
        set { lexer.progress = newValue }
    }

    /// The input's size, for progress (0 for a pipe).
    public var total: Int64 { lexer.total }
    /// Input read so far.
    public var consumed: Int64 { lexer.consumed }
    /// The input offset of the next byte.
    public var offset: Int64 { lexer.offset }
    /// The JSON path of the value the scanner is at (`data.metrics[0].data[3]`).
    public var path: String { lexer.path() }

    /// The line, column and byte of an input offset; the byte alone once the window has let go of it.
    public mutating func place(at offset: Int64) -> InputPlace { lexer.place(at: offset) }

    // MARK: - Walking

    public mutating func skipByteOrderMark() throws(JSONSyntaxError) { try lexer.skipByteOrderMark() }

    /// Skips white space and returns the next byte without consuming it; nil at the end of the input.
    public mutating func peek() throws(JSONSyntaxError) -> UInt8? { try lexer.peek() }

    /// After the document's value: nothing but white space.
    public mutating func expectEnd() throws(JSONSyntaxError) { try lexer.expectEnd() }

    /// At `{` (after white space): enters the object and reads its first key; nil for `{}`, consumed whole.
    public mutating func enterObject() throws(JSONSyntaxError) -> String? {
        guard try lexer.peek() == 0x7B else { throw lexer.unexpected("'{'") }
        return try lexer.open(isObject: true, keys: .walked([])) ? lexer.frames[lexer.frames.count - 1].key : nil
    }

    /// After the value of an object's member: the next key, or nil at the object's end (which is then left). A key
    /// longer than 1 KiB is cut, ending in "…": no reader looks for one.
    public mutating func nextKey() throws(JSONSyntaxError) -> String? {
        guard try lexer.more() else {
            lexer.frames.removeLast()
            return nil
        }
        return lexer.frames[lexer.frames.count - 1].key
    }

    /// At `[` (after white space): enters the array; false for `[]`, consumed whole.
    public mutating func enterArray() throws(JSONSyntaxError) -> Bool {
        guard try lexer.peek() == 0x5B else { throw lexer.unexpected("'['") }
        return try lexer.open(isObject: false, keys: .passedOver)
    }

    /// After an array's element: true when another follows, false at the array's end (which is then left).
    public mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        guard try lexer.more() else {
            lexer.frames.removeLast()
            return false
        }
        return true
    }

    /// Passes over the next value (after white space), checking it.
    public mutating func skipValue() throws(JSONSyntaxError) {
        _ = try lexer.walk(CheckingWalk.self)
    }

    /// Reads the next value whole when it is at most `limit` bytes long; nil when it is longer, and then it has been
    /// passed over (checked). Either way the scanner moves past it.
    public mutating func value(limit: Int) throws(JSONSyntaxError) -> JSONValue? {
        _ = try lexer.peek()
        let start = lexer.offset
        lexer.pin = lexer.pos
        lexer.captureLimit = limit
        lexer.captureOverflowed = false
        defer { lexer.pin = nil }
        try skipValue()
        guard !lexer.captureOverflowed, lexer.offset - start <= Int64(limit) else { return nil }
        do {
            return try JSONParser.parse(lexer.window(Int(start - lexer.base)..<lexer.pos), maxDepth: lexer.maxDepth)
        } catch {
            // Only a repeated key gets here (the walk checked the rest): placed in the document.
            var placed = lexer.fail(at: start + Int64(error.offset), error.message)
            placed.path = InputPlace.join(placed.path, error.path)
            throw placed
        }
    }

    // MARK: - Going back

    /// A place to come back to, in input that can be read twice (a file, or bytes in memory; not a pipe).
    public struct Mark {
        public let offset: Int64
        let lines: Int
        let column: Int
        let frames: [JSONFrame]
    }

    public mutating func mark() -> Mark {
        let (lines, column) = lexer.count(to: lexer.pos)
        return Mark(offset: lexer.offset, lines: lines, column: column, frames: lexer.frames)
    }

    /// Goes on from `mark`. False when the input cannot be read again (a pipe).
    public mutating func seek(to mark: Mark) throws(JSONSyntaxError) -> Bool {
        if let source = lexer.source, mark.offset < lexer.base || mark.offset > lexer.consumed {
            guard source.seekJSON(to: mark.offset) else { return false }
            lexer.base = mark.offset
            lexer.end = 0
            lexer.pos = 0
            lexer.atEOF = false
            lexer.startLines = mark.lines
            lexer.startColumn = mark.column
            lexer.counted = 0
            lexer.countedLines = mark.lines
            lexer.countedColumn = mark.column
            lexer.token = JSONLexer.HeldPlace()
            lexer.escapeStart = JSONLexer.HeldPlace()
        } else {
            lexer.pos = Int(mark.offset - lexer.base)
        }
        lexer.frames = mark.frames
        lexer.afterMember = false
        return true
    }
}
