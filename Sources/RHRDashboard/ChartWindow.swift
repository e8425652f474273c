import RHRCore
import RHRScreen

/// The stretch of time the chart shows: which buckets (days, weeks or months) are on screen and how many
/// cells each one gets. The cursor is always inside; the window only scrolls when the cursor leaves it.
struct ChartWindow {
    let zoom: Zoom
    /// Cells per bucket: 1, or up to 6 when all the data fits several times over (a short history).
    let cellsPerBucket: Int
    /// How many buckets fit.
    let buckets: Int
    /// First and last bucket on screen.
    let start: Int
    let end: Int

    /// At the plot width the state's own size gives (the frame's layout, so the two never disagree).
    init(_ state: DashboardState) {
        self.init(state, width: DashboardLayout(state).chart.plot.width)
    }

    /// The chart spans the data, stretched to the cursor when it is outside (today after old data): opening
    /// on data that ended months ago shows the data, not the empty months since.
    init(_ state: DashboardState, width: Int) {
        let first = min(state.index.firstDay ?? state.cursor, state.cursor)
        let last = max(state.index.lastDay ?? state.cursor, state.cursor)
        self.init(zoom: state.zoom, width: width, cursor: state.cursor, first: first, last: last,
                  previousEnd: state.windowEnd)
    }

    init(zoom: Zoom, width: Int, cursor: LocalDay, first: LocalDay, last: LocalDay, previousEnd: Int) {
        self.zoom = zoom
        let firstBucket = zoom.bucket(of: first)
        let lastBucket = zoom.bucket(of: last)
        let span = lastBucket - firstBucket + 1
        let cells = max(1, min(6, width / max(1, span)))
        cellsPerBucket = cells
        let count = max(1, width / cells)
        buckets = count
        let c = zoom.bucket(of: cursor)
        var end: Int
        if span <= count {
            // Everything fits: the last day at the right edge, as always; nothing after it is drawn.
            end = lastBucket
        } else {
            end = previousEnd
            if c > end { end = c }
            if c < end - count + 1 { end = c + count - 1 }
            // Never scroll past the end of the data.
            end = min(end, max(lastBucket, c))
        }
        self.end = end
        self.start = end - count + 1
    }

    func contains(bucket: Int) -> Bool { bucket >= start && bucket <= end }

    /// The first cell (relative to the plot's left edge) of a bucket.
    func cell(ofBucket bucket: Int) -> Int { (bucket - start) * cellsPerBucket }

    /// The cell where a bucket's point goes: the middle of its cells.
    func pointCell(ofBucket bucket: Int) -> Int { cell(ofBucket: bucket) + (cellsPerBucket - 1) / 2 }

    var firstDay: LocalDay { zoom.firstDay(ofBucket: start) }
    var lastDay: LocalDay { zoom.lastDay(ofBucket: end) }
}
