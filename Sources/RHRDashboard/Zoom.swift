import RHRCore

/// How many days one chart column holds. Weeks start on Monday; months are calendar months.
public enum Zoom: Int, Sendable, Hashable, CaseIterable {
    case day
    case week
    case month

    public var words: String {
        switch self {
        case .day: return "day"
        case .week: return "week"
        case .month: return "month"
        }
    }

    /// One step more detail: month → week → day.
    public var zoomedIn: Zoom { Zoom(rawValue: max(0, rawValue - 1))! }
    /// One step less: day → week → month.
    public var zoomedOut: Zoom { Zoom(rawValue: min(2, rawValue + 1))! }

    /// The number of the column (bucket) a day falls in; consecutive buckets have consecutive numbers.
    public func bucket(of day: LocalDay) -> Int {
        switch self {
        case .day: return day.daysSinceEpoch
        // 1970-01-01 was a Thursday: shift by 3 so buckets start on Mondays.
        case .week: return Zoom.floorDiv(day.daysSinceEpoch + 3, 7)
        case .month:
            let c = LocalDay.civil(day.daysSinceEpoch)
            return c.year * 12 + c.month - 1
        }
    }

    /// The first day of a bucket.
    public func firstDay(ofBucket bucket: Int) -> LocalDay {
        switch self {
        case .day: return LocalDay(daysSinceEpoch: bucket)
        case .week: return LocalDay(daysSinceEpoch: bucket * 7 - 3)
        case .month:
            let year = Zoom.floorDiv(bucket, 12)
            return LocalDay(year: year, month: bucket - year * 12 + 1, day: 1)!
        }
    }

    /// The last day of a bucket.
    public func lastDay(ofBucket bucket: Int) -> LocalDay { firstDay(ofBucket: bucket + 1).adding(days: -1) }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

/// The buckets of days met in order, the calendar worked out once per bucket rather than once per day: ten
/// years at month zoom are 3,650 days in 120 buckets, and a key press redraws them all.
struct BucketCursor {
    let zoom: Zoom
    private var current = 0
    private var first = LocalDay(daysSinceEpoch: 1)
    private var last = LocalDay(daysSinceEpoch: 0)

    init(_ zoom: Zoom) { self.zoom = zoom }

    mutating func bucket(of day: LocalDay) -> Int {
        if day < first || day > last {
            current = zoom.bucket(of: day)
            first = zoom.firstDay(ofBucket: current)
            last = zoom.lastDay(ofBucket: current)
        }
        return current
    }
}
