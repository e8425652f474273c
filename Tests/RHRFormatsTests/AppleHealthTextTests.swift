import Foundation
@testable import RHRFormats
import Testing

@Suite("Apple Health attribute values")
struct AppleHealthTextTests {
    private func decode(_ raw: String) -> String {
        var raw = raw
        return raw.withUTF8 { AppleHealthText.attributeValue(UnsafeRawBufferPointer($0)) }
    }

    private func decode(bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { AppleHealthText.attributeValue($0) }
    }

    @Test("the five predefined entities are decoded")
    func predefinedEntities() {
        #expect(decode("&lt;&lt;HKDevice: 0x1&gt;, name:A &amp; B&gt;") == "<<HKDevice: 0x1>, name:A & B>")
        #expect(decode("&quot;quoted&quot; and &apos;single&apos;") == "\"quoted\" and 'single'")
    }

    @Test("decimal and hex character references name the same character as the raw UTF-8")
    func characterReferences() {
        #expect(decode("Jane&#x2019;s Apple Watch") == "Jane’s Apple Watch")
        #expect(decode("Jane&#8217;s Apple Watch") == "Jane’s Apple Watch")
        #expect(decode("Jane&#X2019;s") == "Jane&#X2019;s")  // XML's hex marker is a lower-case x
        #expect(decode("&#x1F55B;&#128336;") == "🕛🕐")
        #expect(decode("&#x41;&#x0041;&#65;&#x61;&#xaB;") == "AAAa\u{AB}")
        #expect(decode("🕛🕐🕑🕒") == "🕛🕐🕑🕒")
    }

    @Test("anything else is kept as written: other entities, bare ampersands, invalid references")
    func keptLiterally() {
        #expect(decode("Tom&nbsp;Jerry") == "Tom&nbsp;Jerry")
        #expect(decode("Ben & Jerry") == "Ben & Jerry")
        #expect(decode("a &amp b") == "a &amp b")
        #expect(decode("&#0;") == "&#0;")
        #expect(decode("&#xD800;") == "&#xD800;")
        #expect(decode("&#x110000;") == "&#x110000;")
        #expect(decode("&#;&#x;&;") == "&#;&#x;&;")
        #expect(decode("&#12a;") == "&#12a;")
        #expect(decode("trailing &") == "trailing &")
    }

    @Test("literal tabs and line ends become spaces, as XML normalises attribute values; references do not")
    func whiteSpaceNormalisation() {
        #expect(decode("a\tb\nc\r\nd\re") == "a b c d e")
        #expect(decode("line&#10;break&#13;&#10;") == "line\nbreak\r\n")
    }

    @Test("raw control characters that XML forbids are kept")
    func controlCharacters() {
        #expect(decode("Caf\u{e9}\u{0b}au lait") == "Caf\u{e9}\u{0b}au lait")
        #expect(decode(bytes: [0x41, 0x0B, 0x42]) == "A\u{0b}B")
    }

    @Test("bytes that are not UTF-8 become U+FFFD")
    func invalidUTF8() {
        #expect(decode(bytes: [0x41, 0xFF, 0x42]) == "A\u{FFFD}B")
    }

    @Test("numbers read exactly as Double(String) reads them", arguments: [
        "72", "58.5", "61.25", "0.001", "-3.25", "+4", "0", "-0", "72.", ".5", "123456789012345",
        "1234567890123456789", "0.1234567890123456789", "1e2", "5E-1", "NaN", "nan", "inf",
        "", "-", ".", "abc", "7 2", "72bpm", "0x1F", "00072.500",
    ])
    func numbers(_ text: String) {
        var copy = text
        let fast = copy.withUTF8 { AppleHealthText.number(UnsafeRawBufferPointer($0)) }
        let reference = Double(text)
        if let reference, reference.isNaN {
            #expect(fast?.isNaN == true)
        } else {
            #expect(fast?.bitPattern == reference?.bitPattern, "\(text): \(String(describing: fast)) vs \(String(describing: reference))")
        }
    }
}
