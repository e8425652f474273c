import RHRScreen

/// Where each part of the dashboard goes at a given size. Each pane first gets what it needs, measured from what
/// it will show (`Needs`, `LayoutNeeds.swift`), before any pane gets more: the chart its title, a plot of
/// `minimumPlot` rows, its axis and the legend's rows; the per-source columns every heading whole when the screen
/// holds them; the detail pane no wider than its widest line, beside the columns when what they leave is wide
/// enough to read, else below them, else behind Tab. Rows the panes do not fill go to the chart, which keeps at
/// least half the body. The parts tile the screen exactly, so every cell is drawn by someone (the render tests
/// check that with a sentinel fill). Nothing here depends on the cursor day but the detail pane's width, so the
/// chart and the table keep their places as the cursor moves.
struct DashboardLayout {
    /// Below this the dashboard shows the "too small" screen.
    static let minimum = TerminalSize(width: 60, height: 16)

    static let minimumPlot = 7
    /// The panes below the chart keep at least this (the columns' heading and three days).
    static let panesBelow = 7
    /// The detail pane sits beside the columns only with this much room; narrower, its samples wrap too much.
    static let detailBesideWidth = 48
    /// Below the columns the detail pane gets at least its title and five lines.
    static let detailBelowRows = 6
    /// The columns beside the detail pane keep this width at least (their key to the flags is one line).
    static let columnsBesideWidth = 60
    /// The table's heading rows and its line for the flags' meaning, around its days.
    static let tableFrame = 4

    /// What the body below the header shows.
    enum Content: Equatable {
        /// The chart of resting values, the per-source columns and the detail pane.
        case dashboard
        /// No resting writer: the sedentary minimum charted alone (R8, `c`), and the cursor day's heart rate.
        case sedentaryChart
        /// Words instead of a chart (R9; `EmptyStateView`).
        case words
    }

    /// What the panes need, measured from what they will show; the detail pane's width is measured at the room
    /// it is offered (`detailWidth`).
    struct Needs {
        var content: Content = .dashboard
        var noticeCount = 0
        var hasMessage = false
        var focus: Focus = .chart
        /// The legend's rows with every name whole and its markers in, in their short forms and in their long.
        var legendRows = 1
        var legendRowsLong = 1
        /// Of them, the rows the writers take.
        var legendWriterRows = 1
        /// The width each visible writer's column needs for its heading whole (`ColumnsView.headingWidths`).
        var columnWidths: [Int] = []
        var columnScroll = 0
        /// Days the table can show: from the first day the cursor reaches to the last with data.
        var days = 0
    }

    let size: TerminalSize
    /// What it was laid out for.
    let needs: Needs
    var header = Rect(x: 0, y: 0, width: 0, height: 0)
    var notices = Rect(x: 0, y: 0, width: 0, height: 0)
    var chart = ChartLayout()
    var columns: Rect?
    /// How the columns' width is shared among the writers.
    var columnPlan = ColumnsView.Columns(dateWidth: ColumnsView.wideDate, widths: [], shown: 0..<0, compact: false)
    var detail: Rect?
    /// Between columns and detail when they sit side by side.
    var divider: Rect?
    /// Right of the detail pane, what its widest line leaves: blank.
    var spare: Rect?
    var footer = Rect(x: 0, y: 0, width: 0, height: 0)
    /// A message's own row above the key hints, while there is one (it never covers them).
    var message: Rect?
    /// The body below the header for the empty states.
    var body = Rect(x: 0, y: 0, width: 0, height: 0)

    var isTooSmall: Bool { !size.contains(Self.minimum) }

    /// `detailWidth(limit)`: the columns the detail pane's widest line takes, at most `limit`.
    init(size: TerminalSize, needs: Needs, detailWidth: (Int) -> Int) {
        self.size = size
        self.needs = needs
        guard !isTooSmall else { return }
        var rest = Rect(size)
        (header, rest) = rest.splitTop(2)
        (rest, footer) = rest.splitBottom(1)
        body = rest
        // The message row comes out of the panes below the chart (or the empty state's body), so the chart
        // keeps its size when a message comes and goes.
        if needs.hasMessage {
            message = body.splitBottom(1).bottom
            body = body.splitBottom(1).rest
        }
        let noticeRows = size.height >= 30 ? min(needs.noticeCount, 3) : size.height >= 20 ? min(needs.noticeCount, 1) : 0
        (notices, rest) = rest.splitTop(noticeRows)
        let legendCap = size.height >= 34 ? 5 : size.height >= 22 ? 3 : 1
        let legendRows = max(1, min(needs.legendRows, legendCap))
        chart = ChartLayout(Rect(x: 0, y: rest.y, width: size.width, height: 0), legendRows: legendRows)
        guard needs.content != .words else { return }

        // Rows: the chart at least its minimum (a smaller plot only where that leaves the panes fewer than
        // `panesBelow`), and half the body; the panes what they fill of the rest.
        let height = rest.height
        let chartLeast = max(1 + 5 + 2 + legendRows, min(1 + Self.minimumPlot + 2 + legendRows, height - Self.panesBelow))
        let panesMost = max(0, height - max(chartLeast, (height + 1) / 2))
        let tableRows = Self.tableFrame + needs.days
        let whole = ColumnsView.wholeWidth(needs.columnWidths)
        let beside = needs.content == .dashboard
            && max(whole, Self.columnsBesideWidth) + 1 + Self.detailBesideWidth <= size.width
        let below = needs.content == .dashboard && !beside
            && panesMost >= Self.tableFrame + 7 + Self.detailBelowRows
        // Tab between columns and detail takes the same rows either way, so the chart never moves with it.
        let panes = below ? panesMost
            : needs.content == .sedentaryChart ? min(panesMost, Self.panesBelow)
            : min(panesMost, max(Self.panesBelow, tableRows))
        let block: Rect
        (block, rest) = rest.splitTop(height - panes)
        // The markers' long forms take a row from the plot only where it has more than its minimum.
        let longRows = min(needs.legendRowsLong, legendRows + 1, legendCap)
        let spareRows = block.height - (1 + Self.minimumPlot + 2 + legendRows)
        chart = ChartLayout(block, legendRows: spareRows > 0 ? max(legendRows, longRows) : legendRows)
        // The writers keep the rows they need and the markers get the rest; on a legend cut short, the writers
        // take all rows but the last and their names are cut to fit (`ChartLegend`).
        if legendRows >= needs.legendRows { chart.legendWriterRows = needs.legendWriterRows }
        if needs.hasMessage { rest = rest.splitBottom(1).rest }
        if rest.height <= 0 { return }

        if beside {
            let (left, right) = rest.splitLeft(max(whole, Self.columnsBesideWidth))
            let (line, remainder) = right.splitLeft(1)
            columns = left
            divider = line
            placeDetail(remainder, detailWidth)
        } else if below {
            let top = rest.splitTop(min(tableRows, rest.height - Self.detailBelowRows))
            columns = top.top
            placeDetail(top.rest, detailWidth)
        } else if needs.content == .sedentaryChart || needs.focus == .detail {
            placeDetail(rest, detailWidth)
        } else {
            columns = rest
        }
        if let columns {
            columnPlan = ColumnsView.columns(needs: needs.columnWidths, width: columns.width, scroll: needs.columnScroll)
        }
    }

    /// The detail pane in `area`, no wider than its widest line; what that leaves at the right is `spare`.
    private mutating func placeDetail(_ area: Rect, _ detailWidth: (Int) -> Int) {
        let (pane, leftover) = area.splitLeft(detailWidth(area.width))
        detail = pane
        if !leftover.isEmpty { spare = leftover }
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
    /// The legend's rows for the writers, when the layout measured them (`ChartLegend`'s default otherwise).
    var legendWriterRows: Int?

    init() {}

    init(_ block: Rect, legendRows: Int) {
        var rest: Rect
        (title, rest) = block.splitTop(1)
        (rest, legend) = rest.splitBottom(legendRows)
        (rest, xAxis) = rest.splitBottom(2)
        (yAxis, rest) = rest.splitLeft(Self.axisWidth)
        (plot, margin) = rest.splitLeft(rest.width - 1)
    }

    /// The plot's width on a screen of `size`: the chart always spans the screen, so this is known before the
    /// rows are shared out (the chart's window needs no more of the layout).
    static func plotWidth(_ size: TerminalSize) -> Int {
        size.contains(DashboardLayout.minimum) ? max(0, size.width - axisWidth - 1) : 0
    }
}
