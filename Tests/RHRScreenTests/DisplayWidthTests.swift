@testable import RHRScreen
import Testing

/// A text's width counted scalar by scalar (the quick way, for text whose scalars are each a narrow character) is
/// the sum of its characters' widths, for any text: the quick way is only taken where it cannot differ.
@Suite("Display width: the quick count agrees with the characters'")
struct DisplayWidthTests {
    /// Narrow scalars the quick count takes, and what it must not: marks and selectors that join the scalar
    /// before them, a joiner, wide CJK and emoji, a flag's two halves, bidi controls, a line break pair.
    static let pieces = ["a", " ", "Z", "é", "·", "–", "’", "…", "→", "─", "█", "⣿", "\u{301}", "\u{FE0F}", "\u{200D}",
                         "字", "🕛", "⌚", "🇩", "🇪", "\u{202E}", "\r", "\n", "👍", "\u{1F3FD}", "각", "\u{1161}"]

    @Test func theQuickCountIsTheSumOfTheCharactersWidths() {
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var quick = 0
        for _ in 0..<5000 {
            let text = (0..<next(12)).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
            if DisplayWidth.narrowScalarCount(text) != nil { quick += 1 }
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.unicodeScalars.map(\.value))")
        }
        // The seed gives this many texts the quick count takes (pinned: a narrower quick count shows here).
        #expect(quick == 735)
    }

    @Test func frameTextIsCountedTheQuickWay() {
        #expect(DisplayWidth.narrowScalarCount("Jane’s Apple Watch: draft 62 → 59 (12 Mar 21:00 +01:00) · ⣿─") == 60)
        #expect(DisplayWidth.narrowScalarCount("e\u{301}") == nil)
        #expect(DisplayWidth.narrowScalarCount("Jane’s 🕛 Watch") == nil)
    }
}
