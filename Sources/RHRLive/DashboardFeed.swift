import RHRDashboard

/// A source of store-change events, e.g. a daemon subscription: the run loop watches its file descriptor and
/// asks it for events when it becomes readable.
@MainActor
public protocol DashboardFeed: AnyObject {
    /// The descriptor to watch; nil while there is none (not connected, or the connection ended). Never a
    /// closed one: the loop would spin on it.
    var fileDescriptor: Int32? { get }
    /// Events known before the first frame (connected already: `.liveFeedStarted`).
    func start() -> [DashboardEvent]
    /// Reads what arrived: `.storeChanged(revision:days:)`, `.liveFeedEnded` when the connection closed.
    func receive() -> [DashboardEvent]
    /// How often, in milliseconds, the feed wants `idle()` called (e.g. to look for a daemon that started
    /// later); nil: never.
    var idleInterval: Int32? { get }
    /// Called about every `idleInterval`; returns what that brought (`.liveFeedStarted`).
    func idle() -> [DashboardEvent]
}

extension DashboardFeed {
    public func start() -> [DashboardEvent] { [] }
    public var idleInterval: Int32? { nil }
    public func idle() -> [DashboardEvent] { [] }
}
