import RHRCore

/// Some days of the store read afresh, for a live update: a push changes a day or two of ten years, and
/// reading only those (plus the small whole-store tables) is what keeps a live redraw within a tenth of a
/// second. `DashboardIndex.patched(with:revision:)` puts it in place of what the index held for those days.
public struct DashboardDelta: Sendable {
    /// The days read again: everything below is complete for them (and only for them).
    public var days: Set<LocalDay>
    public var samples: [DaySample] = []
    public var revisions: [RevisionEntry] = []
    public var heartRateDays: [HeartRateDaySummary] = []
    /// The whole store's streams, as in `DashboardData`.
    public var streams: [StreamState] = []
    /// What the store holds, when read; nil: the patch counts it from the whole history it holds (reading it
    /// would take longer than the rest of a live update).
    public var contents: [StoreContents]?
    /// The store's revision in the snapshot these days were read from; nil when not known. A delta read before the
    /// change it was read for (a snapshot held too long) is not patched in.
    public var revision: Int64?
    /// The writers' numbers, read with the days (small: one row per writer); nil: unchanged.
    public var writerNumbers: [WriterKey: Int]?
    /// The writers the store marks as an Apple Watch, read with the days; nil: unchanged.
    public var watchWriters: Set<WriterKey>?

    /// An empty delta for `days`; its reader fills in what it read.
    public init(days: Set<LocalDay>) { self.days = days }

    /// The changed days as the few ranges to read: days closer than `gap` apart are read in one query (the
    /// days between come along and are simply read again). Sorted.
    public static func ranges(_ days: Set<LocalDay>, gap: Int = 7) -> [ClosedRange<LocalDay>] {
        var ranges: [ClosedRange<LocalDay>] = []
        for day in days.sorted() {
            if let last = ranges.last, last.upperBound.distance(to: day) <= gap {
                ranges[ranges.count - 1] = last.lowerBound...day
            } else {
                ranges.append(day...day)
            }
        }
        return ranges
    }
}
