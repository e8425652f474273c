import RHRCore

/// The stretch of time the chart shows: which buckets (days, weeks or months) are on screen and how many
/// cells each one gets. The scale (cells per bucket) follows from the zoom, the plot's width and the span of
/// the data, never from the cursor: moving the cursor scrolls the window, it never rescales it. The window
/// never shows buckets before the first day the cursor can reach, nor after the newest day with data unless the
/// cursor is there (`t` goes to today), and scrolls only when the cursor leaves it.
struct ChartWindow: Equatable {
    /// A short history is drawn wider, up to this many cells a bucket, so it fills the plot (fourteen days at 400
    /// columns get 28 each).
    static let maximumCells = 32

    let zoom: Zoom
    /// Cells per bucket.
    let cellsPerBucket: Int
    /// How many buckets fit.
    let buckets: Int
    /// First bucket on screen.
    let start: Int
    var end: Int { start + buckets - 1 }

    /// At the plot width the state's own size gives (the frame's layout, so the two never disagree).
    init(_ state: DashboardState) {
        self.init(state, previousStart: state.windowStart)
    }

    /// At the state's plot width, scrolled from `previousStart` (nil: the cursor at the right edge). The chart
    /// spans the screen, so its width needs nothing else of the layout (`ChartLayout.plotWidth`).
    init(_ state: DashboardState, previousStart: Int?) {
        self.init(state, width: ChartLayout.plotWidth(state.size), previousStart: previousStart)
    }

    init(_ state: DashboardState, width: Int, previousStart: Int?) {
        let index = state.index
        self.init(zoom: state.zoom, width: width, cursor: state.cursor,
                  dataFirst: index.firstDay ?? state.cursor, dataLast: index.lastDay ?? state.cursor,
                  firstNavigable: state.firstNavigableDay, lastNavigable: state.lastNavigableDay,
                  previousStart: previousStart)
    }

    /// `dataFirst`…`dataLast` set the scale; the cursor moves within `firstNavigable`…`lastNavigable`.
    init(zoom: Zoom, width: Int, cursor: LocalDay, dataFirst: LocalDay, dataLast: LocalDay,
         firstNavigable: LocalDay, lastNavigable: LocalDay, previousStart: Int?) {
        self.zoom = zoom
        let cells = Self.cellsPerBucket(zoom: zoom, width: width, dataFirst: dataFirst, dataLast: dataLast)
        cellsPerBucket = cells
        let lowest = zoom.bucket(of: firstNavigable)
        let c = zoom.bucket(of: cursor)
        // The furthest the window reaches: the newest data, or the cursor past it; never the empty days up to today
        // the cursor has not gone to (docs/design.md section 6).
        let reach = max(lowest, min(zoom.bucket(of: lastNavigable), max(zoom.bucket(of: dataLast), c)))
        // No more buckets than that: the plot's spare columns stay blank, without an axis.
        let count = max(1, min(width / cells, reach - lowest + 1))
        buckets = count
        let highest = max(lowest, reach - count + 1)
        var start = previousStart ?? (c - count + 1)
        // Scroll only as far as the cursor needs.
        if c < start { start = c }
        if c > start + count - 1 { start = c - count + 1 }
        self.start = min(max(start, lowest), highest)
    }

    /// The scale: the data's span over the width, whole cells, between 1 and `maximumCells`.
    static func cellsPerBucket(zoom: Zoom, width: Int, dataFirst: LocalDay, dataLast: LocalDay) -> Int {
        let span = max(1, zoom.bucket(of: dataLast) - zoom.bucket(of: dataFirst) + 1)
        return max(1, min(maximumCells, width / span))
    }

    func contains(bucket: Int) -> Bool { bucket >= start && bucket <= end }

    /// The plot columns the window's buckets take (the rest of the plot stays blank).
    var usedWidth: Int { buckets * cellsPerBucket }

    /// The first cell (relative to the plot's left edge) of a bucket.
    func cell(ofBucket bucket: Int) -> Int { (bucket - start) * cellsPerBucket }

    /// The cell where a bucket's point goes: the middle of its cells.
    func pointCell(ofBucket bucket: Int) -> Int { cell(ofBucket: bucket) + (cellsPerBucket - 1) / 2 }

    /// The dot column of a bucket's point, in the middle of its cells: `across` dots a cell (braille's two, a half
    /// block's one).
    func pointDot(ofBucket bucket: Int, across: Int = 2) -> Int {
        (bucket - start) * cellsPerBucket * across + (cellsPerBucket * across - 1) / 2
    }

    /// The bucket under a cell of the plot, if the cell is in the window.
    func bucket(atCell cell: Int) -> Int? {
        guard cell >= 0, cell < buckets * cellsPerBucket else { return nil }
        return start + cell / cellsPerBucket
    }

    var firstDay: LocalDay { zoom.firstDay(ofBucket: start) }
    var lastDay: LocalDay { zoom.lastDay(ofBucket: end) }

    /// "1 column a day", "3 columns a day", "1 column a week": the scale as the title states it.
    var scaleWords: String {
        "\(cellsPerBucket) column\(cellsPerBucket == 1 ? "" : "s") a \(zoom.words)"
    }
}
