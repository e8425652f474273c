import RHRCore

/// The one rule for which day values count in the chart's range and in every figure derived from them (the
/// rolling mean, the usual range, the comparison): a value the day has (R6 leaves out-of-range samples out
/// of it already). R13's implausible dates join here with one more condition, so no figure can miss them.
enum ChartedValue {
    static func bpm(_ value: DayValue) -> Double? {
        guard let bpm = value.bpm, bpm.isFinite else { return nil }
        return bpm
    }
}
