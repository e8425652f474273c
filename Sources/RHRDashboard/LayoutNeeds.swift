import RHRCore
import RHRScreen

// What each pane needs, measured from the state: the one way to the layout, asked by the renderer for a frame and
// by the keys and the mouse for the frame they act on, so the two never disagree.

extension DashboardLayout {
    /// The layout for `state` on a screen of `size` (the state's own size when nil).
    init(_ state: DashboardState, size: TerminalSize? = nil, noticeCount: Int? = nil) {
        let size = size ?? state.size
        let glyphs = Glyphs(state.capabilities)
        let index = state.index
        var needs = Needs(content: state.content, noticeCount: noticeCount ?? state.notices().count,
                          hasMessage: state.message != nil && state.overlay == .none, focus: state.focus,
                          columnScroll: state.columnScroll)
        if needs.content != .words {
            // Measured as if every writer were shown, so hiding one or following another never moves the chart;
            // the markers' short forms are what the legend needs, their long forms are worth a row more if free.
            // The long forms' row is given only where they need it whichever writer is followed (the shortest name),
            // so it is never left blank for a shorter one.
            let writers = ChartLegend.writers(state, glyphs: glyphs).map { writer in
                ChartLegend.Writer(store: writer.store, name: writer.name, visible: true, slot: writer.slot)
            }
            func rows(short: Bool, widest: Bool) -> (rows: Int, writerRows: Int) {
                let marks = ChartView.potentialMarks(state, followedByWidest: widest, glyphs: glyphs)
                return ChartLegend.rowsNeeded(writers: writers, markers: ChartView.markers(marks, glyphs: glyphs, short: short),
                                              width: size.width, glyphs: glyphs)
            }
            let short = rows(short: true, widest: true)
            needs.legendRows = short.rows
            needs.legendRowsLong = min(rows(short: false, widest: false).rows, short.rows + 1)
            needs.legendWriterRows = short.writerRows
        }
        if needs.content == .dashboard {
            needs.columnWidths = ColumnsView.headingWidths(ColumnsView.Model(state), limit: size.width, glyphs: glyphs)
            needs.days = state.firstNavigableDay.distance(to: index.lastDay ?? state.firstNavigableDay) + 1
        }
        let detail = DetailView.Model(state)
        self.init(size: size, needs: needs) { DetailView.width(detail, limit: $0, glyphs: glyphs) }
    }
}

extension DashboardState {
    /// What the body shows: the dashboard with resting values; with none, the sedentary minimum when `c` asked
    /// for it and there is one, else the words of R9.
    var content: DashboardLayout.Content {
        if case .resting = index.diagnosis, index.hasResting { return .dashboard }
        if case .noRestingWriter = index.diagnosis, showContext, !index.contextWriters.isEmpty { return .sedentaryChart }
        return .words
    }
}

extension ChartView {
    /// The marks that may come into view as the chart scrolls, or as writers are hidden and followed, so the legend's
    /// rows do not change with them: those the state turns on, the provisional and out-of-range values the store
    /// holds anywhere, and a writer in full wherever there are more than `fullWriters`.
    static func potentialMarks(_ state: DashboardState, followedByWidest widest: Bool = true, glyphs: Glyphs) -> Marks {
        let writers = ChartLegend.writers(state, glyphs: glyphs)
        let index = state.index
        var marks = Marks(provisional: index.provisionalWriters.prefix(3).map { index.slots[$0] }, outOfRange: index.hasOutOfRange,
                          changed: !state.changedDays.isEmpty, mean: state.showMean,
                          whiskers: state.showWhiskers && state.zoom != .day,
                          context: state.showContext && !index.contextWriters.isEmpty,
                          contextWriterNames: index.contextWriters.map(glyphs.shortName),
                          shadedBand: state.capabilities.shadedBand)
        // Whichever writer `f` follows: the one with the widest name (or the narrowest) stands for them all.
        if writers.count > fullWriters {
            let narrower = { (a: ChartLegend.Writer, b: ChartLegend.Writer) in DisplayWidth.of(a.name) < DisplayWidth.of(b.name) }
            marks.focused = widest ? writers.max(by: narrower) : writers.min(by: narrower)
        }
        // The band as it is where it has begun: before that its marker says "not yet", and is cut if it must be.
        if state.showBand, let w = state.bandWriterIndex { marks.band = (writers[w].name, writers[w].slot, false) }
        return marks
    }
}
