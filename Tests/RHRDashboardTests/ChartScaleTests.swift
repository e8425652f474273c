import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// The chart's meanings stay put: the bpm scale is fixed for the store's data at a zoom, not for the days
/// on screen, and `/` puts the day it goes to in the middle of the chart, with days before it in view.
@Suite("Render: a bpm scale that stays put, and / centring its day")
struct ChartScaleTests {
    /// A year to 12 Mar 2026 of one watch between 55 and 60, with 79 bpm on 1 Jun 2025 and 52 on 10 Mar 2026.
    static func year() -> DashboardData {
        var data = Fixture.standard(days: 0)
        for i in 0..<365 {
            let day = Fixture.lastDay.adding(days: i - 364)
            var bpm = Fixture.wave(i, base: 57.5, amplitude: 2, period: 17)
            if day == LocalDay("2025-06-01")! { bpm = 79 }
            if day == LocalDay("2026-03-10")! { bpm = 52 }
            data.samples.append(Fixture.healthKit(Fixture.watch, day, bpm))
        }
        return data
    }

    /// The bpm axis labels, top to bottom.
    static func axis(_ state: DashboardState) -> [Double] {
        let buffer = Fixture.render(state)
        let layout = DashboardLayout(state).chart
        return (layout.yAxis.y..<layout.yAxis.maxY).compactMap { Double(buffer.line($0).prefix(3).trimmingCharacters(in: .whitespaces)) }
    }

    /// The year at 100×30, after `keys`.
    static func onScreen(pressing keys: Key...) -> DashboardState {
        var state = Fixture.state(year(), size: TerminalSize(width: 100, height: 30))
        for key in keys { Fixture.press(&state, key) }
        return state
    }

    @Test("day zoom: 52 and 79 from one store on one scale wherever the window is, the same scale as the window moves")
    func scaleFixedAtDayZoom() {
        var state = Self.onScreen()
        // The last weeks in view (1 column a day): 52 is there, 79 months earlier is not.
        #expect(ChartWindow(state).firstDay == LocalDay("2025-12-09")!)
        let recent = Self.axis(state)
        // The scale reaches from below 52 to above 79 (labels every 10).
        #expect(recent == [80, 70, 60], "axis \(recent)")
        Fixture.press(&state, .pageUp, .pageUp)
        #expect(Self.axis(state) == recent)
        Fixture.press(&state, .character("g"))
        #expect(Self.axis(state) == recent)
    }

    @Test("at week zoom the scale is the weeks' own, also fixed: narrower than the days' (a week is a median)")
    func scaleFixedAtWeekZoom() {
        var state = Self.onScreen(pressing: .character("-"))
        let weeks = Self.axis(state)
        #expect(weeks == [60, 58, 56], "axis \(weeks)")
        Fixture.press(&state, .character("g"))
        #expect(Self.axis(state) == weeks)
    }

    @Test("/ 2025-10-01: the day in the middle of the chart, the days before it in view")
    func goToCentres() {
        var state = Self.onScreen(pressing: .character("/"))
        for key in Fixture.typing("2025-10-01") + [.enter] { Fixture.press(&state, key) }
        let window = ChartWindow(state)
        #expect(state.cursor == LocalDay("2025-10-01")!)
        let cell = window.pointCell(ofBucket: window.zoom.bucket(of: state.cursor))
        #expect(cell == window.usedWidth / 2, "cursor at \(cell) of \(window.usedWidth)")
        #expect(window.firstDay == LocalDay("2025-08-15")!)
    }
}

/// The chart drawn again from its last series (`ChartSeriesMemo`) is the chart worked out anew, whatever the keys:
/// a key that moves the window or changes what is shown never draws the series of before.
@Suite("Render: the chart's last series, drawn again")
struct ChartSeriesMemoTests {
    @Test func everyFrameIsTheFrameOfAFreshIndex() {
        var state = ChartScaleTests.onScreen(pressing: .character("m"), .character("b"))
        let keys: [Key] = [.left, .left, .character("-"), .left, .character("w"), .pageUp, .character("1"), .tab, .down,
                           .character("-"), .right, .character("c"), .character("+"), .character("+"), .character("a"),
                           .character("1"), .character("m"), .character("g"), .character("?"), .escape, .character("f")]
        for key in keys {
            Fixture.press(&state, key)
            _ = Fixture.render(state)
            var fresh = state
            fresh.replaceIndex(DashboardIndex(state.index.data))
            fresh.windowStart = state.windowStart
            #expect(Fixture.screen(fresh) == Fixture.screen(state), "after \(key)")
        }
    }
}
