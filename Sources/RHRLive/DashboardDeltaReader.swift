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

/// One connection for the dashboard's background reads, opened on first use and kept: the loader runs one
/// read at a time (on whichever thread), and a warm connection reads a few days in a millisecond or two.
/// The lock makes one-at-a-time a rule rather than a hope.
public final class BackgroundStore: @unchecked Sendable {
    public let path: String
    private let machineZone: TimeZone
    private let lock = NSLock()
    private var database: HealthDatabase?

    public init(path: String, machineZone: TimeZone = .current) {
        self.path = path
        self.machineZone = machineZone
    }

    public func read<T>(_ body: (HealthDatabase) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if database == nil { database = try HealthDatabase(path: path, machineZone: machineZone) }
        return try body(database!)
    }
}
