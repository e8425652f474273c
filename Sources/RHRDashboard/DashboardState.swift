import RHRCore
import RHRScreen

/// Which pane the vertical keys and Tab act on.
public enum Focus: Int, Sendable, Hashable, CaseIterable {
    case chart
    case columns
    case detail

    public var words: String {
        switch self {
        case .chart: return "chart"
        case .columns: return "per-source columns"
        case .detail: return "detail"
        }
    }

    var next: Focus { Focus(rawValue: (rawValue + 1) % 3)! }
    var previous: Focus { Focus(rawValue: (rawValue + 2) % 3)! }
}

/// What is drawn over the dashboard.
public enum Overlay: Sendable, Hashable {
    case none
    case help
    /// The `/` prompt with what was typed so far.
    case goTo(String)
}

/// The whole state of the dashboard: the data, where the cursor is, and how it is looked at.
public struct DashboardState: Sendable {
    public private(set) var index: DashboardIndex
    public var size: TerminalSize
    public var capabilities: TerminalCapabilities
    /// The machine's local day: `t` goes there, and the chart reaches to it.
    public var today: LocalDay
    /// The selected day.
    public var cursor: LocalDay
    public var zoom: Zoom = .day
    public var aggregation: Aggregation = .latest
    /// Show the sedentary minimum (R8) as a context series.
    public var showContext = false
    /// Writers toggled off with 1–9.
    public var hidden: Set<WriterKey> = []
    public var focus: Focus = .chart
    public var overlay: Overlay = .none
    public var detailScroll = 0
    public var helpScroll = 0
    /// The last chart bucket on screen; kept so the chart only scrolls when the cursor leaves it.
    public var windowEnd: Int
    /// A one-line message in the footer until the next key.
    public var message: String?
    /// Days live updates changed since the last key, marked until the next one.
    public var changedDays: Set<LocalDay> = []
    /// Whether a daemon feeds the dashboard live.
    public var live: LiveStatus = .off

    public init(data: DashboardData, size: TerminalSize, today: LocalDay,
                capabilities: TerminalCapabilities = .full) {
        self.init(index: DashboardIndex(data), size: size, today: today, capabilities: capabilities)
    }

    public init(index: DashboardIndex, size: TerminalSize, today: LocalDay,
                capabilities: TerminalCapabilities = .full) {
        self.index = index
        self.size = size
        self.capabilities = capabilities
        self.today = today
        // Open on the most recent day with data, not on today when the data ends earlier.
        let start = index.lastRestingDay ?? index.lastDay ?? today
        self.cursor = start
        self.windowEnd = Zoom.day.bucket(of: start)
        self.windowEnd = ChartWindow(self).end
    }

    /// The range the cursor may move in: the data, and today.
    public var firstNavigableDay: LocalDay { min(index.firstDay ?? today, today) }
    public var lastNavigableDay: LocalDay { max(index.lastDay ?? today, today) }

    public func isVisible(_ writer: Writer) -> Bool { !hidden.contains(writer.key) }

    /// Replaces the data, keeping the cursor, zoom, aggregation and hidden writers.
    mutating func replaceIndex(_ index: DashboardIndex) {
        let hadData = self.index.hasResting
        // On the most recent day, the cursor follows newer data as it arrives (a live day after yesterday's).
        let followsEdge = cursor == self.index.lastRestingDay
        self.index = index
        if followsEdge, let last = index.lastRestingDay, last > cursor { cursor = last }
        let known = Set(index.writers.map(\.key))
        hidden = hidden.filter { known.contains($0) }
        if !hadData, let last = index.lastRestingDay {
            cursor = last
        }
        if showContext && index.contextWriters.isEmpty { showContext = false }
        cursor = min(max(cursor, firstNavigableDay), lastNavigableDay)
        windowEnd = ChartWindow(self).end
    }
}
