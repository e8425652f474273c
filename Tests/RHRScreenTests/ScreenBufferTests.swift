import RHRScreen
import Testing

@Suite("Screen types: the screen buffer, display widths, terminal capabilities")
struct ScreenBufferTests {
    @Test("Writes are clipped to the grid and to a clip rectangle")
    func clipping() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 6, height: 2), fill: "·")
        let used = buffer.write("abcdefgh", x: 2, y: 0)
        #expect(used == 8)
        buffer.write("xyz", x: -1, y: 1)
        buffer.write("12345", x: 0, y: 1, clip: Rect(x: 3, y: 1, width: 2, height: 1))
        buffer.write("never", x: 0, y: 2)
        #expect(buffer.lines == ["··abcd", "yz·45·"])
    }

    @Test("A wide glyph takes two cells; one that does not fit becomes a space; overwriting half blanks the other")
    func wideGlyphs() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 5, height: 1), fill: "·")
        #expect(buffer.write("🕛a", x: 0, y: 0) == 3)
        #expect(buffer.lines == ["🕛a··"])
        #expect(buffer[1, 0].isContinuation)
        buffer.put("b", x: 1, y: 0)
        #expect(buffer.lines == [" ba··"])
        buffer.write("🕐", x: 4, y: 0)
        #expect(buffer.lines == [" ba· "])
        #expect(DisplayWidth.of("Jane’s 🕛 Watch") == 15)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("⌚️") == 2)
    }

    @Test("Capabilities: UTF-8 from the codeset, ASCII on the Linux console; no colour under NO_COLOR, TERM=dumb or no TERM")
    func capabilities() {
        let env = ["TERM": "xterm-256color"]
        #expect(TerminalCapabilities.detect(environment: env, codeset: "UTF-8") == .init(unicode: true, color: true))
        #expect(TerminalCapabilities.detect(environment: env, codeset: "utf8").unicode)
        #expect(!TerminalCapabilities.detect(environment: env, codeset: "ANSI_X3.4-1968").unicode)
        #expect(!TerminalCapabilities.detect(environment: env.merging(["NO_COLOR": "1"]) { $1 }, codeset: "UTF-8").color)
        // NO_COLOR takes the colour only (no-color.org): the glyphs stay Unicode. The ASCII switch takes the glyphs only.
        #expect(TerminalCapabilities.detect(environment: env.merging(["NO_COLOR": "1"]) { $1 }, codeset: "UTF-8").unicode)
        #expect(TerminalCapabilities.detect(environment: env, codeset: "UTF-8", glyphs: .ascii) == .init(unicode: false, color: true, braille: false))
        // A font without braille: UTF-8 still, the chart in half blocks.
        #expect(TerminalCapabilities.detect(environment: env, codeset: "UTF-8", glyphs: .blocks) == .init(unicode: true, color: true, braille: false))
        // The Linux console's font has no braille nor most shapes: ASCII glyphs unless the config asks for blocks, colour kept.
        #expect(TerminalCapabilities.detect(environment: ["TERM": "linux"], codeset: "UTF-8") == .init(unicode: false, color: true, braille: false))
        #expect(TerminalCapabilities.detect(environment: ["TERM": "linux"], codeset: "UTF-8", glyphs: .blocks) == .init(unicode: true, color: true, braille: false))
        #expect(TerminalCapabilities.detect(environment: env.merging(["NO_COLOR": ""]) { $1 }, codeset: "UTF-8").color)
        #expect(!TerminalCapabilities.detect(environment: ["TERM": "dumb"], codeset: "UTF-8").color)
        #expect(!TerminalCapabilities.detect(environment: [:], codeset: "UTF-8").color)
    }
}
