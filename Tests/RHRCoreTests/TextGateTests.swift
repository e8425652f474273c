import RHRCore
import Testing

/// The one gate for outside strings: which characters are flaws, where a long name is cut, and how text is made
/// visible for a terminal.
@Suite("Text gate")
struct TextGateTests {
    @Test(arguments: [
        ("Jane’s Apple Watch", nil), ("", nil), ("🕛🕐 é", nil), ("\u{A0}no-break space", nil),
        ("Tester\u{0}Watch", TextFlaw.nul(atScalar: 6)),
        ("\u{1B}]0;pwned\u{7}", TextFlaw.control(0x1B, atScalar: 0)),
        ("ok\u{9B}31m", TextFlaw.control(0x9B, atScalar: 2)),
        ("é\u{7F}", TextFlaw.control(0x7F, atScalar: 1)),
        ("tab\there", TextFlaw.control(0x09, atScalar: 3)),
        ("line\n", TextFlaw.control(0x0A, atScalar: 4)),
        ("\u{85}", TextFlaw.control(0x85, atScalar: 0)),
    ] as [(String, TextFlaw?)])
    func theFirstControlCharacterIsTheFlaw(text: String, flaw: TextFlaw?) {
        #expect(TextGate.flaw(in: text) == flaw, "\(TextGate.visible(text))")
    }

    @Test func aFlawIsWordedWithItsPositionFromOne() {
        #expect(TextFlaw.nul(atScalar: 6).words == "a NUL (U+0000) at character 7")
        #expect(TextFlaw.control(0x1B, atScalar: 0).words == "a control character (U+001B) at character 1")
        #expect(TextFlaw.control(0x9B, atScalar: 2).words == "a control character (U+009B) at character 3")
    }

    @Test func visibleTextShowsEveryControlCharacterAndNothingElseChanges() {
        #expect(TextGate.visible("\u{1B}]0;pwned\u{7}Watch") == "<escape>]0;pwned<bell>Watch")
        #expect(TextGate.visible("A\u{0}B\u{7F}C\u{9B}D\u{9F}") == "A<null>B<delete>C<control character 155>D<control character 159>")
        #expect(TextGate.visible("Jane’s ⌚️ \u{A0}é") == "Jane’s ⌚️ \u{A0}é")
        #expect(TextGate.visible("two\nlines\r\n", keepingLineBreaks: true) == "two\nlines<carriage return>\n")
        #expect(TextGate.visible("two\nlines") == "two<line feed>lines")
        // Named in words, never as an escape a programmer would write.
        #expect(TextGate.visible("a\u{1}b\tc") == "a<control character 1>b<tab>c")
        // What it writes has no control character left: escaping twice changes nothing.
        let once = TextGate.visible("\u{1B}[31m\u{0}")
        #expect(TextGate.flaw(in: once) == nil && TextGate.visible(once) == once)
    }

    @Test func aNameWithinTheBoundIsWhole() {
        let name = String(repeating: "a", count: TextGate.maxBytes)
        #expect(TextGate.bounded(name) == BoundedText(text: name, fullBytes: nil))
    }

    @Test func aLongNameIsCutAtTheLastCharacterThatFitsWhole() {
        // 255 bytes of "a", then a 4-byte emoji: the emoji does not fit whole, so the cut is before it.
        let name = String(repeating: "a", count: 255) + "🕛" + "tail"
        let cut = TextGate.bounded(name)
        #expect(cut.text == String(repeating: "a", count: 255))
        #expect(cut.fullBytes == 263)
        // A letter and its combining accent stay together: "e" + U+0301 is three bytes, one character.
        let accented = String(repeating: "a", count: 254) + "e\u{301}" + "z"
        #expect(TextGate.bounded(accented).text == String(repeating: "a", count: 254))
        // One character longer than the bound (a letter under many combining marks) is cut between scalars.
        let heavy = "e" + String(repeating: "\u{301}", count: 1000)
        let heavyCut = TextGate.bounded(heavy)
        #expect(heavyCut.text.utf8.count == 255 && heavyCut.text.unicodeScalars.first == "e")
        #expect(heavyCut.fullBytes == 2001)
    }

    @Test func aMegabyteNameIsCutAndItsLengthKept() {
        let name = String(repeating: "x", count: 1 << 20)
        let cut = TextGate.bounded(name)
        #expect(cut.text.utf8.count == TextGate.maxBytes && cut.fullBytes == 1 << 20)
    }

    @Test func aClippedDescriptionEndsInAnEllipsisWithinTheBound() {
        #expect(TextGate.clipped("Oura") == "Oura")
        let clipped = TextGate.clipped(String(repeating: "é", count: 1000))
        #expect(clipped.hasSuffix("…") && clipped.utf8.count <= TextGate.maxBytes)
        #expect(clipped == String(repeating: "é", count: 126) + "…")
    }

    @Test func aWriterNameIsCutByTheGateAndShownWithItsEllipsis() {
        let writer = Writer(store: .healthConnect, name: String(repeating: "p", count: 100_000), appName: "Tracker")
        #expect(writer.name.utf8.count == TextGate.maxBytes && writer.nameBytes == 100_000)
        #expect(writer.shownName == String(repeating: "p", count: TextGate.maxBytes) + "…")
        #expect(writer.displayName == "Tracker (\(writer.shownName))")
        // Cut names alike up to the bound are one writer.
        #expect(writer == Writer(store: .healthConnect, name: String(repeating: "p", count: 300)))
    }
}
