@testable import RHRJSON
import Foundation
import RHRTestSupport
import Testing


/// One input the parser must refuse, and exactly where and why: the error it must throw, whole.
struct BadJSON: Sendable, CustomTestStringConvertible {
    var input: [UInt8]
    var expected: JSONSyntaxError

    init(_ text: String, offset: Int, line: Int = 1, column: Int? = nil, path: String = "", _ message: String) {
        self.init(bytes: Array(text.utf8), offset: offset, line: line, column: column, path: path, message)
    }

    init(bytes: [UInt8], offset: Int, line: Int = 1, column: Int? = nil, path: String = "", _ message: String) {
        input = bytes
        expected = JSONSyntaxError(offset: offset, line: line, column: column ?? offset + 1, path: path, message: message)
    }

    var testDescription: String {
        let shown = input.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }
        return shown.joined() + " → " + expected.message
    }
}

@Suite("JSONParser: refused input")
struct JSONParserRefusalTests {
    static let structure: [BadJSON] = [
        BadJSON("", offset: 0, "expected a value, found the end of the input"),
        BadJSON("  \n ", offset: 4, line: 2, column: 2, "expected a value, found the end of the input"),
        BadJSON("{\"a\":1 \"b\":2}", offset: 7, path: "a", "expected ',' or '}' after an object member, found '\"'"),
        BadJSON("{\"a\":1", offset: 6, path: "a", "expected ',' or '}' after an object member, found the end of the input"),
        BadJSON("[1 2]", offset: 3, path: "[0]", "expected ',' or ']' after an array element, found '2'"),
        BadJSON("[1,2", offset: 4, path: "[1]", "expected ',' or ']' after an array element, found the end of the input"),
        BadJSON("{\"a\" 1}", offset: 5, path: "a", "expected ':' after an object key, found '1'"),
        BadJSON("{1:2}", offset: 1, "expected a string key or '}', found '1'"),
        BadJSON("{\"a\":1,}", offset: 7, "a trailing ',' is not allowed before '}'"),
        BadJSON("{\"a\":1,2}", offset: 7, "expected a string key after ',', found '2'"),
        BadJSON("[1,]", offset: 3, path: "[1]", "a trailing ',' is not allowed before ']'"),
        BadJSON("[1,,2]", offset: 3, path: "[1]", "expected a value, found ','"),
        BadJSON("{\"a\":}", offset: 5, path: "a", "expected a value, found '}'"),
        BadJSON("]", offset: 0, "expected a value, found ']'"),
        BadJSON("{} x", offset: 3, "unexpected 'x' after the JSON value"),
        BadJSON("1 2", offset: 2, "unexpected '2' after the JSON value"),
        BadJSON("[]]", offset: 2, "unexpected ']' after the JSON value"),
        BadJSON("{\"a\":1}\n{\"b\":2}", offset: 8, line: 2, column: 1, "unexpected '{' after the JSON value"),
        BadJSON(bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], offset: 0, "expected a value, found byte 0xEF"),
        BadJSON(bytes: [0x00], offset: 0, "expected a value, found byte 0x00"),
        BadJSON("'a'", offset: 0, "expected a value, found '''"),
        BadJSON("tru", offset: 0, "invalid literal, expected 'true'"),
        BadJSON("True", offset: 0, "expected a value, found 'T'"),
        BadJSON("nul", offset: 0, "invalid literal, expected 'null'"),
        BadJSON("[falsey]", offset: 6, path: "[0]", "expected ',' or ']' after an array element, found 'y'"),
        BadJSON("{\"a\":{\"b\":1,\"b\":2}}", offset: 12, path: "a.b", "duplicate key"),
        BadJSON("{\"u\":[{},{\"x\":1,\"x\":2}]}", offset: 16, path: "u[1].x", "duplicate key"),
        BadJSON("{\"a\":1,\"a\":1}", offset: 7, path: "a", "duplicate key"),
    ]

    static let numbers: [BadJSON] = [
        BadJSON("01", offset: 0, "leading zeros are not allowed"),
        BadJSON("-01", offset: 1, "leading zeros are not allowed"),
        BadJSON("[00]", offset: 1, path: "[0]", "leading zeros are not allowed"),
        BadJSON("-", offset: 1, "expected a digit after '-', found the end of the input"),
        BadJSON("-a", offset: 1, "expected a digit after '-', found 'a'"),
        BadJSON("1.", offset: 2, "expected a digit after the decimal point, found the end of the input"),
        BadJSON("1.e5", offset: 2, "expected a digit after the decimal point, found 'e'"),
        BadJSON("1e", offset: 2, "expected a digit in the exponent, found the end of the input"),
        BadJSON("1e+", offset: 3, "expected a digit in the exponent, found the end of the input"),
        BadJSON("1E-x", offset: 3, "expected a digit in the exponent, found 'x'"),
        BadJSON("+1", offset: 0, "expected a value, found '+'"),
        BadJSON(".5", offset: 0, "expected a value, found '.'"),
        BadJSON("NaN", offset: 0, "NaN and Infinity are not JSON numbers"),
        BadJSON("Infinity", offset: 0, "NaN and Infinity are not JSON numbers"),
        BadJSON("[-Infinity]", offset: 1, path: "[0]", "NaN and Infinity are not JSON numbers"),
        BadJSON("1e400", offset: 0, "number out of range (beyond ±1.8e308)"),
        BadJSON("-1e400", offset: 0, "number out of range (beyond ±1.8e308)"),
        BadJSON("1.8e308", offset: 0, "number out of range (beyond ±1.8e308)"),
        BadJSON("{\"v\":" + String(repeating: "9", count: 400) + "}", offset: 5, path: "v", "number out of range (beyond ±1.8e308)"),
        BadJSON("0x10", offset: 1, "unexpected 'x' after the JSON value"),
    ]

    static let strings: [BadJSON] = [
        BadJSON("\"abc", offset: 0, "unterminated string"),
        BadJSON("[\"a\\\"]", offset: 1, path: "[0]", "unterminated string"),
        BadJSON("\"a\nb\"", offset: 2, "control character U+000A must be escaped in a string"),
        BadJSON("\"a\tb\"", offset: 2, "control character U+0009 must be escaped in a string"),
        BadJSON(bytes: [0x22, 0x01, 0x22], offset: 1, "control character U+0001 must be escaped in a string"),
        BadJSON("\"\\u00e9\u{1F}\"", offset: 7, "control character U+001F must be escaped in a string"),
        BadJSON("\"\\q\"", offset: 1, "invalid escape '\\q'"),
        BadJSON("\"\\'\"", offset: 1, "invalid escape '\\''"),
        BadJSON("\"\\", offset: 1, "unterminated escape sequence"),
        BadJSON("\"\\u12\"", offset: 1, "invalid \\u escape: expected four hex digits"),
        BadJSON("\"\\u12G4\"", offset: 1, "invalid \\u escape: expected four hex digits"),
        BadJSON("\"\\uD800\"", offset: 1, "unpaired surrogate \\uD800: no low surrogate follows"),
        BadJSON("\"\\uD83Dx\"", offset: 1, "unpaired surrogate \\uD83D: no low surrogate follows"),
        BadJSON("\"\\uD800\\u0041\"", offset: 1, "unpaired surrogate \\uD800: followed by \\u0041"),
        BadJSON("\"\\uD800\\uD800\"", offset: 1, "unpaired surrogate \\uD800: followed by \\uD800"),
        BadJSON("\"ab\\uDC00\"", offset: 3, column: 4, "unpaired surrogate \\uDC00: a low surrogate without a high one"),
        BadJSON("\"\\uD800\\u12\"", offset: 7, "invalid \\u escape: expected four hex digits"),
        BadJSON(bytes: [0x22, 0xFF, 0x22], offset: 1, "invalid UTF-8 (byte 0xFF) in a string"),
        BadJSON(bytes: [0x22, 0x80, 0x22], offset: 1, "invalid UTF-8 (byte 0x80) in a string"),
        BadJSON(bytes: [0x22, 0xC0, 0xAF, 0x22], offset: 1, "invalid UTF-8 (byte 0xC0) in a string"),
        BadJSON(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], offset: 1, "invalid UTF-8 (byte 0xE0 starts a malformed sequence) in a string"),
        BadJSON(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], offset: 1, "invalid UTF-8 (byte 0xED starts a malformed sequence) in a string"),
        BadJSON(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], offset: 1, "invalid UTF-8 (byte 0xF4 starts a malformed sequence) in a string"),
        BadJSON(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], offset: 1, "invalid UTF-8 (byte 0xF5) in a string"),
        BadJSON(bytes: [0x22, 0xE2, 0x82, 0x22], offset: 1, "invalid UTF-8 (byte 0xE2 starts a malformed sequence) in a string"),
        BadJSON(bytes: [0x22, 0xE2, 0x82], offset: 1, "invalid UTF-8 (byte 0xE2 starts a malformed sequence) in a string"),
        // Invalid UTF-8 after an escape takes the slow path; it must be caught there too.
        BadJSON(bytes: Array("\"\\n".utf8) + [0xC3, 0x28, 0x22], offset: 3, column: 4,
                "invalid UTF-8 (byte 0xC3 starts a malformed sequence) in a string"),
        BadJSON(bytes: [0x7B, 0xC3, 0xA9, 0x7D], offset: 1, "expected a string key or '}', found byte 0xC3"),
    ]

    static let positions: [BadJSON] = [
        // Lines count line feeds; columns count characters, not bytes.
        BadJSON("{\n  \"a\": tru\n}", offset: 9, line: 2, column: 8, path: "a", "invalid literal, expected 'true'"),
        BadJSON("{\r\n  \"a\": [1,\r\n  2 3]}", offset: 19, line: 3, column: 5, path: "a[1]",
                "expected ',' or ']' after an array element, found '3'"),
        BadJSON("[\"é😀\", x]", offset: 11, column: 8, path: "[1]", "expected a value, found 'x'"),
        BadJSON("{\"upserted\":[{\"start\":\"x\"},{\"start\":1 2}]}", offset: 38, path: "upserted[1].start",
                "expected ',' or '}' after an object member, found '2'"),
    ]

    @Test("structure, number and string errors, with their line and column",
          arguments: structure + numbers + strings + positions)
    func refused(_ bad: BadJSON) {
        do {
            let value = try JSONParser.parse(bad.input)
            Issue.record("accepted as \(value)")
        } catch {
            #expect(error == bad.expected)
        }
    }

    @Test("nesting deeper than 512 levels is refused at the 513th opening")
    func tooDeep() throws {
        let arrays = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(arrays) }
        #expect(error?.offset == 512)
        #expect(error?.message == "nesting deeper than 512 levels")

        let objects = String(repeating: "{\"k\":", count: 513) + "1" + String(repeating: "}", count: 513)
        let objectError = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(objects) }
        #expect(objectError?.offset == 512 * 5)
        #expect(objectError?.message == "nesting deeper than 512 levels")

        // An empty container counts as a level too.
        let emptyInside = String(repeating: "[", count: 512) + "{}" + String(repeating: "]", count: 512)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(emptyInside) }

        let custom = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[[[1]]]", maxDepth: 2) }
        #expect(custom?.message == "nesting deeper than 2 levels")
        #expect(custom?.path == "[0][0]")
    }

    @Test("a very deep error path is shortened, keeping its end")
    func deepPath() {
        let text = String(repeating: "[", count: 300) + "x"
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        #expect(error?.path == "…" + String(repeating: "[0]", count: 300).suffix(200))
    }

    @Test("the description names line, column, byte and path")
    func description() {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\"a\":\n  [1 2]}") }
        #expect(error?.description == "line 2, column 6, byte 11, a[0]: expected ',' or ']' after an array element, found '2'")
        let top = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("x") }
        #expect(top?.description == "line 1, column 1, byte 0: expected a value, found 'x'")
    }
}

@Suite("JSONParser: accepted input")
struct JSONParserTests {
    @Test("literals, whitespace and structure")
    func structure() throws {
        let value = try JSONParser.parse(" \t\r\n{ \"a\" : [ true , false , null ] , \"b\" : { } , \"c\" : [ ] } \n")
        #expect(value == ["a": [true, false, nil], "b": .object(JSONObject()), "c": []])
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("\"x\"") == "x")
        #expect(try JSONParser.parse("  7 ") == 7)
    }

    @Test("objects keep their key order and find keys, small and large")
    func objectOrderAndLookup() throws {
        let keys = (0..<20).map { "k\(19 - $0)" }
        let text = "{" + keys.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
        let object = try #require(try JSONParser.parse(text).object)
        #expect(object.keys == keys)
        #expect(object["k19"] == 0)
        #expect(object["k0"] == 19)
        #expect(object["missing"] == nil)
        let small = try JSONParser.parse("{\"z\":1,\"a\":2}")
        #expect(small.object?.keys == ["z", "a"])
        #expect(small["a"]?.int64 == 2)
        #expect(small["nope"] == nil)
        #expect(small[0] == nil)
    }

    @Test("a duplicate key is caught in large objects too")
    func duplicateInLargeObject() {
        let members = (0..<30).map { "\"k\($0)\":\($0)" } + ["\"k17\":0"]
        let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{" + members.joined(separator: ",") + "}") }
        #expect(error?.path == "k17")
        #expect(error?.message == "duplicate key")
    }

    @Test("512 levels of nesting are accepted")
    func deepestAllowed() throws {
        let text = String(repeating: "[", count: 511) + "{\"k\":1}" + String(repeating: "]", count: 511)
        var value = try JSONParser.parse(text)
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements[0]
        }
        #expect(depth == 511)
        #expect(value == ["k": 1])
    }

    @Test("string escapes")
    func escapes() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSONParser.parse(#""caf\u00e9 \u00E9""#) == "café é")
        #expect(try JSONParser.parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try JSONParser.parse(#""\u2028\u2029""#) == "\u{2028}\u{2029}")
        #expect(try JSONParser.parse(#""a\uD83D\uDE00b""#) == "a😀b")
        #expect(try JSONParser.parse(#""\udbff\udfff""#) == "\u{10FFFF}")
        #expect(try JSONParser.parse(#""x\n""#) == "x\n")
        // Raw characters after an escape are copied on the slow path.
        #expect(try JSONParser.parse("\"\\tJane’s 🕛 Watch\"") == "\tJane’s 🕛 Watch")
        // Keys use the same string reader.
        #expect(try JSONParser.parse(#"{"\u0041":1}"#)["A"] == 1)
    }

    @Test("raw UTF-8 of every length is kept")
    func rawUTF8() throws {
        let text = "Jane’s Apple Watch é ß ✓ 😀 \u{10FFFF} \u{7F}"
        #expect(try JSONParser.parse("\"" + text + "\"") == .string(text))
    }

    @Test("integers keep their exact value")
    func integers() throws {
        let zero = try #require(try JSONParser.parse("0").number)
        #expect(zero.int64 == 0 && zero.isInteger && zero.double.sign == .plus)
        let negativeZero = try #require(try JSONParser.parse("-0").number)
        #expect(negativeZero.int64 == 0 && negativeZero.isInteger)
        #expect(negativeZero.double == 0 && negativeZero.double.sign == .minus)
        #expect(try JSONParser.parse("9223372036854775807").int64 == Int64.max)
        #expect(try JSONParser.parse("-9223372036854775808").int64 == Int64.min)
        #expect(try JSONParser.parse("9007199254740993").int64 == 9_007_199_254_740_993)
        #expect(try JSONParser.parse("-57").int64 == -57)
    }

    @Test("integers beyond Int64 are kept as a Double, still marked as integers")
    func bigIntegers() throws {
        let above = try #require(try JSONParser.parse("9223372036854775808").number)
        #expect(above.int64 == nil && above.isInteger && above.double == 9_223_372_036_854_775_808.0)
        let below = try #require(try JSONParser.parse("-9223372036854775809").number)
        #expect(below.int64 == nil && below.isInteger && below.double == -9_223_372_036_854_775_808.0)
        let huge = try #require(try JSONParser.parse("123456789012345678901234567890").number)
        #expect(huge.int64 == nil && huge.isInteger && huge.double == 1.2345678901234568e29)
    }

    @Test("numbers with a fraction or an exponent")
    func doubles() throws {
        func number(_ text: String) throws -> JSONNumber { try #require(try JSONParser.parse(text).number) }
        #expect(try number("1e2").double == 100 && number("1e2").int64 == nil && !number("1e2").isInteger)
        #expect(try number("57.0").int64 == nil)
        #expect(try number("58.5").double == 58.5)
        #expect(try number("-0.0").double.sign == .minus)
        #expect(try number("1.5e-3").double == 0.0015)
        #expect(try number("1E+2").double == 100)
        #expect(try number("0.1").double == 0.1)
        #expect(try number("0.30000000000000004").double == 0.30000000000000004)
        #expect(try number("1.7976931348623157e308").double == .greatestFiniteMagnitude)
        #expect(try number("2.2250738585072014e-308").double == 2.2250738585072014e-308)
        #expect(try number("4.9e-324").double == .leastNonzeroMagnitude)
        // Too small for a Double: rounds to zero, as every JSON reader does, rather than failing.
        #expect(try number("1e-400").double == 0)
        #expect(try number("-1e-400").double.sign == .minus)
        #expect(try number("0.000000000000000000000000000001").double == 1e-30)
        #expect(try number("123456789012345678901234567890.5").double == 1.2345678901234568e29)
        #expect(try number("1e00000000000000000000002").double == 100)
        #expect(try number("100000000000000000000000e-22").double == 10)
    }

    @Test("every Double's shortest text reads back to the same Double (fast and slow paths)")
    func doublesReadBack() throws {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)   // finite, positive
            let parsed = try #require(try JSONParser.parse(value.description).number)
            #expect(parsed.double == value, "\(value)")
            let scaled = Double(random.next() % 10_000_000) / 1000   // typical heart-rate-like values
            #expect(try JSONParser.parse(scaled.description).double == scaled, "\(scaled)")
        }
    }

    @Test("[UInt8], ArraySlice, Data, String and raw buffers give the same value")
    func inputs() throws {
        let text = "{\"a\":[1,\"é\"]}"
        let bytes = Array(text.utf8)
        let expected = try JSONParser.parse(text)
        #expect(try JSONParser.parse(bytes) == expected)
        #expect(try JSONParser.parse(Data(bytes)) == expected)
        #expect(try JSONParser.parse(([0x20] + bytes + [0x20])[1...]) == expected)
        let fromBuffer = try bytes.withUnsafeBytes { buffer throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
        #expect(fromBuffer == expected)
    }
}

/// Why rhr keeps its own parser (the comment on `JSONParser`): on the same bytes, Foundation's parsers accept
/// what the RFC refuses and lose a repeated key without a word, and say nothing of where input is wrong.
@Suite("JSONParser against Foundation")
struct JSONParserAgainstFoundationTests {
    @Test("Foundation accepts trailing commas and repeated keys; rhr refuses them, naming the place", arguments: [
        ("[1,2,]", "line 1, column 6, byte 5, [2]: a trailing ',' is not allowed before ']'"),
        (#"{"a":1,}"#, "line 1, column 8, byte 7: a trailing ',' is not allowed before '}'"),
        (#"{"value":58,"value":61}"#, "line 1, column 13, byte 12, value: duplicate key"),
    ])
    func lenientFoundation(_ text: String, _ ours: String) throws {
        let data = Data(text.utf8)
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "JSONSerialization accepts \(text)")
        if text.hasPrefix("[") {
            #expect(try JSONDecoder().decode([Int].self, from: data) == [1, 2])
        } else {
            // A repeated key: one value is silently kept.
            #expect(try JSONDecoder().decode([String: Int].self, from: data).count == 1)
        }
        do {
            _ = try JSONParser.parse(text)
            Issue.record("rhr accepted \(text)")
        } catch {
            #expect(error.description == ours)
        }
    }

    @Test func foundationsErrorNamesNoPlace() {
        let cutOff = Data(#"{"upserted":[{"start":"2026-11-28T00:03:12+01:00","value":58"#.utf8)
        var foundation = ""
        do { _ = try JSONSerialization.jsonObject(with: cutOff) } catch { foundation = "\(error)" }
        #expect(!foundation.isEmpty)
        #expect(!foundation.contains("line") && !foundation.contains("column") && !foundation.contains("upserted"))
        do {
            _ = try JSONParser.parse(Array(cutOff))
            Issue.record("a cut-off document was accepted")
        } catch {
            #expect(error.line == 1 && error.column == cutOff.count + 1)
            #expect(error.path == "upserted[0].value")
        }
    }
}
