import Foundation
import RHRCore
import RHRDashboard
import RHRStore

/// Reads the days a live update changed, for `DashboardIndex.patched(with:revision:)`: a few ranges of
/// days instead of ten years, and the streams, all in one snapshot of the store.
public enum DashboardDeltaReader {
    /// Close days are read in one range; every day of each range is read again (and so belongs to the
    /// delta), not only the named ones.
    public static func read(_ database: HealthDatabase, days: Set<LocalDay>) throws(StoreError) -> DashboardDelta {
        try database.read { tx throws(StoreError) in
            var delta = DashboardDelta(days: [])
            for range in DashboardDelta.ranges(days) {
                delta.days.formUnion(range)
                delta.samples += try tx.samples(from: range.lowerBound, to: range.upperBound)
                delta.revisions += try tx.revisions(from: range.lowerBound, to: range.upperBound)
                delta.heartRateDays += try tx.heartRateDays(from: range.lowerBound, to: range.upperBound)
            }
            // Not `contents()`: it counts the whole store, slower than all the rest; the patch counts it from the
            // history it holds.
            delta.streams = try tx.streams()
            delta.revision = try tx.revision()
            delta.writerNumbers = try tx.writerNumbers()
            delta.watchWriters = try tx.watchWriters()
            return delta
        }
    }
}
