/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// "80×24", or "80x24" where only ASCII is safe.
    public func text(unicode: Bool = true) -> String { "\(width)\(unicode ? "×" : "x")\(height)" }

    public var description: String { text() }

    public func contains(_ other: TerminalSize) -> Bool { width >= other.width && height >= other.height }
}

/// A rectangle of cells: the area one view draws into.
public struct Rect: Sendable, Hashable {
    public var x, y: Int
    public var width, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(_ size: TerminalSize) { self.init(x: 0, y: 0, width: size.width, height: size.height) }

    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// The top `rows` rows, and the rest below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: n), Rect(x: x, y: y + n, width: width, height: height - n))
    }

    /// The bottom `rows` rows, and the rest above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let n = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: height - n), Rect(x: x, y: maxY - n, width: width, height: n))
    }

    /// The left `columns` columns, and the rest to their right.
    public func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let n = min(max(0, columns), width)
        return (Rect(x: x, y: y, width: n, height: height), Rect(x: x + n, y: y, width: width - n, height: height))
    }

    /// One row of the rectangle, clipped to it.
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + index, width: 0, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

}
