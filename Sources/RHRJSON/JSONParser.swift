import Foundation
import RHRCore

/// JSON text rhr refuses, with the place: byte offset (0-based), line and column (1-based; the column counts
/// characters), the JSON path of the innermost value being read (`upserted[3].start`; empty at the top), and what was
/// expected there. `JSONParser` and `JSONStreamScanner` throw it alike; line and column are nil only for a place a
/// stream's window has let go of.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int?
    public var column: Int?
    public var path: String
    public var message: String

    public init(offset: Int, line: Int?, column: Int?, path: String, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `line 3, column 14, byte 40, upserted[0]`, written as every place rhr names is (`InputPlace`).
    public var place: InputPlace { InputPlace(line: line, column: column, byte: Int64(offset), path: path) }

    /// `line 3, column 14, byte 40, upserted[0]: expected ',' or '}' after an object member`.
    public var description: String { place.words(message) }
}

/// A strict RFC 8259 parser working straight on UTF-8 bytes.
///
/// Refuses what the RFC refuses (leading zeros, trailing commas, NaN and Infinity, unescaped control
/// characters, invalid UTF-8, unpaired surrogate escapes, anything after the value) and, on top of it,
/// duplicate keys, numbers beyond `Double`'s range, and nesting deeper than `maxDepth`. A byte order mark
/// is refused too, unless the caller says its input may start with one (a file's first line). Nesting is handled
/// with an explicit stack, not recursion, so the depth limit does not depend on the thread's stack size. Its tokens,
/// structure and errors are `JSONLexer`'s, which `JSONStreamScanner` reads with too.
///
/// Why rhr has its own parser rather than Foundation's `JSONSerialization` or `JSONDecoder`: Foundation's
/// accepts `[1,2,]` and `{"a":1,}`, keeps one of two values of a repeated key without a word (a batch with two
/// `value`s would lose one), and its errors name no line, column or JSON path ("Unexpected end of file during
/// JSON parse." for a cut-off line), where rhr's errors must name the file and the position. And `JSONSerialization`
/// takes about three times as long on the same bytes (a 1,000-sample batch line: `rhr-bench store` measures both;
/// a whole Health Auto Export file: `rhr-bench json`). `JSONParserTests` shows Foundation's behaviour on those inputs
/// next to ours.
public enum JSONParser {
    public static let defaultMaxDepth = 512

    /// `byteOrderMark`: a UTF-8 byte order mark at the start is passed over (it still counts in offsets and columns).
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth,
                             byteOrderMark: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        var lexer = JSONLexer(memory: bytes, maxDepth: maxDepth)
        if byteOrderMark { try lexer.skipByteOrderMark() }
        let value = try lexer.walk(BuildingWalk.self)
        try lexer.expectEnd()
        return value
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth,
                             byteOrderMark: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, maxDepth: maxDepth, byteOrderMark: byteOrderMark) }
        }.get()
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, maxDepth: Int = defaultMaxDepth,
                             byteOrderMark: Bool = false) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer, maxDepth: maxDepth, byteOrderMark: byteOrderMark) }
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
