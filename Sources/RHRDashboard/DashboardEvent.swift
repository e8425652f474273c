import RHRCore
import RHRScreen

/// Why fresh data was read.
public enum LoadReason: Sendable, Hashable {
    /// `r`.
    case reload
    /// A live update that brought the store to `revision`. Asked for: the days to read again (empty when
    /// unknown: read everything). Loaded: the days whose values changed, which the dashboard marks.
    case storeChanged(Set<LocalDay>, revision: Int64)
    /// The whole history, after a first frame drawn from the most recent days only.
    case history
}

/// Everything that can change the dashboard's state.
public enum DashboardEvent: Sendable {
    case key(Key)
    /// A click or the wheel (ignored when the config turned the mouse off).
    case mouse(MouseEvent)
    case resize(TerminalSize)
    /// The clock moved on: `today` may be a new day.
    case tick(today: LocalDay)
    /// Fresh data, prepared (possibly on another thread: preparing ten years takes longer than a frame).
    case dataLoaded(DashboardIndex, LoadReason)
    /// Reading the store failed; the old data stays on screen.
    case loadFailed(String)
    /// The store changed (a daemon subscription says so): revision and the days it touched, empty when not
    /// known (the daemon asks for a resync). `update` answers with `.load(.storeChanged(days, revision:))`
    /// when the revision is newer than the one shown.
    case storeChanged(revision: Int64, days: Set<LocalDay>)
    /// A live feed began: the daemon on `socket` serves this store and says it is at `revision`.
    case liveFeedStarted(revision: Int64, socket: String)
    /// The live feed ended (the daemon stopped) at `at`: the data on screen is the store as of then.
    case liveFeedEnded(at: Timestamp)
    /// Something about the live feed worth a line in the footer (a daemon that serves another store).
    case liveFeedNote(String)
}

/// What the run loop must do after an update; `update` itself never does I/O.
public enum DashboardEffect: Sendable, Equatable {
    case quit
    /// Read the store again and send `.dataLoaded` (or `.loadFailed`).
    case load(LoadReason)
}

/// Whether the dashboard follows a daemon.
public enum LiveStatus: Sendable, Hashable {
    /// No daemon (none listens, or it serves another store): the dashboard shows the store as read.
    case off
    /// Subscribed to the daemon on this socket: pushes show as they land.
    case connected(socket: String)
    /// The daemon stopped at this time; the data is the store as of then.
    case stopped(at: Timestamp)
    /// A temporary store (`rhr demo`, `rhr FILE...`), made for this run and removed when it ends: no daemon can serve it.
    case temporary
}
