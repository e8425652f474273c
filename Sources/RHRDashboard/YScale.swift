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

    /// The rows that carry a label: about five, evenly spaced, at least two rows apart, placed so the
    /// roundest value in reach gets one.
    func labelledRows() -> [Int] {
        guard rows >= 2 else { return [0] }
        let every = max(2, rows / 5)
        func roundness(_ row: Int) -> Int {
            let v = value(ofRow: row)
            if v.truncatingRemainder(dividingBy: 10) == 0 { return 3 }
            if v.truncatingRemainder(dividingBy: 5) == 0 { return 2 }
            return v.truncatingRemainder(dividingBy: 2) == 0 ? 1 : 0
        }
        // From the bottom up: the first `every` rows compete for the anchor.
        let candidates = (0..<min(every, rows)).map { rows - 1 - $0 }
        let anchor = candidates.max { (roundness($0), $0) < (roundness($1), $1) } ?? rows - 1
        return (0..<rows).filter { (anchor - $0) % every == 0 }
    }
}
