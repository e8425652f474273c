/// The bpm axis: a whole-number step per row chosen so the values in view fit, centred, with labels on
/// round values. Autoscaled to what is on screen; never a fixed "normal" band (R11).
struct YScale: Equatable {
    /// The value of the bottom row.
    let low: Double
    /// bpm per row.
    let step: Double
    let rows: Int

    static let steps: [Double] = [1, 2, 3, 4, 5, 10, 15, 20, 25, 50, 100, 200, 500]

    static func fit(min lo: Double, max hi: Double, rows: Int) -> YScale {
        let rows = Swift.max(1, rows)
        let span = Swift.max(0, hi - lo)
        let room = Double(Swift.max(1, rows - 1))
        // Leave a little air above and below when the rows allow it.
        let step = steps.first { $0 * room >= span + (rows > 6 ? $0 : 0) } ?? steps.last!
        let height = step * room
        var low = ((lo + hi) / 2 - height / 2) / step
        low = low.rounded(.down) * step
        if low + height < hi { low += step }
        if low > lo { low = (lo / step).rounded(.down) * step }
        return YScale(low: low, step: step, rows: rows)
    }

    /// The row (0 at the top) a value falls on, clamped into the plot.
    func row(of value: Double) -> Int {
        let r = rows - 1 - Int(((value - low) / step).rounded())
        return Swift.min(Swift.max(r, 0), rows - 1)
    }

    func value(ofRow row: Int) -> Double { low + Double(rows - 1 - row) * step }

    /// The rows that carry a label: round values, at least two rows apart; top and bottom when nothing else is.
    func labelledRows() -> [Int] {
        let every = [5.0, 10, 20, 25, 50, 100, 200, 500, 1000].first { l in
            // Rows between two labelled values.
            var k = 1
            while (Double(k) * step).truncatingRemainder(dividingBy: l) != 0 && k < 1000 { k += 1 }
            return k >= 2
        } ?? 1000
        var rowsWithLabels = (0..<rows).filter { value(ofRow: $0).truncatingRemainder(dividingBy: every) == 0 }
        if rowsWithLabels.count < 2 && rows >= 3 {
            rowsWithLabels = Array(Set(rowsWithLabels + [0, rows - 1])).sorted()
            // Keep labels apart.
            var kept: [Int] = []
            for r in rowsWithLabels where kept.last.map({ r - $0 >= 2 }) ?? true { kept.append(r) }
            rowsWithLabels = kept
        }
        return rowsWithLabels
    }
}
