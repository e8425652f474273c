import Synchronization

/// The series the chart drew last and what they were worked out for. A key press that moves neither the window nor
/// what the chart shows (the cursor within the window, a pane's scroll, Tab, a page over the chart) draws them again
/// without working them out anew: at month zoom that is every writer's ten years of medians, means and quartiles.
/// One per index, so a new index (new data) never draws an old series.
final class ChartSeriesMemo: Sendable {
    struct Key: Equatable, Sendable {
        var window: ChartWindow
        var options: ChartSeries.Options
    }

    private let last = Mutex<(key: Key, series: ChartSeries)?>(nil)

    func series(_ key: Key, _ work: () -> ChartSeries) -> ChartSeries {
        if let found = last.withLock({ $0 }), found.key == key { return found.series }
        let series = work()
        last.withLock { $0 = (key, series) }
        return series
    }
}
