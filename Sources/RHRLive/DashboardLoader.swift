import Foundation
import RHRCore
import RHRDashboard
import RHRStore

/// Reads what the dashboard shows from the store, as one `DashboardData`: for `rhr`, and for the tests and the
/// benchmark, which must read exactly as it does. Each read is one snapshot of the store (`HealthDatabase.read`),
/// so the screen never mixes two states of it, however often other processes write.
public enum DashboardLoader {
    /// How far back the first, quick read reaches; the rest follows on a background thread.
    public static let recentDays = 400

    /// Everything, at the revision it was read at; with `from` or `to`, only those days' values and history, and
    /// what the whole store holds all the same (R9): what a report of a period is made from (docs/design.md section 6).
    public static func load(_ database: HealthDatabase, source: String, from: LocalDay? = nil,
                            to: LocalDay? = nil) throws(StoreError) -> DashboardData {
        try database.read { tx throws(StoreError) in
            let samples = try tx.samples(from: from, to: to), heartRateDays = try tx.heartRateDays(from: from, to: to)
            let whole = from == nil && to == nil
            return DashboardData(samples: samples,
                                 revisions: try tx.revisions(from: from, to: to),
                                 heartRateDays: heartRateDays,
                                 // The heart rate just read, when it is all of it, not grouped again (tallying the
                                 // samples in Swift is slower).
                                 contents: try tx.contents(heartRate: whole ? heartRateDays : nil),
                                 streams: try tx.streams(),
                                 revision: try tx.revision(),
                                 source: source,
                                 machineZone: database.machineZone,
                                 writerNumbers: try tx.writerNumbers(),
                                 passedOver: try tx.passedOver().total,
                                 writerSpellings: try tx.writerSpellings(),
                                 watchWriters: try tx.watchWriters())
        }
    }

    /// The most recent days only, for a first frame within 100 ms on a ten-year store; nil when they hold no
    /// resting value (then the whole store decides what to show: an old history, or an empty state).
    public static func loadRecent(_ database: HealthDatabase, source: String, today: LocalDay) throws(StoreError) -> DashboardData? {
        let from = today.adding(days: -recentDays)
        return try database.read { tx throws(StoreError) -> DashboardData? in
            let samples = try tx.samples(from: from)
            guard !samples.isEmpty else { return nil }
            // No contents: they need the whole store (R9), and the full read follows at once.
            return DashboardData(samples: samples,
                                 revisions: try tx.revisions(from: from),
                                 heartRateDays: try tx.heartRateDays(from: from),
                                 streams: try tx.streams(),
                                 revision: try tx.revision(),
                                 source: source,
                                 machineZone: database.machineZone,
                                 isPartial: true,
                                 writerNumbers: try tx.writerNumbers(),
                                 passedOver: try tx.passedOver().total,
                                 writerSpellings: try tx.writerSpellings(),
                                 watchWriters: try tx.watchWriters())
        }
    }
}
