import RHRCore
import Synchronization

/// The bpm range of one series over all of the store's data at a zoom: the chart's scale holds it
/// wherever the window is, so 52 and 79 bpm of one store are on screen together and a scroll never re-fits the
/// axis. A week or a month is the median of its days (`ChartSeries.buckets`), so each zoom has its own range;
/// with whiskers a bucket spans its lowest to its highest day. Worked out once per index and series, on first use.
final class ChartRanges: Sendable {
    struct Key: Hashable {
        /// A resting writer's place, or a context writer's (`context`).
        var series: Int
        var context: Bool
        var aggregation: Aggregation
        var zoom: Zoom
        var spread: Bool
    }

    private let known = Mutex<[Key: ClosedRange<Double>?]>([:])

    func range(_ key: Key, _ work: () -> ClosedRange<Double>?) -> ClosedRange<Double>? {
        if let found = known.withLock({ $0[key] }) { return found }
        let range = work()
        known.withLock { $0[key] = range }
        return range
    }

    /// The lowest and highest point of daily values at `zoom`.
    static func range(_ days: [(day: LocalDay, bpm: Double, provisional: Bool)], zoom: Zoom, spread: Bool) -> ClosedRange<Double>? {
        if zoom == .day || spread {
            guard let lo = days.map(\.bpm).min(), let hi = days.map(\.bpm).max() else { return nil }
            return lo...hi
        }
        let points = ChartSeries.buckets(days, zoom: zoom)
        guard let lo = points.map(\.bpm).min(), let hi = points.map(\.bpm).max() else { return nil }
        return lo...hi
    }
}

extension DashboardIndex {
    /// Writer `w`'s range over the whole store at `zoom`.
    func chartRange(writer w: Int, aggregation: Aggregation, zoom: Zoom, spread: Bool) -> ClosedRange<Double>? {
        ranges.range(.init(series: w, context: false, aggregation: aggregation, zoom: zoom, spread: spread)) {
            let days = values(writer: w, aggregation: aggregation).compactMap { v in
                ChartedValue.bpm(v).map { (day: v.day, bpm: $0, provisional: false) }
            }
            return ChartRanges.range(days, zoom: zoom, spread: spread)
        }
    }

    /// Context writer `c`'s sedentary minima (R8) over the whole store at `zoom`.
    func chartRange(contextWriter c: Int, zoom: Zoom) -> ClosedRange<Double>? {
        ranges.range(.init(series: c, context: true, aggregation: .latest, zoom: zoom, spread: false)) {
            let days = sedentaryMinima(contextWriter: c).filter { $0.bpm.isFinite }.map { (day: $0.day, bpm: $0.bpm, provisional: false) }
            return ChartRanges.range(days, zoom: zoom, spread: false)
        }
    }
}
