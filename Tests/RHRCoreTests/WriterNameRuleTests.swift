import RHRCore
import Testing

/// R2: the spellings that name one writer, and the characters that make a name unusable (R14).
@Suite("Writer names")
struct WriterNameRuleTests {
    @Test("a no-break space, a straight or curly apostrophe, a doubled name and an HKDevice address fold into one name")
    func folding() {
        let apple = "Jane’s Apple Watch"
        for spelling in ["Jane's Apple Watch", "Jane‘s Apple Watch", "Janeʼs Apple Watch", "Jane’s\u{a0}Apple Watch",
                         "Jane’s\u{202f}Apple\u{2007}Watch", "Jane’s Apple Watch|Jane’s Apple Watch",
                         "Jane's Apple Watch|Jane’s\u{a0}Apple Watch", apple] {
            #expect(WriterNameRule.canonical(spelling) == apple, "\(spelling.unicodeScalars.map { $0.value })")
        }
        #expect(WriterNameRule.canonical("<<HKDevice: 0x283f1c0a0>, name:Apple Watch>")
                == WriterNameRule.canonical("<<HKDevice: 0x1b2c>, name:Apple Watch>"))
        #expect(WriterNameRule.canonical("<<HKDevice: 0x283f1c0a0>, name:Apple Watch>") == "<<HKDevice>, name:Apple Watch>")
        // Two writers joined stay a combined value (R2), and other names are themselves.
        #expect(WriterNameRule.canonical("Watch|Oura") == "Watch|Oura")
        #expect(WriterNameRule.canonical("com.ouraring.oura") == "com.ouraring.oura")
        #expect(WriterNameRule.canonical("Jane  Watch") == "Jane  Watch")
        #expect(WriterNameRule.otherSpellings(["Jane's Apple Watch", apple, "Jane's Apple Watch"], of: apple) == ["Jane's Apple Watch"])
        // Shown in words, never as an escape: what makes the spelling differ is named.
        #expect(WriterNameRule.visible("a\u{a0}b") == "“a\u{a0}b” with a no-break space")
        #expect(WriterNameRule.visible("Jane's Apple\u{202F}Watch")
                == "“Jane's Apple\u{202F}Watch” with a straight apostrophe and a narrow no-break space")
        #expect(WriterNameRule.visible("Jane’s Apple Watch|Jane’s Apple Watch") == "“Jane’s Apple Watch|Jane’s Apple Watch”")
    }

    @Test("the gate finds the first NUL, C0 control (tab, CR, LF included), DEL or C1 control, by scalar")
    func gate() {
        #expect(TextGate.flaw(in: "Jane’s Apple Watch") == nil)
        #expect(TextGate.flaw(in: "Jane\u{0}s") == .nul(atScalar: 4))
        #expect(TextGate.flaw(in: "é\tx") == .control(9, atScalar: 1))
        #expect(TextGate.flaw(in: "a\nb") == .control(10, atScalar: 1))
        #expect(TextGate.flaw(in: "a\r") == .control(13, atScalar: 1))
        #expect(TextGate.flaw(in: "ab\u{7f}") == .control(0x7F, atScalar: 2))
        #expect(TextGate.flaw(in: "’\u{85}") == .control(0x85, atScalar: 1))
        #expect(TextGate.flaw(in: "\u{a0}é") == nil)
        #expect(TextGate.flaw(in: "x\u{1}\u{0}") == .control(1, atScalar: 1))
        #expect(TextFlaw.nul(atScalar: 4).words == "a NUL (U+0000) at character 5")
        #expect(TextFlaw.control(9, atScalar: 1).words == "a control character (U+0009) at character 2")
    }
}
