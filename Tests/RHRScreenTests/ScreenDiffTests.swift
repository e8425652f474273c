import RHRScreen
import Testing

@Suite("Frame diff: the runs that turn one frame into the next")
struct ScreenDiffTests {
    let size = TerminalSize(width: 6, height: 2)
    let muted = Style(tint: .muted)

    func buffer(_ rows: [String], size: TerminalSize? = nil) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size ?? self.size)
        for (y, row) in rows.enumerated() { buffer.write(row, x: 0, y: y) }
        return buffer
    }

    /// The previous frame with the runs written over it, the way a terminal would show it.
    func applied(_ runs: [ScreenRun], to previous: ScreenBuffer) -> ScreenBuffer {
        var screen = previous
        for run in runs { screen.write(run.text, x: run.x, y: run.y, style: run.style) }
        return screen
    }

    @Test("An empty screen has nothing to write, first frame or not")
    func empty() {
        let none = ScreenBuffer(size: TerminalSize(width: 0, height: 0))
        #expect(none.diff(from: nil).isEmpty)
        #expect(none.diff(from: none).isEmpty)
    }

    @Test("The first frame writes every cell, one run per row and style")
    func firstFrame() {
        var frame = buffer(["abc", "xyz"])
        frame.restyle(Rect(x: 1, y: 0, width: 2, height: 1)) { _ in .bold }
        #expect(frame.diff(from: nil) == [
            ScreenRun(x: 0, y: 0, style: .plain, text: "a", width: 1),
            ScreenRun(x: 1, y: 0, style: .bold, text: "bc", width: 2),
            ScreenRun(x: 3, y: 0, style: .plain, text: "   ", width: 3),
            ScreenRun(x: 0, y: 1, style: .plain, text: "xyz   ", width: 6),
        ])
    }

    @Test("An identical frame writes nothing")
    func identical() {
        let frame = buffer(["abc", "🕛 x"])
        #expect(frame.diff(from: frame).isEmpty)
    }

    @Test("One changed cell is one run of one cell")
    func oneCell() {
        let before = buffer(["abcdef", "ghijkl"])
        var after = before
        after.put("Z", x: 4, y: 1)
        #expect(after.diff(from: before) == [ScreenRun(x: 4, y: 1, style: .plain, text: "Z", width: 1)])
    }

    @Test("Unchanged cells split runs; changed neighbours in one style join")
    func runs() {
        let before = buffer(["abcdef", "ghijkl"])
        let after = buffer(["aXYdZf", "ghijkl"])
        #expect(after.diff(from: before) == [
            ScreenRun(x: 1, y: 0, style: .plain, text: "XY", width: 2),
            ScreenRun(x: 4, y: 0, style: .plain, text: "Z", width: 1),
        ])
    }

    @Test("A style-only change is written, in the new style")
    func styleOnly() {
        let before = buffer(["abcdef", "ghijkl"])
        var after = before
        after.restyle(Rect(x: 2, y: 0, width: 3, height: 1)) { $0.with(.reverse) }
        #expect(after.diff(from: before) == [ScreenRun(x: 2, y: 0, style: .reverse, text: "cde", width: 3)])
    }

    @Test("A wide glyph goes out once and covers two columns; a run never starts on its second half")
    func wideGlyphs() {
        let before = buffer(["ab🕛ef", "ghijkl"])
        // Another wide glyph in the same place.
        let swapped = buffer(["ab🕐ef", "ghijkl"])
        #expect(swapped.diff(from: before) == [ScreenRun(x: 2, y: 0, style: .plain, text: "🕐", width: 2)])
        // Only the second half's style changed: the run starts on the glyph that owns it.
        var half = before
        half[3, 0].style = muted
        #expect(half.diff(from: before) == [ScreenRun(x: 2, y: 0, style: .plain, text: "🕛", width: 2)])
        // Narrow glyphs over a wide one, and a wide one over narrow ones.
        let narrow = buffer(["abXYef", "ghijkl"])
        #expect(narrow.diff(from: before) == [ScreenRun(x: 2, y: 0, style: .plain, text: "XY", width: 2)])
        #expect(before.diff(from: narrow) == [ScreenRun(x: 2, y: 0, style: .plain, text: "🕛", width: 2)])
    }

    @Test("After a resize every cell is written")
    func resize() {
        let before = buffer(["abcdef", "ghijkl"])
        let after = buffer(["abcd", "ghij", "mnop"], size: TerminalSize(width: 4, height: 3))
        let runs = after.diff(from: before)
        #expect(runs == after.diff(from: nil))
        #expect(runs.map(\.width).reduce(0, +) == 12)
    }

    @Test("Writing the runs over the previous frame gives the new one, over many edits")
    func roundTrip() {
        let glyphs: [Character] = ["a", "b", " ", "🕛", "●", "é"]
        let styles: [Style] = [.plain, .bold, muted, Style(tint: .series(2)), .reverse]
        var frame = ScreenBuffer(size: TerminalSize(width: 9, height: 3))
        // A fixed sequence of edits (a linear congruential generator): no randomness in tests.
        var seed: UInt32 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int((seed >> 16) % UInt32(n))
        }
        for _ in 0..<300 {
            var edited = frame
            for _ in 0..<(1 + next(4)) {
                let style = styles[next(styles.count)]
                if next(3) == 0 {
                    edited.restyle(Rect(x: next(9), y: next(3), width: 1 + next(4), height: 1)) { _ in style }
                } else {
                    edited.put(glyphs[next(glyphs.count)], x: next(9), y: next(3), style: style)
                }
            }
            let shown = applied(edited.diff(from: frame), to: frame)
            #expect(shown.lines == edited.lines)
            for y in 0..<3 {
                for x in 0..<9 where !edited[x, y].isContinuation {
                    #expect(shown[x, y].style == edited[x, y].style, "style at \(x),\(y)")
                }
            }
            frame = edited
        }
    }
}
