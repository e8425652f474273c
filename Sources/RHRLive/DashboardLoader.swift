import Foundation
import RHRCore
import RHRDashboard
import RHRStore

/// Reads what the dashboard shows from the store, as one `DashboardData`: for `rhr`, and for the tests and the
/// benchmark, which must read exactly as it does.
public enum DashboardLoader {
    /// How far back the first, quick read reaches; the rest follows on a background thread.
    public static let recentDays = 400

    /// Everything. The queries run in separate read transactions; when a write lands between them (the
    /// revision moved), read again so the screen never mixes two states of the store.
    public static func load(_ database: HealthDatabase, source: String) throws(StoreError) -> DashboardData {
        var attempt = 0
        while true {
            let before = try database.revision()
            let data = DashboardData(samples: try database.samples(),
                                     revisions: try database.revisions(),
                                     heartRateDays: try database.heartRateDays(),
                                     contents: try database.contents(),
                                     streams: try database.streams(),
                                     revision: before,
                                     source: source,
                                     machineZone: database.machineZone)
            attempt += 1
            if try database.revision() == before || attempt >= 3 { return data }
        }
    }

    /// The most recent days only, for a first frame within 100 ms on a ten-year store; nil when they hold no
    /// resting value (then the whole store decides what to show: an old history, or an empty state).
    public static func loadRecent(_ database: HealthDatabase, source: String, today: LocalDay) throws(StoreError) -> DashboardData? {
        let from = today.adding(days: -recentDays)
        // The revision first: the data read after it holds at least that much (a live update newer than it is
        // then read again, never skipped).
        let revision = try database.revision()
        let samples = try database.samples(from: from)
        guard !samples.isEmpty else { return nil }
        // No contents: they need the whole store (R9), and the full read follows at once.
        return DashboardData(samples: samples,
                             revisions: try database.revisions(from: from),
                             heartRateDays: try database.heartRateDays(from: from),
                             streams: try database.streams(),
                             revision: revision,
                             source: source,
                             machineZone: database.machineZone,
                             isPartial: true)
    }
}
