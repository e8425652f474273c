import Foundation
import RHRCore
import RHRDashboard
import RHRStore

/// Reads the days a live update changed, for `DashboardIndex.patched(with:revision:)`: a few ranges of
/// days instead of ten years, and the streams.
public enum DashboardDeltaReader {
    /// Close days are read in one range; every day of each range is read again (and so belongs to the
    /// delta), not only the named ones.
    public static func read(_ database: HealthDatabase, days: Set<LocalDay>) throws(StoreError) -> DashboardDelta {
        var delta = DashboardDelta(days: [])
        for range in DashboardDelta.ranges(days) {
            var day = range.lowerBound
            while day <= range.upperBound {
                delta.days.insert(day)
                day = day.adding(days: 1)
            }
            delta.samples += try database.samples(from: range.lowerBound, to: range.upperBound)
            delta.revisions += try database.revisions(from: range.lowerBound, to: range.upperBound)
            delta.heartRateDays += try database.heartRateDays(from: range.lowerBound, to: range.upperBound)
        }
        // Not `contents()`: it counts the whole store, slower than all the rest; the patch counts it from the
        // history it holds.
        delta.streams = try database.streams()
        return delta
    }
}
