import RHRScreen

/// Where each part of the dashboard goes at a given size. The parts tile the screen exactly, so every cell is
/// drawn by someone (the render tests check that with a sentinel fill).
struct DashboardLayout {
    /// Below this the dashboard shows the "too small" screen.
    static let minimum = TerminalSize(width: 60, height: 16)

    let size: TerminalSize
    var header = Rect(x: 0, y: 0, width: 0, height: 0)
    var notices = Rect(x: 0, y: 0, width: 0, height: 0)
    var chart = ChartLayout()
    var columns: Rect?
    var detail: Rect?
    /// Between columns and detail when they sit side by side.
    var divider: Rect?
    var footer = Rect(x: 0, y: 0, width: 0, height: 0)
    /// A message's own row above the key hints, while there is one (it never covers them).
    var message: Rect?
    /// The body below the header for the empty states.
    var body = Rect(x: 0, y: 0, width: 0, height: 0)

    var isTooSmall: Bool { !size.contains(Self.minimum) }

    static let minimumPlot = 7
    static let panesBelow = 7

    init(size: TerminalSize, noticeCount: Int, focus: Focus, writerCount: Int = 1, showContext: Bool = false,
         hasMessage: Bool = false) {
        self.size = size
        guard !isTooSmall else { return }
        var rest = Rect(size)
        (header, rest) = rest.splitTop(2)
        (rest, footer) = rest.splitBottom(1)
        body = rest
        // The message row comes out of the panes below the chart (or the empty state's body), so the chart
        // keeps its size when a message comes and goes.
        if hasMessage {
            message = body.splitBottom(1).bottom
            body = body.splitBottom(1).rest
        }
        let noticeRows = size.height >= 30 ? min(noticeCount, 3) : size.height >= 20 ? min(noticeCount, 1) : 0
        (notices, rest) = rest.splitTop(noticeRows)

        // The legend: rows for the writers (about 26 columns each), and one for the markers.
        let perRow = max(1, (size.width - 1) / 26)
        let writerRows = max(1, (writerCount + perRow - 1) / perRow)
        // The context series' label needs a row of its own beside the provisional one on narrow screens.
        let markerRows = showContext && size.width < 120 ? 2 : 1
        let legendRows = min(size.height >= 34 ? 5 : size.height >= 22 ? 3 : 1, markerRows + writerRows)
        var chartBlock = max(1 + 5 + 2 + legendRows, Int((Double(rest.height) * 0.55).rounded()))
        // A plot of at least `minimumPlot` rows (at 80×24 with notes and a full legend, 55% left it 5) where the panes
        // below keep `panesBelow` (the columns' heading and three days).
        chartBlock = max(chartBlock, min(1 + Self.minimumPlot + 2 + legendRows, rest.height - Self.panesBelow))
        let block: Rect
        (block, rest) = rest.splitTop(chartBlock)
        chart = ChartLayout(block, legendRows: legendRows)
        if hasMessage { rest = rest.splitBottom(1).rest }

        if rest.height <= 0 { return }
        if size.width >= 120 {
            // Wide: columns and detail side by side.
            // The columns get what their writers need (date, then about 13 cells each); the detail at least 55,
            // or 48 when that lets every writer's column in at its narrowest.
            var leftWidth = min(max(60, ColumnsView.wideDate + ColumnsView.minColumn * writerCount + 1), rest.width - 55)
            let compact = ColumnsView.shortDate + ColumnsView.compactColumn * writerCount + 1
            if leftWidth < compact { leftWidth = max(leftWidth, min(compact, rest.width - 48)) }
            let (left, right) = rest.splitLeft(leftWidth)
            let (line, remainder) = right.splitLeft(1)
            columns = left
            divider = line
            detail = remainder
        } else if size.height >= 44 {
            // Tall: columns above detail.
            let top = rest.splitTop(min(rest.height / 2, 14))
            columns = top.top
            detail = top.rest
        } else if focus == .detail {
            detail = rest
        } else {
            columns = rest
        }
    }
}

/// The chart's own rectangle, split: title row, bpm axis, plot, date axis, legend.
struct ChartLayout {
    /// Columns of the bpm labels and the axis line left of the plot.
    static let axisWidth = 5

    var title = Rect(x: 0, y: 0, width: 0, height: 0)
    var yAxis = Rect(x: 0, y: 0, width: 0, height: 0)
    var plot = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Right of the plot: one blank column.
    var margin = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The axis line and the date labels.
    var xAxis = Rect(x: 0, y: 0, width: 0, height: 0)
    var legend = Rect(x: 0, y: 0, width: 0, height: 0)

    init() {}

    init(_ block: Rect, legendRows: Int) {
        var rest: Rect
        (title, rest) = block.splitTop(1)
        (rest, legend) = rest.splitBottom(legendRows)
        (rest, xAxis) = rest.splitBottom(2)
        (yAxis, rest) = rest.splitLeft(Self.axisWidth)
        (plot, margin) = rest.splitLeft(rest.width - 1)
    }
}
