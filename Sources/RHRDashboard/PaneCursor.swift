import RHRCore

/// The cursor as every pane is given it: the cursor day, today, whether this pane has the focus, and the days a
/// live update just changed (marked ↻). One place decides these for the chart, the columns and the detail pane.
struct PaneCursor: Equatable {
    var day: LocalDay
    var today: LocalDay
    var focused: Bool
    var changedDays: Set<LocalDay>

    /// A live update just changed the cursor day.
    var dayChanged: Bool { changedDays.contains(day) }
}

extension PaneCursor {
    init(_ state: DashboardState, pane: Focus) {
        self.init(day: state.cursor, today: state.today, focused: state.focus == pane, changedDays: state.changedDays)
    }
}
