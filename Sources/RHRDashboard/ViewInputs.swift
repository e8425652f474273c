import RHRCore

// Each view's input, cut from the state: a view draws its own slice into its own rectangle and never sees the
// whole state or the whole layout.

extension HeaderView.Model {
    init(_ state: DashboardState) {
        let index = state.index
        var restingDays: (first: LocalDay, last: LocalDay)?
        if let first = index.firstRestingDay, let last = index.lastRestingDay { restingDays = (first, last) }
        self.init(aggregation: index.hasResting ? state.aggregation : nil,
                  restingDays: restingDays,
                  isPartial: index.data.isPartial,
                  stores: index.stores,
                  asOf: Dictionary(index.storeAsOf.map { ($0.store, $0.asOf) }, uniquingKeysWith: max),
                  source: index.data.source,
                  today: state.today,
                  live: state.live,
                  aids: HeaderView.aids(state),
                  passedOver: index.data.passedOver)
    }
}

extension HeaderView {
    /// The trend aids that are on, named as the header shows them.
    static func aids(_ state: DashboardState) -> [(long: String, short: String)] {
        guard state.index.hasResting else { return [] }
        var aids: [(long: String, short: String)] = []
        if state.showMean { aids.append(("7-day mean", "mean")) }
        // Named only where there is a band to draw: a writer with too few days has none anywhere.
        if state.showBand, let w = state.bandWriterIndex, state.hasUsualRange(w) {
            let name = Glyphs(state.capabilities).shortName(state.index.writers[w])
            aids.append(("usual range of \(name)", "range"))
        }
        if state.showWhiskers { aids.append(("whiskers", "whiskers")) }
        return aids
    }
}

extension ChartView.Model {
    /// The series are computed here, for the window at `plotWidth`, before the chart draws anything.
    init(_ state: DashboardState, plotWidth: Int, glyphs: Glyphs) {
        let index = state.index
        let window = ChartWindow(state, width: plotWidth, previousStart: state.windowStart)
        let options = ChartSeries.Options(aggregation: state.aggregation, hidden: state.hidden,
                                          showContext: state.showContext, changedDays: state.changedDays,
                                          showMean: state.showMean, showWhiskers: state.showWhiskers,
                                          bandWriter: state.showBand ? state.bandWriterIndex : nil)
        let series = index.lastChart.series(.init(window: window, options: options)) {
            ChartSeries(index, window: window, options: options)
        }
        self.init(series: series,
                  window: window,
                  cursor: PaneCursor(state, pane: .chart),
                  writers: ChartLegend.writers(state, glyphs: glyphs),
                  contextWriterNames: index.contextWriters.map(glyphs.shortName),
                  allHidden: index.hasResting && index.writers.allSatisfy { !state.isVisible($0) },
                  shadedBand: state.capabilities.shadedBand,
                  focused: state.focusedWriterIndex,
                  sedentaryOnly: state.content == .sedentaryChart)
    }
}

extension ChartLegend {
    /// Every writer as the legend shows it.
    static func writers(_ state: DashboardState, glyphs: Glyphs) -> [Writer] {
        let focused = state.focusedWriterIndex
        return zip(state.index.writers, state.index.slots).enumerated().map { i, writer in
            let (w, slot) = writer
            let derivation = state.index.facts.indices.contains(i) ? glyphs.text(state.index.facts[i].derivation.short) : ""
            return Writer(store: w.store, name: glyphs.shortName(w), visible: state.isVisible(w), slot: slot,
                          emphasis: focused == nil ? .plain : focused == i ? .focused : .dimmed, derivation: derivation)
        }
    }
}

extension ColumnsView.Model {
    init(_ state: DashboardState) {
        let index = state.index
        self.init(index: index,
                  visible: index.writers.indices.filter { state.isVisible(index.writers[$0]) },
                  aggregation: state.aggregation,
                  cursor: PaneCursor(state, pane: .columns),
                  firstDay: state.firstNavigableDay,
                  lastDay: max(index.lastDay ?? state.cursor, state.cursor),
                  scroll: state.columnScroll)
    }
}

extension DetailView.Model {
    init(_ state: DashboardState) {
        self.init(index: state.index, cursor: PaneCursor(state, pane: .detail), aggregation: state.aggregation,
                  scroll: state.detailScroll, focusedWriter: state.bandWriterIndex)
    }
}

extension DetailView {
    /// How far the pane can scroll at the state's size.
    static func maxScroll(_ state: DashboardState) -> Int {
        guard let rect = DashboardLayout(state).detail else { return 0 }
        return maxScroll(Model(state), in: rect, glyphs: Glyphs(state.capabilities))
    }
}

extension FooterView.Model {
    init(_ state: DashboardState) {
        var prompt: String?
        if case .goTo(let text) = state.overlay { prompt = text }
        self.init(prompt: prompt, keys: FooterView.keys(state.content, hasContext: !state.index.contextWriters.isEmpty))
    }
}

extension HelpView.Model {
    init(_ state: DashboardState, notices: [String]) {
        let index = state.index
        self.init(writerCount: index.writers.count, source: index.data.source, revision: index.revision,
                  live: state.live, today: state.today, storeAsOf: index.storeAsOf, notices: notices,
                  scroll: state.helpScroll)
    }
}

extension HelpView {
    /// How far the help can scroll at the state's size.
    static func maxScroll(_ state: DashboardState) -> Int {
        let model = Model(state, notices: state.notices(whole: true))
        return maxScroll(model, size: state.size, glyphs: Glyphs(state.capabilities))
    }
}

extension EmptyStateView.Model {
    init(_ state: DashboardState, notices: [String]) {
        // With nothing there, the failures are the body, not notes above it.
        let nothing = state.index.diagnosis == .noData && !state.importFailures.isEmpty
        self.init(diagnosis: state.index.diagnosis, notices: nothing ? state.index.notices(today: state.today) : notices,
                  thisYear: state.today.year, zone: state.index.data.machineZone,
                  importFailures: nothing ? state.importFailures : [],
                  hasContext: !state.index.contextWriters.isEmpty, streams: state.index.data.streams)
    }
}

extension ComparisonView.Model {
    init(_ state: DashboardState) {
        self.init(index: state.index, aggregation: state.aggregation,
                  pairs: state.comparisonPairs ?? ComparisonView.pairs(state.index, aggregation: state.aggregation),
                  scroll: state.helpScroll)
    }
}

extension ComparisonView {
    /// How far the comparison can scroll at the state's size.
    static func maxScroll(_ state: DashboardState) -> Int {
        maxScroll(Model(state), size: state.size, glyphs: Glyphs(state.capabilities))
    }
}

extension DerivationsView {
    /// How far the derivations page can scroll at the state's size.
    static func maxScroll(_ state: DashboardState) -> Int {
        maxScroll(Model(index: state.index, scroll: state.helpScroll), size: state.size,
                  glyphs: Glyphs(state.capabilities))
    }
}
