import RHRCore
import RHRTerminal

/// Why fresh data was read.
public enum LoadReason: Sendable, Hashable {
    /// `r`.
    case reload
    /// The store changed (a live update) on these days; empty when unknown.
    case storeChanged(Set<LocalDay>)
    /// The whole history, after a first frame drawn from the most recent days only.
    case history
}

/// Everything that can change the dashboard's state.
public enum DashboardEvent: Sendable {
    case key(Key)
    case resize(TerminalSize)
    /// The clock moved on: `today` may be a new day.
    case tick(today: LocalDay)
    /// Fresh data, prepared (possibly on another thread: preparing ten years takes longer than a frame).
    case dataLoaded(DashboardIndex, LoadReason)
    /// Reading the store failed; the old data stays on screen.
    case loadFailed(String)
    /// The store changed (a daemon subscription says so): revision and the days it touched. The seam for live
    /// updates: `update` answers with `.load(.storeChanged(days))` when the revision is newer than the one shown.
    case storeChanged(revision: Int64, days: Set<LocalDay>)
}

/// What the run loop must do after an update; `update` itself never does I/O.
public enum DashboardEffect: Sendable, Equatable {
    case quit
    /// Read the store again and send `.dataLoaded` (or `.loadFailed`).
    case load(LoadReason)
}
