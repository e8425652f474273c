import RHRCore

/// A writer's 7-day rolling mean: on each day that has a value, the mean of the values of the seven days
/// ending on it, when at least four of those days have one. Days without a value stay gaps. Descriptive only
/// (R11): a smoother line through what was recorded.
enum RollingMean {
    static let days = 7
    /// More than half of the window, so two values never pass for a week.
    static let minimumValues = 4

    /// The mean on each day from `from` through `to`; `values` sorted by day (one writer's).
    static func series(_ values: [DayValue], from: LocalDay, to: LocalDay) -> [(day: LocalDay, bpm: Double)] {
        guard from <= to else { return [] }
        var out: [(day: LocalDay, bpm: Double)] = []
        // The window's values, oldest first, and their sum.
        var window: [(day: LocalDay, bpm: Double)] = []
        var head = 0
        var sum = 0.0
        let start = DashboardIndex.lowerBound(values.count) { values[$0].day < from.adding(days: -(days - 1)) }
        for value in values[start...] {
            if value.day > to { break }
            guard let bpm = ChartedValue.bpm(value) else { continue }
            window.append((value.day, bpm))
            sum += bpm
            while window[head].day <= value.day.adding(days: -days) {
                sum -= window[head].bpm
                head += 1
            }
            let count = window.count - head
            if value.day >= from && count >= minimumValues { out.append((value.day, sum / Double(count))) }
        }
        return out
    }
}
