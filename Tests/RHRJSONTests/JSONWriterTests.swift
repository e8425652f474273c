@testable import RHRJSON
import Foundation
import RHRTestSupport
import Testing


@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("NaN and infinities are not JSON: written as null")
    func nonFinite() {
        #expect(JSONWriter.string(.number(JSONNumber(Double.nan))) == "null")
        #expect(JSONWriter.string(.number(JSONNumber(Double.infinity))) == "null")
        #expect(JSONWriter.string([.number(JSONNumber(-Double.infinity)), 1]) == "[null,1]")
        #expect(JSONWriter.string(.number(JSONNumber(Double.nan)), style: .pretty) == "null")
    }

    @Test("compact: one line, no spaces, key order kept")
    func compact() {
        var object = JSONObject()
        object["z"] = 1
        object["a"] = [true, false, nil]
        object["m"] = ["x": "y", "b": [:] as JSONValue, "c": []]
        #expect(JSONWriter.string(.object(object)) == #"{"z":1,"a":[true,false,null],"m":{"x":"y","b":{},"c":[]}}"#)
        object["z"] = "replaced in place"
        object["a"] = nil
        #expect(JSONWriter.string(.object(object)) == #"{"z":"replaced in place","m":{"x":"y","b":{},"c":[]}}"#)
    }

    @Test("strings: quotes, backslashes and control characters (DEL, C1) escaped; slash and other non-ASCII raw")
    func strings() {
        #expect(JSONWriter.string("a/b") == #""a/b""#)
        #expect(JSONWriter.string("say \"hi\" \\ there") == #""say \"hi\" \\ there""#)
        #expect(JSONWriter.string("\u{8}\u{C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(JSONWriter.string("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        // DEL and C1, which JSON allows raw, are escaped too: a terminal obeys them. U+00A0 is not one.
        #expect(JSONWriter.string("\u{7F}\u{80}\u{9B}x\u{9F}\u{A0}") == "\"\\u007f\\u0080\\u009bx\\u009f\u{A0}\"")
        #expect(JSONWriter.string("Jane’s Apple Watch 🕛 é \u{2028}") == "\"Jane’s Apple Watch 🕛 é \u{2028}\"")
        #expect(JSONWriter.string(["k\n": "v"]) == #"{"k\n":"v"}"#)
        #expect(JSONWriter.string("") == #""""#)
    }

    @Test("integers as integers, doubles in the shortest form that reads back")
    func numbers() {
        #expect(JSONWriter.string(.number(JSONNumber(Int64.max))) == "9223372036854775807")
        #expect(JSONWriter.string(.number(JSONNumber(Int64.min))) == "-9223372036854775808")
        #expect(JSONWriter.string(0) == "0")
        #expect(JSONWriter.string(-57) == "-57")
        #expect(JSONWriter.string(.number(JSONNumber.negativeZero)) == "-0")
        #expect(JSONWriter.string(58.5) == "58.5")
        #expect(JSONWriter.string(0.1) == "0.1")
        #expect(JSONWriter.string(100.0) == "100.0")
        #expect(JSONWriter.string(-0.0) == "-0.0")
        #expect(JSONWriter.string(1e-7) == "1e-07")
        #expect(JSONWriter.string(1e300) == "1e+300")
        #expect(JSONWriter.string(.number(JSONNumber(Double.leastNonzeroMagnitude))) == "5e-324")
        #expect(JSONWriter.string(.number(JSONNumber(Double.greatestFiniteMagnitude))) == "1.7976931348623157e+308")
    }

    @Test("integers beyond Int64 are written with all their digits and read back as integers")
    func bigIntegers() throws {
        // (-9223372036854775809 would round to exactly -2^63, which reads back as Int64.min: the Double kept
        // for a big integer is all rhr knows of it.)
        for text in ["9223372036854775808", "-9223372036854777856", "100000000000000000000",
                     "123456789012345678901234567890", "1" + String(repeating: "0", count: 308)] {
            let value = try JSONParser.parse(text)
            let written = JSONWriter.string(value)
            #expect(written.allSatisfy { $0 == "-" || $0.isNumber }, "\(written)")
            let again = try JSONParser.parse(written)
            #expect(again == value, "\(text) → \(written)")
            #expect(again.number?.isInteger == true)
        }
        #expect(JSONWriter.string(try JSONParser.parse("9223372036854775808")) == "9223372036854775808")
        #expect(JSONWriter.exactIntegerDigits(0x1p100) == "1267650600228229401496703205376")
        #expect(JSONWriter.exactIntegerDigits(-0x1p53) == "-9007199254740992")
        #expect(JSONWriter.exactIntegerDigits(12345) == "12345")
    }

    @Test("pretty: two-space indentation, empty containers on one line")
    func pretty() {
        let value: JSONValue = ["date": "2026-11-28", "bpm": 58, "flags": [true, nil], "empty": [], "none": [:] as JSONValue,
                                "nested": ["a": ["b": 1.5]]]
        let expected = """
        {
          "date": "2026-11-28",
          "bpm": 58,
          "flags": [
            true,
            null
          ],
          "empty": [],
          "none": {},
          "nested": {
            "a": {
              "b": 1.5
            }
          }
        }
        """
        #expect(JSONWriter.string(value, style: .pretty) == expected)
        #expect(JSONWriter.string([], style: .pretty) == "[]")
        #expect(JSONWriter.string("x", style: .pretty) == "\"x\"")
        #expect(JSONWriter.string([[1], [:] as JSONValue], style: .pretty) == "[\n  [\n    1\n  ],\n  {}\n]")
    }

    @Test("what the writer writes, the parser reads back equal (compact and pretty)")
    func roundTrip() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let value = Self.randomValue(&random, depth: 0)
            for style in [JSONWriter.Style.compact, .pretty] {
                let text = JSONWriter.bytes(value, style: style)
                let again = try JSONParser.parse(text)
                #expect(again == value)
                #expect(JSONWriter.bytes(again, style: style) == text)
            }
            #expect(!JSONWriter.bytes(value).contains(UInt8(ascii: "\n")))
        }
    }

    @Test("objects compare without regard to key order, but are written in order")
    func objectEquality() throws {
        let a = try JSONParser.parse(#"{"x":1,"y":[2]}"#)
        let b = try JSONParser.parse(#"{"y":[2],"x":1}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(JSONWriter.string(b) == #"{"y":[2],"x":1}"#)
        #expect(a != (try JSONParser.parse(#"{"x":1,"y":[3]}"#)))
        #expect(a != (try JSONParser.parse(#"{"x":1}"#)))
        // Integer and double literals of the same value are different JSON values to rhr.
        #expect(try JSONParser.parse("1") != JSONParser.parse("1.0"))
        #expect(Set([a, b]).count == 1)
    }

    @Test("description is the compact text")
    func description() {
        let value: JSONValue = ["a": [1, "b"]]
        #expect(value.description == #"{"a":[1,"b"]}"#)
        #expect(JSONNumber(57).description == "57")
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        let pick = depth > 3 ? random.next() % 5 : random.next() % 7
        switch pick {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(JSONNumber(Int64(bitPattern: random.next()) >> (random.next() % 64)))
        case 3:
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.next() % 2 == 0 ? 1 : -1)
            return .number(JSONNumber(value))
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<(random.next() % 12) { object[randomString(&random)] = randomValue(&random, depth: depth + 1) }
            return .object(object)
        }
    }

    static func randomString(_ random: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "’", "😀", "\u{2028}", " ", "key"]
        return (0..<(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }
}
