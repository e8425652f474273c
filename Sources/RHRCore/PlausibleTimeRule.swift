import Foundation

/// R13: plausible time. A sample dated before 2000-01-01, more than a day after the `asOf` of what delivered it,
/// or whose window is longer than 48 hours is kept and shown, flagged *implausible date*, and left out of every
/// aggregate and of the chart's range, as an out-of-range value is (R6). Garbage dates exist in the wild (years
/// 1 to 9999, windows of thousands of years); they must neither bend a trend nor stretch the chart over centuries.
public enum PlausibleTimeRule {
    /// 2000-01-01T00:00:00Z: no resting heart rate reached HealthKit or Health Connect before.
    public static let earliest = Date(timeIntervalSince1970: 946_684_800)
    /// How far after the moment it was read a sample may end: a day, for clocks and zones that are off.
    public static let maxAhead: TimeInterval = 86_400
    /// The longest window a resting sample may span.
    public static let maxWindow: TimeInterval = 48 * 3600

    /// Whether a sample's time is plausible; `asOf` is when what delivered it was read (nil: not judged on it).
    public static func isPlausible(start: Date, end: Date, asOf: Timestamp?) -> Bool {
        problem(start: start, end: end, asOf: asOf) == nil
    }

    /// The same for a day of heart-rate samples summarised before rhr sees their times (R8): a day before 2000, or
    /// after the day following the day the road read it, is left out of the summaries shown.
    public static func isPlausible(day: LocalDay, asOf: Timestamp?) -> Bool {
        day >= LocalDay(epochSeconds: earliest.timeIntervalSince1970, offsetSeconds: 0)
            && (asOf.map { day <= $0.localDay.adding(days: 1) } ?? true)
    }

    /// What is implausible about it, in words for the detail view; nil when nothing is.
    public static func problem(start: Date, end: Date, asOf: Timestamp?) -> String? {
        if start < earliest { return "dated before 2000" }
        if let asOf, end.timeIntervalSince1970 > asOf.epochSeconds + maxAhead {
            return "dated more than a day after it was read"
        }
        if end.timeIntervalSince(start) > maxWindow { return "a window longer than 48 hours" }
        return nil
    }
}
