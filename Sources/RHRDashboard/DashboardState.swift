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
    /// How far apart the writers read, pair by pair (`v`).
    case comparison
    /// What each writer's number is: the whole derivation registry (`d`, R15).
    case derivations
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
    /// Writers toggled off with 1–9 or a click on the legend.
    public var hidden: Set<WriterKey> = []
    /// Trend aids: the 7-day rolling mean, the usual range of `bandWriter`, min–max whiskers.
    public var showMean = false
    public var showBand = false
    public var showWhiskers = false
    /// The writer the usual range follows; nil: the visible writer with the most days (`bandWriterIndex`).
    public var bandWriter: WriterKey?
    public var focus: Focus = .chart
    public var overlay: Overlay = .none
    public var detailScroll = 0
    public var helpScroll = 0
    /// The comparison's pairs while it is open (`v`): worked out once, not on every key.
    var comparisonPairs: ComparisonView.Pairs?
    /// The first visible writer in the per-source columns when not all fit (they scroll sideways).
    public var columnScroll = 0
    /// The first chart bucket on screen; kept so the chart only scrolls when the cursor leaves it.
    public var windowStart: Int
    /// Whether the mouse is on (the config file can turn it off): a click and the wheel are ignored otherwise.
    public var mouse = true
    /// A one-line message in the footer until the next key.
    public var message: String?
    /// Days live updates changed since the last key, marked until the next one.
    public var changedDays: Set<LocalDay> = []
    /// Whether a daemon feeds the dashboard live.
    public var live: LiveStatus = .off
    /// Files `rhr FILE...` could not import: named in the notes, or, when nothing else is there, in the body.
    public var importFailures: [ImportFailure] = []

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
        self.windowStart = Zoom.day.bucket(of: start)
        self.windowStart = ChartWindow(self, previousStart: nil).start
    }

    /// The view a person chose: what is kept per store between runs.
    public var settings: ViewSettings {
        get {
            ViewSettings(aggregation: aggregation, zoom: zoom, hidden: hidden, showMean: showMean, showBand: showBand,
                         showWhiskers: showWhiskers, bandWriter: bandWriter)
        }
        set {
            aggregation = newValue.aggregation
            zoom = newValue.zoom
            hidden = newValue.hidden
            showMean = newValue.showMean
            showBand = newValue.showBand
            showWhiskers = newValue.showWhiskers
            bandWriter = newValue.bandWriter
            windowStart = ChartWindow(self, previousStart: nil).start
        }
    }

    /// The writer whose usual range the band shows: the chosen one while it is visible, else the visible
    /// writer with the most days (the one a band says most about).
    public var bandWriterIndex: Int? {
        let writers = index.writers
        if let key = bandWriter, let i = writers.firstIndex(where: { $0.key == key }), isVisible(writers[i]) { return i }
        let visible = writers.indices.filter { isVisible(writers[$0]) }
        return visible.max { index.values(writer: $0, aggregation: .latest).count < index.values(writer: $1, aggregation: .latest).count }
    }

    /// Whether writer `w` has a usual range on any day (`UsualRange.exists`): else `b` names none.
    func hasUsualRange(_ w: Int) -> Bool {
        UsualRange.exists(index.values(writer: w, aggregation: aggregation))
    }

    /// The message for the usual range of writer `w`: what `f` does, or why there is none to draw.
    func usualRangeMessage(_ w: Int) -> String {
        let name = Glyphs(unicode: true).shortName(index.writers[w])
        return hasUsualRange(w) ? "Usual range of \(name): f follows another writer."
            : "\(name) has no usual range yet: it needs \(UsualRange.minimumDays) days with a value in \(UsualRange.days)."
    }

    /// More writers in view than the chart draws in full (`ChartView.fullWriters`): the one `bandWriterIndex` names
    /// is drawn in full, the others dimmed; nil when all are drawn in full.
    public var focusedWriterIndex: Int? {
        index.writers.filter(isVisible).count > ChartView.fullWriters ? bandWriterIndex : nil
    }

    /// The range the cursor may move in: the data, and today.
    public var firstNavigableDay: LocalDay { min(index.firstDay ?? today, today) }
    public var lastNavigableDay: LocalDay { max(index.lastDay ?? today, today) }

    public func isVisible(_ writer: Writer) -> Bool { !hidden.contains(writer.key) }

    /// The notes under the header: the files that could not be imported, then the data's own (R9, R10, feeds).
    /// `whole`: each failure's whole message (help has the room), not its one-line form.
    public func notices(whole: Bool = false) -> [String] {
        importFailures.map { whole ? "Not imported: " + $0.message : $0.notice } + index.notices(today: today)
    }

    /// Replaces the data, keeping the cursor, zoom, aggregation and hidden writers.
    mutating func replaceIndex(_ index: DashboardIndex) {
        let hadData = self.index.hasResting
        // On the most recent day, the cursor follows newer data as it arrives (a live day after yesterday's).
        let followsEdge = cursor == self.index.lastRestingDay
        self.index = index
        if followsEdge, let last = index.lastRestingDay, last > cursor { cursor = last }
        // A writer not in the data any more is no longer hidden; while only recent days are read, an older
        // writer may still come.
        if !index.data.isPartial {
            let known = Set(index.writers.map(\.key))
            hidden = hidden.filter { known.contains($0) }
        }
        if !hadData, let last = index.lastRestingDay {
            cursor = last
        }
        if showContext && index.contextWriters.isEmpty { showContext = false }
        cursor = min(max(cursor, firstNavigableDay), lastNavigableDay)
        windowStart = ChartWindow(self).start
        if overlay == .comparison { comparisonPairs = ComparisonView.pairs(index, aggregation: aggregation) }
    }
}
