import RHRCore
import RHRTerminal

/// Everything that can change the dashboard's state.
public enum DashboardEvent: Sendable {
    case key(Key)
    case resize(TerminalSize)
    /// The clock moved on: `today` may be a new day.
    case tick(today: LocalDay)
    /// Fresh data after `r` or a store change; `changedDays` are the days the change touched (empty: unknown).
    case dataLoaded(DashboardData, changedDays: Set<LocalDay>)
    /// Reading the store failed; the old data stays on screen.
    case loadFailed(String)
    /// The store changed (a daemon subscription says so): revision and the days it touched. The seam for live
    /// updates: `update` answers with `.reload` when the revision is newer than what is shown.
    case storeChanged(revision: Int64, days: Set<LocalDay>)
}

/// What the run loop must do after an update; `update` itself never does I/O.
public enum DashboardEffect: Sendable, Equatable {
    case quit
    /// Read the store again and send `.dataLoaded` (or `.loadFailed`).
    case reload(changedDays: Set<LocalDay>)
}
