@testable import RHRJSON
import Foundation
import RHRTestSupport
import Testing

/// Bytes handed to a `JSONStreamScanner` a few at a time, as a file read in small blocks would be.
final class ChunkedSource: JSONByteSource {
    let bytes: [UInt8]
    let chunk: Int
    private var position = 0

    init(_ bytes: [UInt8], chunk: Int) {
        self.bytes = bytes
        self.chunk = chunk
    }

    var size: Int64 { Int64(bytes.count) }

    func readJSON(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int {
        let n = min(chunk, buffer.count, bytes.count - position)
        for k in 0..<n { buffer[k] = bytes[position + k] }
        position += n
        return n
    }

    func seekJSON(to offset: Int64) -> Bool {
        position = Int(offset)
        return true
    }
}

/// The parser and the streaming scanner read with one lexer: the same bad input gets the same error from both, whole
/// (message, byte, line, column, JSON path), whether the scanner has the bytes in memory or reads them through a
/// window smaller than the input, a few bytes at a time.
@Suite("JSONParser and JSONStreamScanner agree")
struct JSONLexerAgreementTests {
    /// What the scanner says of `input` when it passes over it as one document: nil when it accepts it.
    static func scannerError(_ input: [UInt8], window: Int? = nil, chunk: Int = 3) -> JSONSyntaxError? {
        func walk(_ scanner: inout JSONStreamScanner) -> JSONSyntaxError? {
            do {
                try scanner.skipValue()
                try scanner.expectEnd()
                return nil
            } catch {
                return error
            }
        }
        if let window {
            var scanner = JSONStreamScanner(source: ChunkedSource(input, chunk: chunk), windowSize: window)
            return walk(&scanner)
        }
        return input.withUnsafeBytes { buffer in
            var scanner = JSONStreamScanner(memory: buffer)
            return walk(&scanner)
        }
    }

    static let table = JSONParserRefusalTests.structure + JSONParserRefusalTests.numbers + JSONParserRefusalTests.strings
        + JSONParserRefusalTests.positions + [
            BadJSON(String(repeating: "[", count: 513) + String(repeating: "]", count: 513), offset: 512,
                    path: "…" + String(String(repeating: "[0]", count: 512).suffix(200)), "nesting deeper than 512 levels"),
            BadJSON("{\"a\":[1,{\"b\":[true,\"x\\u00e9\\uD83D\\uDE00\",nul]}]}", offset: 41, path: "a[1].b[2]",
                    "invalid literal, expected 'null'"),
            BadJSON("{\"long\":\"" + String(repeating: "é", count: 40) + "\"" + ",\n\"n\":-}", offset: 97, line: 2, column: 6,
                    path: "n", "expected a digit after '-', found '}'"),
        ]

    @Test("every bad input of the parser's table is refused by the scanner with the same error, in memory and through small windows",
          arguments: table)
    func sameError(_ bad: BadJSON) throws {
        let parsed = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bad.input) }
        if bad.expected.message == "duplicate key" {
            // The one difference, by design: the scanner does not keep the keys of what it passes over.
            #expect(Self.scannerError(bad.input) == nil)
            #expect(Self.scannerError(bad.input, window: 16) == nil)
            return
        }
        #expect(parsed == bad.expected)
        #expect(Self.scannerError(bad.input) == bad.expected)
        #expect(Self.scannerError(bad.input, window: 16) == bad.expected)
        #expect(Self.scannerError(bad.input, window: 64, chunk: 1) == bad.expected)
    }

    @Test("what the parser accepts, the scanner passes over, through any window")
    func sameAcceptance() throws {
        let good = [
            "{\"a\":[true,false,null,{\"b\":\"x\\u00e9\\uD83D\\uDE00\\n\"}],\"c\":-0.5e-3,\"d\":1.7976931348623157e308}",
            " [ 1 , 2 , [ ] , { } ] \n",
            "\"Jane’s Apple Watch 😀\"",
            String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        ]
        for text in good {
            let bytes = Array(text.utf8)
            _ = try JSONParser.parse(bytes)
            #expect(Self.scannerError(bytes) == nil, "\(text)")
            #expect(Self.scannerError(bytes, window: 16) == nil, "\(text)")
        }
    }

    @Test("bytes changed at random in a batch-like document: the parser and the scanner refuse or accept them alike")
    func randomDamage() throws {
        let seed = Array(#"{"store":"healthkit","asOf":"2026-11-29T08:00:00+01:00","upserted":[{"type":"restingHeartRate","#
            .utf8) + Array(#""value":58.5e0,"source":{"name":"Jane’s é Watch 😀"},"ok":[true,false,null,-0,1E-2]}]}"#.utf8)
        let alphabet = Array(#"{}[],:"\ u0123456789eE+-.tfnlrsaNI"#.utf8) + [0x0A, 0x01, 0xC3, 0xE2, 0xF0, 0x80, 0xFF]
        var random = SplitMix64(seed: 0x1E8E)
        var refused = 0
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
            }
            var parsed: JSONSyntaxError?
            do { _ = try JSONParser.parse(bytes) } catch { parsed = error }
            if parsed?.message == "duplicate key" { continue }
            if parsed != nil { refused += 1 }
            let shown = String(decoding: bytes, as: UTF8.self)
            #expect(Self.scannerError(bytes) == parsed, "\(shown)")
            #expect(Self.scannerError(bytes, window: 32, chunk: 5) == parsed, "\(shown)")
        }
        #expect(refused == 2079)
    }

    @Test("an error after many lines and a window's worth of bytes names the same line, column and path")
    func farIntoTheInput() throws {
        var text = "{\"points\":[\n"
        for i in 0..<500 { text += "{\"date\":\"2024-01-02 00:00:00 +0100\",\"qty\":\(i),\"source\":\"Jane’s Apple Watch\"},\n" }
        text += "{\"date\":\"x\",\"qty\":01}]}"
        let bytes = Array(text.utf8)
        let parsed = try #require(#expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bytes) })
        #expect(parsed.line == 502 && parsed.column == 19 && parsed.path == "points[500].qty")
        #expect(parsed.message == "leading zeros are not allowed")
        #expect(Self.scannerError(bytes) == parsed)
        #expect(Self.scannerError(bytes, window: 64, chunk: 7) == parsed)
        #expect(Self.scannerError(bytes, window: 4096, chunk: 1000) == parsed)
    }
}
