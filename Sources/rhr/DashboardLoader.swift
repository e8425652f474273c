import RHRCore
import RHRDashboard
import RHRStore

/// Reads everything the dashboard shows from the store, as one `DashboardData`.
enum DashboardLoader {
    /// The queries run in separate read transactions; when a write lands between them (the revision moved),
    /// read again so the screen never mixes two states of the store.
    static func load(_ database: HealthDatabase, source: String) throws(StoreError) -> DashboardData {
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
}
