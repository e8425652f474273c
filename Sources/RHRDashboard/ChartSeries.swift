import RHRCore
import RHRScreen

/// What the chart draws, computed from the data before any drawing: one point per visible writer and column
/// (the day's value, or at week and month zoom the median of the column's daily values), the context series
/// when shown, and the columns that carry a mark.
struct ChartSeries {
    struct Point {
        /// Relative to the plot's left edge.
        var cell: Int
        var bpm: Double
        var glyph: Character
        var style: Style
    }

    var points: [Point] = []
    var outOfRangeCells: Set<Int> = []
    /// Indexes of writers with a provisional value in view.
    var provisionalWriters: [Int] = []
    var hasContext = false
    /// Columns holding a day a live update just changed.
    var changedCells: Set<Int> = []

    /// The series of `index` in `window`: the writers not in `hidden`, values under `aggregation`, the
    /// sedentary minimum (R8) when `showContext`.
    init(_ index: DashboardIndex, window: ChartWindow, aggregation: Aggregation, hidden: Set<WriterKey>,
         showContext: Bool, changedDays: Set<LocalDay>, glyphs: Glyphs) {
        let zoom = window.zoom
        let from = window.firstDay, to = window.lastDay
        for day in changedDays where day >= from && day <= to {
            changedCells.insert(window.pointCell(ofBucket: zoom.bucket(of: day)))
        }
        if showContext {
            for c in index.contextWriters.indices {
                let list = index.sedentaryMinima(contextWriter: c)
                var i = index.firstSedentaryIndex(contextWriter: c, onOrAfter: from)
                var values: [Double] = []
                var bucket = Int.min
                func flush() {
                    guard !values.isEmpty else { return }
                    points.append(Point(cell: window.pointCell(ofBucket: bucket), bpm: Self.median(&values),
                                        glyph: glyphs.context, style: .context))
                    hasContext = true
                    values.removeAll(keepingCapacity: true)
                }
                while i < list.count && list[i].day <= to {
                    let b = zoom.bucket(of: list[i].day)
                    if b != bucket { flush(); bucket = b }
                    values.append(list[i].bpm)
                    i += 1
                }
                flush()
            }
        }
        // Later writers first, so writer 1 ends up on top where points meet.
        for w in index.writers.indices.reversed() where !hidden.contains(index.writers[w].key) {
            let list = index.values(writer: w, aggregation: aggregation)
            var i = index.firstIndex(writer: w, onOrAfter: from, aggregation: aggregation)
            var sawProvisional = false
            // One point per column, provisional when one of its days is.
            var bucketValues: [Double] = []
            var bucketProvisional = false
            var bucket = Int.min
            func flush() {
                guard !bucketValues.isEmpty else { return }
                let glyph = bucketProvisional ? glyphs.provisional(w) : glyphs.series(w)
                points.append(Point(cell: window.pointCell(ofBucket: bucket), bpm: Self.median(&bucketValues),
                                    glyph: glyph, style: .series(w)))
                sawProvisional = sawProvisional || bucketProvisional
                bucketValues.removeAll(keepingCapacity: true)
                bucketProvisional = false
            }
            while i < list.count && list[i].day <= to {
                let value = list[i]
                let b = zoom.bucket(of: value.day)
                if b != bucket { flush(); bucket = b }
                if value.outOfRange > 0 { outOfRangeCells.insert(window.pointCell(ofBucket: b)) }
                if let bpm = value.bpm {
                    bucketValues.append(bpm)
                    bucketProvisional = bucketProvisional || value.provisional
                }
                i += 1
            }
            flush()
            if sawProvisional { provisionalWriters.insert(w, at: 0) }
        }
    }

    /// The median; the mean of the middle two for an even count.
    static func median(_ values: inout [Double]) -> Double {
        if values.count == 1 { return values[0] }
        values.sort()
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }
}
