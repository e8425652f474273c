import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// The mouse as update events: what a click or the wheel does where it lands (the same layout the frame is
/// drawn with).
@Suite("Mouse: clicks on days and legend entries, the wheel, focus")
struct MouseTests {
    let last = Fixture.lastDay

    @discardableResult
    func click(_ state: inout DashboardState, _ x: Int, _ y: Int, _ kind: MouseEvent.Kind = .press) -> DashboardEffect? {
        DashboardUpdate.update(&state, .mouse(MouseEvent(kind, x: x, y: y)))
    }

    @Test("A click on a day in the chart (plot or date axis) moves the cursor there and focuses the chart")
    func clickDay() {
        var state = Fixture.state(pressing: .tab)
        // At 80×24 the plot starts at x = 5 with 12 Jan; the cursor is 12 Mar at x = 64.
        click(&state, 5 + 10, 6)
        #expect(state.cursor == last.adding(days: -49) && state.focus == .chart)
        click(&state, 64, 10)
        #expect(state.cursor == last)
        // The blank columns after the last day, the y axis: nothing.
        click(&state, 70, 6)
        click(&state, 2, 6)
        #expect(state.cursor == last)
        // At week zoom a click moves by weeks, keeping the weekday.
        Fixture.press(&state, .character("-"))
        let window = ChartWindow(state)
        click(&state, 5 + window.cell(ofBucket: window.start), 6)
        #expect(state.zoom.bucket(of: state.cursor) == window.start && state.cursor.weekday == last.weekday)
    }

    @Test("A click on a legend entry hides or shows that writer")
    func clickLegend() {
        var state = Fixture.state()
        // " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings" on row 12.
        click(&state, 40, 12)
        #expect(state.hidden == [Fixture.watch.key])
        #expect(Fixture.row(state, 12).contains("2 ◆ Jane’s Apple W… (hidden)"))
        click(&state, 40, 12)
        #expect(state.hidden.isEmpty)
        click(&state, 70, 12)
        #expect(state.hidden == [Fixture.withings.key])
        // Between entries, or on a marker: nothing.
        click(&state, 0, 12)
        click(&state, 10, 13)
        #expect(state.hidden == [Fixture.withings.key])
    }

    @Test("The wheel moves a day (a column) in the chart and the columns, scrolls the detail and the help")
    func wheel() {
        var state = Fixture.state(size: TerminalSize(width: 200, height: 60))
        click(&state, 50, 10, .wheelUp)
        #expect(state.cursor == last.adding(days: -1))
        click(&state, 50, 10, .wheelDown)
        #expect(state.cursor == last)
        let layout = DashboardLayout(state)
        let columns = layout.columns!, detail = layout.detail!
        click(&state, columns.x + 5, columns.y + 5, .wheelUp)
        #expect(state.cursor == last.adding(days: -1))
        click(&state, detail.x + 5, detail.y + 5, .wheelDown)
        #expect(state.detailScroll == min(3, DetailView.maxScroll(state)))
        Fixture.press(&state, .character("?"))
        click(&state, 10, 10, .wheelDown)
        #expect(state.helpScroll == 3)
        click(&state, 10, 10, .wheelUp)
        #expect(state.helpScroll == 0)
    }

    @Test("A click on a day row of the columns moves the cursor there; a click on a pane focuses it")
    func clickPanes() {
        var state = Fixture.state(size: TerminalSize(width: 200, height: 60))
        let lines = Fixture.screen(state)
        let row = Fixture.rowIndex(lines, containing: "Tue 10 Mar 2026")!
        click(&state, 3, row)
        #expect(state.cursor == last.adding(days: -2) && state.focus == .columns)
        let detail = DashboardLayout(state).detail!
        click(&state, detail.x + 3, detail.y + 2)
        #expect(state.focus == .detail && state.cursor == last.adding(days: -2))
        // The header and the footer do nothing.
        click(&state, 3, 0)
        click(&state, 3, 59)
        #expect(state.focus == .detail && state.cursor == last.adding(days: -2))
    }

    @Test("With the mouse off (the config), clicks and the wheel do nothing; under the prompt too")
    func off() {
        var state = Fixture.state()
        state.mouse = false
        click(&state, 15, 6)
        click(&state, 40, 12)
        click(&state, 15, 6, .wheelUp)
        #expect(state.cursor == last && state.hidden.isEmpty)
        state.mouse = true
        Fixture.press(&state, .character("/"))
        click(&state, 15, 6)
        #expect(state.cursor == last && state.overlay == .goTo(""))
    }
}
