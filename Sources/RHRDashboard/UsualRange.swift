import RHRCore

/// A writer's usual range (the baseline band): for each day, the median and the middle half (first to third
/// quartile) of its values in the 28 days ending on that day, once at least 14 of them have a value. Called
/// "usual range", never "normal" (R11): it describes this writer's own recent values and nothing else.
enum UsualRange {
    static let days = 28
    static let minimumDays = 14

    struct Day: Equatable {
        var day: LocalDay
        var median: Double
        /// First and third quartile.
        var lower: Double
        var upper: Double
    }

    /// The band on each day from `from` through `to` where it is defined, and no later than the writer's last
    /// value (after it, the band would describe nothing new); `values` sorted by day.
    static func series(_ values: [DayValue], from: LocalDay, to: LocalDay) -> [Day] {
        guard let last = values.last(where: { ChartedValue.bpm($0) != nil })?.day else { return [] }
        let to = min(to, last)
        guard from <= to else { return [] }
        var out: [Day] = []
        // The window's values by day (to drop them as it slides) and sorted (for the quartiles).
        var entering = DashboardIndex.lowerBound(values.count) { values[$0].day < from.adding(days: -(days - 1)) }
        var leaving = entering
        var sorted: [Double] = []
        var day = from
        while day <= to {
            while entering < values.count && values[entering].day <= day {
                if let bpm = ChartedValue.bpm(values[entering]) { insert(bpm, into: &sorted) }
                entering += 1
            }
            while leaving < entering && values[leaving].day <= day.adding(days: -days) {
                if let bpm = ChartedValue.bpm(values[leaving]) { remove(bpm, from: &sorted) }
                leaving += 1
            }
            if sorted.count >= minimumDays {
                out.append(Day(day: day, median: quantile(sorted, 0.5), lower: quantile(sorted, 0.25),
                               upper: quantile(sorted, 0.75)))
            }
            day = day.adding(days: 1)
        }
        return out
    }

    /// Whether the band is defined on any day: some 28 days hold 14 with a value. `values` sorted by day.
    static func exists(_ values: [DayValue]) -> Bool {
        // A window of the values with a charted bpm, slid along them: no copy (this runs for every frame with `b`).
        var first = 0, inWindow = 0
        for value in values where ChartedValue.bpm(value) != nil {
            inWindow += 1
            while values[first].day <= value.day.adding(days: -Self.days) {
                if ChartedValue.bpm(values[first]) != nil { inWindow -= 1 }
                first += 1
            }
            if inWindow >= minimumDays { return true }
        }
        return false
    }

    /// The `p` quantile of sorted values, interpolating between neighbours (the common "type 7" definition).
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard sorted.count > 1 else { return sorted.first ?? .nan }
        let h = Double(sorted.count - 1) * p
        let i = Int(h)
        let fraction = h - Double(i)
        return i + 1 < sorted.count ? sorted[i] + fraction * (sorted[i + 1] - sorted[i]) : sorted[i]
    }

    private static func insert(_ value: Double, into sorted: inout [Double]) {
        sorted.insert(value, at: DashboardIndex.lowerBound(sorted.count) { sorted[$0] < value })
    }

    private static func remove(_ value: Double, from sorted: inout [Double]) {
        let i = DashboardIndex.lowerBound(sorted.count) { sorted[$0] < value }
        if i < sorted.count && sorted[i] == value { sorted.remove(at: i) }
    }
}
