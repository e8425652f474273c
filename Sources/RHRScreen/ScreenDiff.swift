/// A stretch of one row to write: glyphs in one style from column `x`. What a terminal backend sends to bring
/// the screen from one frame to the next; it never has to compare cells itself.
public struct ScreenRun: Sendable, Hashable {
    public var x, y: Int
    public var style: Style
    /// The glyphs, a wide one once (it covers its continuation cell too).
    public var text: String
    /// The columns the run covers, continuation cells included.
    public var width: Int

    public init(x: Int, y: Int, style: Style, text: String, width: Int) {
        self.x = x
        self.y = y
        self.style = style
        self.text = text
        self.width = width
    }
}

extension ScreenBuffer {
    /// The runs that turn `previous` into this buffer: the cells that changed, joined into runs of one style
    /// along a row. Without a previous frame, or after a resize, every cell is new.
    ///
    /// A run never starts on a continuation cell: it starts on the wide glyph that owns it. A continuation
    /// belongs to its glyph, changed or not and whatever its own style, so it never ends a run either (ending
    /// there on a style would step back onto the glyph and write the same run for ever).
    public func diff(from previous: ScreenBuffer?) -> [ScreenRun] {
        let previous = previous?.size == size ? previous : nil
        var runs: [ScreenRun] = []
        for y in 0..<height {
            var x = 0
            while x < width {
                if let previous, previous[x, y] == self[x, y] {
                    x += 1
                    continue
                }
                if self[x, y].isContinuation && x > 0 { x -= 1 }
                let start = x
                let style = self[x, y].style
                var text = ""
                while x < width {
                    let cell = self[x, y]
                    if !cell.isContinuation {
                        if cell.style != style { break }
                        if x > start, let previous, previous[x, y] == cell { break }
                        text.append(cell.glyph)
                    }
                    x += 1
                }
                runs.append(ScreenRun(x: start, y: y, style: style, text: text, width: x - start))
            }
        }
        return runs
    }
}
