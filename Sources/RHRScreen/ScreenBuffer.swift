/// One cell of the screen: a glyph and its style. A wide glyph takes its cell and the next, which is
/// marked as its continuation and never drawn on its own.
public struct Cell: Sendable, Hashable {
    public var glyph: Character
    public var style: Style
    public var isContinuation: Bool

    public init(_ glyph: Character, _ style: Style = .plain, isContinuation: Bool = false) {
        self.glyph = glyph
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell(" ")
}

/// What the dashboard draws: a grid of cells, no terminal in sight. The ncurses backend blits it; tests read
/// its text lines. Every write is clipped to the grid, so drawing at any size, even 0×0, is safe.
public struct ScreenBuffer: Sendable, Hashable {
    public private(set) var size: TerminalSize
    public private(set) var cells: [Cell]

    /// A grid filled with `fill`. Tests fill with a sentinel so cells no view drew stand out.
    public init(size: TerminalSize, fill: Character = " ") {
        self.size = size
        self.cells = Array(repeating: Cell(fill), count: size.width * size.height)
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bounds: Rect { Rect(size) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set { cells[y * size.width + x] = newValue }
    }

    /// Puts one glyph at (x, y), within `clip`; a wide glyph that does not fit whole becomes a space.
    /// Returns the columns it took.
    @discardableResult
    public mutating func put(_ glyph: Character, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = clip.map(intersect) ?? bounds
        let w = DisplayWidth.of(glyph)
        guard w > 0 else { return 0 }
        guard y >= area.y, y < area.maxY, x >= area.x, x < area.maxX else { return w }
        repairNeighbours(x: x, y: y)
        if w == 2 {
            if x + 1 >= area.maxX {
                self[x, y] = Cell(" ", style)
                return w
            }
            repairNeighbours(x: x + 1, y: y)
            self[x, y] = Cell(glyph, style)
            self[x + 1, y] = Cell(" ", style, isContinuation: true)
        } else {
            self[x, y] = Cell(glyph, style)
        }
        return w
    }

    /// Writes `text` on one row from (x, y), clipped to `clip` (or the grid). Returns the columns it took
    /// (all of them, even those clipped away), so callers can lay text out in sequence.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        var column = x
        for ch in text {
            column += put(ch, x: column, y: y, style: style, clip: clip)
        }
        return column - x
    }

    /// Fills a rectangle (clipped to the grid) with one glyph.
    public mutating func fill(_ rect: Rect, glyph: Character = " ", style: Style = .plain) {
        let area = intersect(rect)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y] = Cell(glyph, style) }
        }
    }

    /// Changes the style of cells already drawn, e.g. to highlight the cursor row.
    public mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        let area = intersect(rect)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { self[x, y].style = transform(self[x, y].style) }
        }
    }

    public func intersect(_ rect: Rect) -> Rect {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The text of row `y`, wide glyphs once each.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        var text = ""
        for x in 0..<size.width where !self[x, y].isContinuation { text.append(self[x, y].glyph) }
        return text
    }

    /// Every row's text, top to bottom.
    public var lines: [String] { (0..<size.height).map(line) }

    /// The whole screen as text, rows joined by newlines: what `capture-pane` would show.
    public var text: String { lines.joined(separator: "\n") }

    /// Overwriting half of a wide glyph leaves the other half meaningless: blank it.
    private mutating func repairNeighbours(x: Int, y: Int) {
        if self[x, y].isContinuation, x > 0 {
            self[x - 1, y] = Cell(" ", self[x - 1, y].style)
            self[x, y].isContinuation = false
        }
        if x + 1 < size.width, self[x + 1, y].isContinuation {
            self[x + 1, y] = Cell(" ", self[x + 1, y].style)
        }
    }
}
