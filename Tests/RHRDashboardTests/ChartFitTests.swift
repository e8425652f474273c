// The chart's window fits the data: its width goes to days with values, not to the empty days up to today.
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import RHRTestSupport
import Testing

@Suite("Chart window: fits the data, G puts the last day at the right edge, every zoom keeps the cursor in view")
struct ChartFitTests {
    let last = Fixture.lastDay

    /// Fourteen days to 12 Mar 2026 (as the demo has), today months later: the empty days the issue saw.
    func fortnight(width: Int = 100, height: Int = 30, todayAfter days: Int = 259) -> DashboardState {
        Fixture.state(Fixture.standard(days: 14), size: TerminalSize(width: width, height: height),
                      today: last.adding(days: days))
    }

    /// The window's last day, and the plot columns it leaves blank at the right.
    func blankRight(_ state: DashboardState) -> Int {
        ChartLayout.plotWidth(state.size) - ChartWindow(state).usedWidth
    }

    @Test("t then G: the last day with data at the right edge, not at the left of empty days")
    func todayThenLast() {
        var state = fortnight()
        Fixture.press(&state, .character("t"))
        #expect(state.cursor == last.adding(days: 259))
        #expect(ChartWindow(state).contains(bucket: state.cursor.daysSinceEpoch))
        Fixture.press(&state, .character("G"))
        let window = ChartWindow(state)
        #expect(state.cursor == last)
        #expect(window.end == last.daysSinceEpoch, "the window ends \(window.lastDay), not on the last day with data")
        #expect(window.start == last.adding(days: -13).daysSinceEpoch, "all fourteen days in view")
        // The screen says so: the last point is within one day's columns of the plot's right edge.
        let screen = Fixture.screen(state)
        let axis = try! #require(screen.firstIndex { $0.contains("└") })
        #expect(screen[axis + 1].contains("12 Mar"))
        #expect(!screen.joined().contains("No resting values"))
    }

    @Test("At 400 columns fourteen days fill the plot: no more than a day's columns left blank or empty")
    func wideScreenFilled() {
        let state = fortnight(width: 400, height: 40)
        let window = ChartWindow(state)
        #expect(window.start == last.adding(days: -13).daysSinceEpoch && window.end == last.daysSinceEpoch)
        #expect(blankRight(state) < window.cellsPerBucket, "\(blankRight(state)) blank columns")
        #expect(window.cellsPerBucket > 12)
    }

    @Test("Week zoom over two years: the whole history in view at 200 columns, no empty weeks after the last value")
    func weeksOfTwoYears() {
        let data = Fixture.standard(days: 730)
        var state = Fixture.state(data, size: TerminalSize(width: 200, height: 60), today: last.adding(days: 140))
        Fixture.press(&state, .character("-"))
        let window = ChartWindow(state)
        #expect(state.zoom == .week)
        #expect(window.end == Zoom.week.bucket(of: last), "the window runs to \(window.lastDay)")
        #expect(window.start == Zoom.week.bucket(of: last.adding(days: -729)), "the first year starts \(window.firstDay)")
    }

    @Test("Property: after any keys, the cursor is in view and the window reaches past the newest value only to the cursor")
    func anyKeys() {
        let keys: [Key] = [.left, .right, .pageUp, .pageDown, .home, .end, .character("t"), .character("G"), .character("g"),
                           .character("+"), .character("-"), .character("h"), .character("l")]
        var random = SplitMix64(seed: 34)
        for trial in 0..<60 {
            let days = [3, 14, 60, 400][trial % 4]
            let width = [60, 80, 133, 200, 400][trial % 5]
            var state = Fixture.state(Fixture.standard(days: days), size: TerminalSize(width: width, height: 30),
                                      today: last.adding(days: [0, 5, 90, 300][trial % 4 == 0 ? 3 : trial % 3]))
            for step in 0..<40 {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                Fixture.press(&state, key)
                if step % 13 == 12 {
                    DashboardUpdate.update(&state, .resize(TerminalSize(width: 60 + Int(random.next() % 300), height: 30)))
                }
                let window = ChartWindow(state)
                let zoom = state.zoom
                let cursor = zoom.bucket(of: state.cursor)
                #expect(window.contains(bucket: cursor), "trial \(trial) step \(step) \(key): cursor out of view")
                let newest = zoom.bucket(of: last)
                #expect(window.end <= max(newest, cursor), "trial \(trial) step \(step) \(key): \(window.lastDay) past the data")
                #expect(window.start >= zoom.bucket(of: state.firstNavigableDay))
            }
        }
    }
}
