import RHRCore
import RHRScreen

/// The mouse, as htop and lazygit users expect it: a click on a day in the chart or the per-source columns
/// moves the cursor there, a click on a legend entry shows or hides that writer, a click on a pane focuses it,
/// and the wheel scrolls what is under it (days in the chart and columns, lines in the detail, help and
/// comparison). Hit-testing uses the same layout the frame is drawn with.
enum DashboardMouse {
    static func handle(_ event: MouseEvent, _ state: inout DashboardState) -> DashboardEffect? {
        switch state.overlay {
        case .help, .comparison, .derivations:
            // Three rows a turn, the overlay laid out once.
            if event.kind == .wheelUp { state.helpScroll = max(0, state.helpScroll - 3) }
            if event.kind == .wheelDown {
                let maxScroll = state.overlay == .help ? HelpView.maxScroll(state)
                    : state.overlay == .comparison ? ComparisonView.maxScroll(state) : DerivationsView.maxScroll(state)
                state.helpScroll = min(state.helpScroll + 3, maxScroll)
            }
            return nil
        case .goTo:
            return nil
        case .none:
            break
        }
        let layout = DashboardLayout(state)
        // With words instead of a chart there is nothing to click; the sedentary chart alone is clicked as the chart.
        guard !layout.isTooSmall, state.content != .words else { return nil }
        let x = event.x, y = event.y
        let wheel = event.kind == .wheelUp ? -1 : event.kind == .wheelDown ? 1 : 0
        let chart = layout.chart

        if contains(chart.legend, x, y) {
            guard event.kind == .press else { return nil }
            let legend = ChartLegend(writers: ChartLegend.writers(state, glyphs: Glyphs(state.capabilities)),
                                     markers: [], in: chart.legend, writerRows: chart.legendWriterRows,
                                     glyphs: Glyphs(state.capabilities))
            if let w = legend.writer(atRow: y - chart.legend.y, x: x - chart.legend.x) {
                DashboardUpdate.toggle(state.index.writers[w].key, &state)
            }
            return nil
        }
        if contains(Rect(x: 0, y: chart.title.y, width: state.size.width, height: chart.legend.y - chart.title.y), x, y) {
            if wheel != 0 {
                DashboardUpdate.step(buckets: wheel, &state)
                return nil
            }
            state.focus = .chart
            let window = ChartWindow(state)
            if contains(chart.plot, x, y) || contains(chart.xAxis, x, y),
               let bucket = window.bucket(atCell: x - chart.plot.x) {
                DashboardUpdate.step(buckets: bucket - state.zoom.bucket(of: state.cursor), &state)
            }
            return nil
        }
        if let rect = layout.columns, contains(rect, x, y) {
            if wheel != 0 {
                DashboardUpdate.move(days: wheel, &state)
                return nil
            }
            state.focus = .columns
            if let day = ColumnsView.day(atRow: y, ColumnsView.Model(state), in: rect, columns: layout.columnPlan) { DashboardUpdate.moveTo(day, &state) }
            return nil
        }
        if let rect = layout.detail, contains(rect, x, y) {
            if wheel != 0 {
                state.detailScroll = min(max(0, state.detailScroll + 3 * wheel), DetailView.maxScroll(state))
                return nil
            }
            if state.focus != .detail { state.detailScroll = 0 }
            state.focus = .detail
        }
        return nil
    }

    static func contains(_ rect: Rect, _ x: Int, _ y: Int) -> Bool {
        x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
    }
}
