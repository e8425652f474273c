/// A grid of dots that lines are drawn on before they become glyphs: braille, two across and four down in each
/// cell (the way btop draws its graphs), or, for a font without braille (`glyphs = blocks`), half blocks, one
/// across and two down (`▀ ▄ █`). Each cell remembers the layer that drew in it with the highest priority (lowest
/// number), whose colour the cell then takes.
struct DotCanvas {
    /// How a cell is split into dots.
    enum Grid {
        case braille
        case halfBlocks

        var across: Int { self == .braille ? 2 : 1 }
        var down: Int { self == .braille ? 4 : 2 }
    }

    let grid: Grid
    let width: Int
    let height: Int
    /// Dots across and down a cell, and in the whole grid (kept: `set` runs for every dot of every line).
    private let across: Int, down: Int
    let dotWidth: Int, dotHeight: Int
    private(set) var bits: [UInt8]
    /// Per cell, the highest-priority layer with a dot there; `Int.max` for none.
    private(set) var owner: [Int]

    init(_ grid: Grid = .braille, width: Int, height: Int) {
        self.grid = grid
        self.width = max(0, width)
        self.height = max(0, height)
        across = grid.across
        down = grid.down
        dotWidth = self.width * across
        dotHeight = self.height * down
        bits = Array(repeating: 0, count: self.width * self.height)
        owner = Array(repeating: Int.max, count: self.width * self.height)
    }

    /// The bit of each dot in a cell, by column then row (Unicode's braille dot numbering; for half blocks the upper
    /// and the lower half).
    private static let brailleBits: [UInt8] = [0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80]
    private static let halfBlockBits: [UInt8] = [0x01, 0x02]

    /// Sets one dot; outside the grid nothing happens.
    mutating func set(_ x: Int, _ y: Int, layer: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let cell = (y / down) * width + x / across
        let bit = (x % across) * down + y % down
        bits[cell] |= grid == .braille ? Self.brailleBits[bit] : Self.halfBlockBits[bit]
        owner[cell] = min(owner[cell], layer)
    }

    /// A straight line of dots from one dot to another, both ends included, with no holes (each step moves
    /// to a neighbouring dot). `every` 2 draws every other dot: a dotted line.
    mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), layer: Int, every: Int = 1) {
        let steps = max(abs(b.x - a.x), abs(b.y - a.y))
        guard steps > 0 else {
            set(a.x, a.y, layer: layer)
            return
        }
        for i in stride(from: 0, through: steps, by: 1) where i % every == 0 {
            let t = Double(i) / Double(steps)
            let x = Int((Double(a.x) + t * Double(b.x - a.x)).rounded())
            let y = Int((Double(a.y) + t * Double(b.y - a.y)).rounded())
            set(x, y, layer: layer)
        }
    }

    /// The cell's glyph, nil when it has no dot.
    func glyph(x: Int, y: Int) -> Character? {
        let b = bits[y * width + x]
        guard b != 0 else { return nil }
        switch grid {
        case .braille: return Character(Unicode.Scalar(0x2800 + UInt32(b))!)
        case .halfBlocks: return b == 0x01 ? "▀" : b == 0x02 ? "▄" : "█"
        }
    }

    /// The layer that owns the cell, nil when it has no dot.
    func layer(x: Int, y: Int) -> Int? {
        let o = owner[y * width + x]
        return o == Int.max ? nil : o
    }
}
