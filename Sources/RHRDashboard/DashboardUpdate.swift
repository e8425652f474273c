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
            state.size = size
            state.windowEnd = ChartWindow(state).end
            return nil
        case .tick(let today):
            state.today = today
            state.windowEnd = ChartWindow(state).end
            return nil
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
            state.message = "The daemon stopped: no more live updates. Showing the store as of "
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
                step(buckets: sign * ChartWindow(state).buckets, &state)
            }
        case .first:
            moveTo(state.index.firstRestingDay ?? state.firstNavigableDay, &state)
        case .last:
            moveTo(state.index.lastRestingDay ?? state.lastNavigableDay, &state)
        case .today:
            moveTo(state.today, &state)
        case .zoomIn, .zoomOut:
            let zoom = action == .zoomIn ? state.zoom.zoomedIn : state.zoom.zoomedOut
            if zoom == state.zoom {
                state.message = action == .zoomIn ? "Already at day zoom: one column per day."
                    : "Already at month zoom: one column per month."
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
                state.windowEnd = ChartWindow(state).end
            }
        case .toggleWriter:
            guard case .character(let c) = key, let n = c.wholeNumberValue else { return nil }
            guard let writer = state.index.writer(number: n) else {
                state.message = state.index.writers.isEmpty ? "No resting writers."
                    : "There is no writer \(n); writers are numbered 1–\(min(9, state.index.writers.count)) in the legend."
                return nil
            }
            if state.hidden.contains(writer.key) { state.hidden.remove(writer.key) } else { state.hidden.insert(writer.key) }
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

    static func handleHelp(_ key: Key, _ state: inout DashboardState) -> DashboardEffect? {
        switch KeyTable.action(for: key) {
        case .quit: return .quit
        case .close, .help: state.overlay = .none
        case .up: state.helpScroll = max(0, state.helpScroll - 1)
        case .down: state.helpScroll = min(state.helpScroll + 1, HelpView.maxScroll(state))
        case .pageEarlier: state.helpScroll = max(0, state.helpScroll - max(1, state.size.height - 4))
        case .pageLater: state.helpScroll = min(state.helpScroll + max(1, state.size.height - 4), HelpView.maxScroll(state))
        case .first: state.helpScroll = 0
        case .last: state.helpScroll = HelpView.maxScroll(state)
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
            if day < state.firstNavigableDay {
                state.message = "\(day.mediumText) is before the first day with data; showing \(state.cursor.mediumText)."
            } else if day > state.lastNavigableDay {
                state.message = "\(day.mediumText) is after today; showing \(state.cursor.mediumText)."
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
            let c = state.cursor
            var month = c.year * 12 + c.month - 1 + buckets
            month = max(month, 0)
            let year = month / 12, m = month % 12 + 1
            let day = min(c.day, LocalDay.daysIn(month: m, year: year))
            moveTo(LocalDay(year: year, month: m, day: day)!, &state)
        }
    }

    static func move(days: Int, _ state: inout DashboardState) {
        moveTo(state.cursor.adding(days: days), &state)
    }

    static func moveTo(_ day: LocalDay, _ state: inout DashboardState) {
        state.cursor = min(max(day, state.firstNavigableDay), state.lastNavigableDay)
        state.detailScroll = 0
        state.windowEnd = ChartWindow(state).end
    }

    /// After a zoom: the cursor a quarter of the width from the right edge, or at the end of the data.
    static func recentre(_ state: inout DashboardState) {
        let window = ChartWindow(state)
        let c = state.zoom.bucket(of: state.cursor)
        let last = max(state.index.lastDay ?? state.cursor, state.cursor)
        state.windowEnd = min(c + window.buckets / 4, state.zoom.bucket(of: last))
        state.windowEnd = ChartWindow(state).end
    }

    /// Rows a page moves in the columns and detail panes.
    static func pageRows(_ state: DashboardState) -> Int {
        let layout = DashboardLayout(state)
        let pane = state.focus == .detail ? layout.detail : layout.columns
        return max(1, (pane?.height ?? 6) - 4)
    }
}
