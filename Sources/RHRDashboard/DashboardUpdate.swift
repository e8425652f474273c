import RHRCore
import RHRScreen

/// The dashboard's only way to change: an event in, the new state and maybe an effect for the run loop out.
/// Pure: no I/O, no clock; the run loop passes time in as `.tick` and data as `.dataLoaded`.
public enum DashboardUpdate {
    @discardableResult
    public static func update(_ state: inout DashboardState, _ event: DashboardEvent) -> DashboardEffect? {
        switch event {
        case .key(let key):
            state.message = nil
            state.changedDays = []
            return handle(key, &state)
        case .resize(let size):
            // The chart keeps its right edge: wider shows more history, narrower less, and a pass through the
            // too-small screen (a window one bucket wide) does not leave the cursor at the left of empty days.
            let end = ChartWindow(state).end
            state.size = size
            let buckets = ChartWindow(state, previousStart: nil).buckets
            state.windowStart = ChartWindow(state, previousStart: end - buckets + 1).start
            return nil
        case .tick(let today):
            state.today = today
            state.windowStart = ChartWindow(state).start
            return nil
        case .mouse(let event):
            guard state.mouse else { return nil }
            state.message = nil
            state.changedDays = []
            return DashboardMouse.handle(event, &state)
        case .dataLoaded(let index, let reason):
            state.replaceIndex(index)
            switch reason {
            case .reload:
                state.changedDays = []
                state.message = "Reloaded: store revision \(index.revision)."
            case .storeChanged(let changedDays, _):
                // Marks add up until a key: what changed since the person last looked.
                state.changedDays.formUnion(changedDays)
                let days = changedDays.sorted().prefix(3).map(\.shortText).joined(separator: ", ")
                state.message = changedDays.isEmpty ? "Updated: store revision \(index.revision)."
                    : "Updated: \(days)\(changedDays.count > 3 ? " and \(changedDays.count - 3) more" : "")."
            case .history:
                break
            }
            return nil
        case .loadFailed(let message):
            state.message = "Could not read the store: \(message)"
            return nil
        case .storeChanged(let revision, let days):
            return revision > state.index.revision ? .load(.storeChanged(days, revision: revision)) : nil
        case .liveFeedStarted(let revision, let socket):
            let resumed: Bool
            if case .stopped = state.live { resumed = true } else { resumed = false }
            state.live = .connected(socket: socket)
            if resumed { state.message = "The daemon is back: live again." }
            // What changed while nobody was listening is not known: read everything.
            return revision > state.index.revision ? .load(.storeChanged([], revision: revision)) : nil
        case .liveFeedEnded(let at):
            state.live = .stopped(at: at)
            state.message = "The daemon stopped: no more live updates. Showing the store \(AsOfWording.words) "
                + "\(DayText.recent(at, today: state.today)); r reads it again."
            return nil
        case .liveFeedNote(let note):
            state.message = note
            return nil
        }
    }

    static func handle(_ key: Key, _ state: inout DashboardState) -> DashboardEffect? {
        switch state.overlay {
        case .goTo(let text):
            return handlePrompt(key, text, &state)
        case .help:
            return handleHelp(key, &state)
        case .comparison:
            return handleComparison(key, &state)
        case .derivations:
            return handleDerivations(key, &state)
        case .none:
            break
        }
        guard let action = KeyTable.action(for: key) else { return nil }
        switch action {
        case .quit:
            return .quit
        case .earlier:
            step(buckets: -1, &state)
        case .later:
            step(buckets: 1, &state)
        case .up:
            if state.focus == .detail { state.detailScroll = max(0, state.detailScroll - 1) } else { move(days: -1, &state) }
        case .down:
            if state.focus == .detail {
                state.detailScroll = min(state.detailScroll + 1, DetailView.maxScroll(state))
            } else {
                move(days: 1, &state)
            }
        case .pageEarlier, .pageLater:
            let sign = action == .pageEarlier ? -1 : 1
            switch state.focus {
            case .detail:
                state.detailScroll = min(max(0, state.detailScroll + sign * max(1, pageRows(state))),
                                         DetailView.maxScroll(state))
            case .columns:
                move(days: sign * max(1, pageRows(state)), &state)
            case .chart:
                page(sign, &state)
            }
        case .first:
            moveTo(state.index.firstRestingDay ?? state.firstNavigableDay, &state)
        case .last:
            moveTo(state.index.lastRestingDay ?? state.index.lastDay ?? state.lastNavigableDay, &state)
        case .today:
            moveTo(state.today, &state)
        case .zoomIn, .zoomOut:
            let zoom = action == .zoomIn ? state.zoom.zoomedIn : state.zoom.zoomedOut
            if zoom == state.zoom {
                state.message = action == .zoomIn ? "Already at day zoom: one point per day."
                    : "Already at month zoom: one point per month."
            } else {
                state.zoom = zoom
                recentre(&state)
            }
        case .aggregation:
            state.aggregation = state.aggregation.next
        case .context:
            if state.index.contextWriters.isEmpty {
                state.message = "No sedentary heart-rate samples to show: no HealthKit heart rate with a motion context."
            } else {
                state.showContext.toggle()
                state.windowStart = ChartWindow(state).start
            }
        case .mean:
            state.showMean.toggle()
        case .band:
            state.showBand.toggle()
            if state.showBand, let w = state.bandWriterIndex { state.message = state.usualRangeMessage(w) }
        case .bandWriter:
            nextBandWriter(&state)
        case .whiskers:
            state.showWhiskers.toggle()
            if state.showWhiskers && state.zoom == .day {
                state.message = "Whiskers show at week and month zoom (-): each point's lowest and highest day."
            }
        case .comparison:
            state.overlay = .comparison
            state.comparisonPairs = ComparisonView.pairs(state.index, aggregation: state.aggregation)
            state.helpScroll = 0
        case .derivations:
            openDerivations(&state)
        case .columnsLeft, .columnsRight:
            scrollColumns(action == .columnsLeft ? -1 : 1, &state)
        case .toggleWriter:
            guard case .character(let c) = key, let n = c.wholeNumberValue else { return nil }
            guard let writer = state.index.writer(number: n) else {
                state.message = state.index.writers.isEmpty ? "No resting writers."
                    : "There is no writer \(n); the legend numbers the writers."
                return nil
            }
            toggle(writer.key, &state)
        case .focusNext:
            state.focus = state.focus.next
            state.detailScroll = 0
        case .focusPrevious:
            state.focus = state.focus.previous
            state.detailScroll = 0
        case .goToDate:
            state.overlay = .goTo("")
        case .reload:
            state.message = "Reading the store…"
            return .load(.reload)
        case .help:
            state.overlay = .help
            state.helpScroll = 0
        case .close:
            break
        }
        return nil
    }

    /// Help and the comparison: arrows and pages scroll, `q` closes (Ctrl-C and F10 still quit); `d` turns to the
    /// derivations page.
    static func handleHelp(_ key: Key, _ state: inout DashboardState) -> DashboardEffect? {
        if KeyTable.action(for: key) == .derivations { return openDerivations(&state) }
        return scrollOverlay(key, &state, maxScroll: { HelpView.maxScroll($0) }, closers: [.help])
    }

    static func handleComparison(_ key: Key, _ state: inout DashboardState) -> DashboardEffect? {
        if KeyTable.action(for: key) == .derivations { return openDerivations(&state) }
        return scrollOverlay(key, &state, maxScroll: { ComparisonView.maxScroll($0) }, closers: [.comparison])
    }

    static func handleDerivations(_ key: Key, _ state: inout DashboardState) -> DashboardEffect? {
        scrollOverlay(key, &state, maxScroll: { DerivationsView.maxScroll($0) }, closers: [.derivations])
    }

    @discardableResult
    static func openDerivations(_ state: inout DashboardState) -> DashboardEffect? {
        state.overlay = .derivations
        state.helpScroll = 0
        return nil
    }

    /// `maxScroll` lays out every line of the overlay: it is worked out only for the keys that scroll down.
    static func scrollOverlay(_ key: Key, _ state: inout DashboardState, maxScroll: (DashboardState) -> Int,
                              closers: Set<DashboardAction>) -> DashboardEffect? {
        let action = KeyTable.action(for: key)
        if action == .quit && key != .character("q") { return .quit }
        if action == .quit || action == .close || action.map(closers.contains) == true {
            state.overlay = .none
            return nil
        }
        switch action {
        case .up: state.helpScroll = max(0, state.helpScroll - 1)
        case .down: state.helpScroll = min(state.helpScroll + 1, maxScroll(state))
        case .pageEarlier: state.helpScroll = max(0, state.helpScroll - max(1, state.size.height - 4))
        case .pageLater: state.helpScroll = min(state.helpScroll + max(1, state.size.height - 4), maxScroll(state))
        case .first: state.helpScroll = 0
        case .last: state.helpScroll = maxScroll(state)
        default: break
        }
        return nil
    }

    static func handlePrompt(_ key: Key, _ text: String, _ state: inout DashboardState) -> DashboardEffect? {
        switch key {
        case .control("c"):
            return .quit
        case .escape:
            state.overlay = .none
        case .backspace, .delete:
            state.overlay = .goTo(String(text.dropLast()))
        case .enter:
            state.overlay = .none
            guard let day = DateInput.parse(text, cursorYear: state.cursor.year) else {
                state.message = text.isEmpty ? nil
                    : "“\(text)” is not a date; try 2026-03-12, 2026-03, 2026 or 12 Mar 2026."
                return nil
            }
            moveTo(day, &state)
            centre(&state)
            // Said whenever the day had to be clamped, so a jump is never silent.
            if day < state.firstNavigableDay {
                state.message = "\(day.mediumText) is before the first day with data; showing \(state.cursor.mediumText), the first."
            } else if day > state.lastNavigableDay {
                state.message = "\(day.mediumText) is after the last day (today or the last with data); "
                    + "showing \(state.cursor.mediumText)."
            }
        case .character(let c) where DateInput.accepts(c) && text.count < DateInput.maxLength:
            state.overlay = .goTo(text + String(c))
        default:
            break
        }
        return nil
    }

    /// Moves by whole chart columns: a day, a week or a month.
    static func step(buckets: Int, _ state: inout DashboardState) {
        switch state.zoom {
        case .day:
            move(days: buckets, &state)
        case .week:
            move(days: 7 * buckets, &state)
        case .month:
            // The same day of the month `buckets` months on, or that month's last.
            let c = state.cursor
            let first = Zoom.month.firstDay(ofBucket: Zoom.month.bucket(of: c) + buckets)
            let day = min(c.day, LocalDay.daysIn(month: first.month, year: first.year))
            guard let target = LocalDay(year: first.year, month: first.month, day: day) else { return }
            moveTo(target, &state)
        }
    }

    static func move(days: Int, _ state: inout DashboardState) {
        moveTo(state.cursor.adding(days: days), &state)
    }

    static func moveTo(_ day: LocalDay, _ state: inout DashboardState) {
        state.cursor = min(max(day, state.firstNavigableDay), state.lastNavigableDay)
        state.detailScroll = 0
        state.windowStart = ChartWindow(state).start
    }

    /// PgUp/PgDn in the chart: the window and the cursor move by one screen of buckets together, so the
    /// cursor keeps its place on screen (at the ends, the cursor goes on to the first or last day).
    static func page(_ sign: Int, _ state: inout DashboardState) {
        let window = ChartWindow(state)
        let before = state.cursor
        step(buckets: sign * window.buckets, &state)
        let moved = state.zoom.bucket(of: state.cursor) - state.zoom.bucket(of: before)
        state.windowStart = ChartWindow(state, previousStart: window.start + moved).start
    }

    /// After a zoom: the cursor a quarter of the width from the right edge (as far as the ends allow).
    static func recentre(_ state: inout DashboardState) {
        let probe = ChartWindow(state, previousStart: nil)
        let c = state.zoom.bucket(of: state.cursor)
        state.windowStart = ChartWindow(state, previousStart: c + probe.buckets / 4 - probe.buckets + 1).start
    }

    /// After `/`: the cursor in the middle of the chart, the days before it in view (as far as the ends allow).
    static func centre(_ state: inout DashboardState) {
        let probe = ChartWindow(state, previousStart: nil)
        let c = state.zoom.bucket(of: state.cursor)
        state.windowStart = ChartWindow(state, previousStart: c - probe.buckets / 2).start
    }

    /// Shows or hides a writer.
    static func toggle(_ writer: WriterKey, _ state: inout DashboardState) {
        if state.hidden.contains(writer) { state.hidden.remove(writer) } else { state.hidden.insert(writer) }
    }

    /// The next visible writer is followed: drawn in full when the chart is crowded (the others dimmed), else its
    /// usual range is shown (turned on).
    static func nextBandWriter(_ state: inout DashboardState) {
        let writers = state.index.writers
        let visible = writers.indices.filter { state.isVisible(writers[$0]) }
        guard !visible.isEmpty else {
            state.message = "No visible writer for the usual range."
            return
        }
        let current = state.bandWriterIndex
        let next = visible.first { $0 > (current ?? -1) } ?? visible[0]
        state.bandWriter = writers[next].key
        let name = Glyphs(unicode: true).shortName(writers[next])
        if state.focusedWriterIndex != nil {
            let band = !state.showBand ? "" : state.hasUsualRange(next) ? ", with its usual range" : "; it has no usual range yet"
            state.message = "\(name) in full, the others dimmed\(band)."
        } else {
            state.showBand = true
            state.message = state.hasUsualRange(next) ? "Usual range of \(name)." : state.usualRangeMessage(next)
        }
    }

    /// Scrolls the per-source columns sideways by one writer.
    static func scrollColumns(_ by: Int, _ state: inout DashboardState) {
        let layout = DashboardLayout(state)
        let limit = ColumnsView.maxScroll(needs: layout.needs.columnWidths, width: layout.columns?.width ?? state.size.width)
        if limit == 0 {
            state.message = "Every writer's column is in view."
            return
        }
        state.columnScroll = min(max(0, state.columnScroll + by), limit)
    }

    /// Rows a page moves in the columns and detail panes.
    static func pageRows(_ state: DashboardState) -> Int {
        let layout = DashboardLayout(state)
        let pane = state.focus == .detail ? layout.detail : layout.columns
        return max(1, (pane?.height ?? 6) - 4)
    }
}
