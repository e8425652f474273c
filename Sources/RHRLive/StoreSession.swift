import Foundation
import RHRCore
import RHRDashboard
import RHRSystem

extension DashboardSession {
    /// The session `rhr` runs on a store: full reads and live updates' days both on one background connection
    /// (`BackgroundStore`), each read its own snapshot of the newest commit. Tests build it the same way.
    public static func reading(_ store: BackgroundStore, source: String, feed: DashboardFeed?,
                               today: @escaping () -> LocalDay = { MachineClock.today() },
                               reports: DashboardReports = DashboardReports(environment: [:])) -> DashboardSession {
        DashboardSession(load: { () throws -> DashboardData in
            try store.read { try DashboardLoader.load($0, source: source) }
        }, loadDays: { days in
            try store.read { try DashboardDeltaReader.read($0, days: days) }
        }, feed: feed, today: today, reports: reports)
    }
}
