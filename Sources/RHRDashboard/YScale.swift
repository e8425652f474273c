/// The bpm axis: the range of the values in view with a little air, never a fixed "normal" band (R11), and
/// labels on round values (multiples of 1, 2, 5, 10, …) at least two rows apart. Rows are split in four braille
/// dots, so a value's height is drawn to a quarter of a row.
struct YScale: Equatable {
    /// The values at the bottom and the top edge of the plot.
    let low: Double
    let high: Double
    let rows: Int
    /// The distance between labelled values.
    let tick: Double

    static let ticks: [Double] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    /// A flat series still gets this many bpm of height, so a line of equal values is not drawn as a cliff.
    static let minimumSpan = 4.0

    static func fit(min lo: Double, max hi: Double, rows: Int) -> YScale {
        let rows = Swift.max(1, rows)
        var lo = lo, hi = Swift.max(lo, hi)
        if hi - lo < minimumSpan {
            let middle = (lo + hi) / 2
            lo = middle - minimumSpan / 2
            hi = middle + minimumSpan / 2
        }
        let air = Swift.max(0.5, (hi - lo) * 0.04)
        let low = lo - air, high = hi + air
        for tick in ticks {
            let scale = YScale(low: low, high: high, rows: rows, tick: tick)
            let labelled = scale.labelledRows()
            if zip(labelled, labelled.dropFirst()).allSatisfy({ $1.row - $0.row >= 2 }) { return scale }
        }
        return YScale(low: low, high: high, rows: rows, tick: ticks.last!)
    }

    /// Dot rows in the plot: `perRow` a row (braille's four, half blocks' two).
    func dots(perRow: Int = 4) -> Int { rows * perRow }

    /// The dot row (0 at the top) a value falls on, clamped into the plot.
    func dot(of value: Double, perRow: Int = 4) -> Int {
        let dots = dots(perRow: perRow)
        guard high > low else { return dots / 2 }
        let d = Int(((high - value) / (high - low) * Double(dots - 1)).rounded())
        return Swift.min(Swift.max(d, 0), dots - 1)
    }

    /// The row (0 at the top) a value falls on, clamped into the plot.
    func row(of value: Double) -> Int { dot(of: value) / 4 }

    /// The labelled values, top row first: the multiples of `tick` in range, each on the row it falls on.
    func labelledRows() -> [(row: Int, value: Double)] {
        var out: [(row: Int, value: Double)] = []
        var value = (high / tick).rounded(.down) * tick
        while value >= low {
            out.append((row(of: value), value))
            value -= tick
        }
        return out
    }
}
