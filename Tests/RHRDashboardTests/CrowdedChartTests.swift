import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// With many writers in view the default chart stays readable: one writer drawn in full, the others dimmed, the
/// legend saying which is which; the columns still give every writer's values (`ManyWritersTests`
/// checks the columns).
@Suite("Render: many writers, one in full and the others dimmed")
struct CrowdedChartTests {
    /// The plot's marks by writer slot: how many cells of each are drawn in full and how many dimmed.
    static func marks(_ state: DashboardState, _ buffer: ScreenBuffer) -> (full: Set<Int>, dimmed: Set<Int>) {
        let layout = DashboardLayout(state)
        var full = Set<Int>(), dimmed = Set<Int>()
        for y in layout.chart.plot.y..<layout.chart.plot.maxY {
            for x in layout.chart.plot.x..<layout.chart.plot.maxX {
                guard case .series(let slot) = buffer[x, y].style.tint, buffer[x, y].glyph != " " else { continue }
                if buffer[x, y].style.attributes.contains(.dim) { dimmed.insert(slot) } else { full.insert(slot) }
            }
        }
        return (full, dimmed)
    }

    @Test("seven writers at 100×30: the first writer with the most days in full, the six others dimmed; the legend says so")
    func sevenWriters() {
        let state = ManyWriters.state(100, 30)
        let buffer = Fixture.render(state)
        let (full, dimmed) = Self.marks(state, buffer)
        #expect(full == [0])
        #expect(dimmed == [1, 2, 3, 4, 5, 6])
        let legend = DashboardLayout(state).chart.legend
        let lines = (legend.y..<legend.maxY).map { buffer.line($0) }
        #expect(lines == [
            " Health Connect: 1 ● Fitbit  2 ◆ Garmin Connect  3 ■ Oura  4 ▲ Samsung Health                       ",
            " HealthKit: 5 ▼ Jane’s Apple Watch  6 ★ Polar Flow  7 ✚ Withings   ● Fitbit in full (f: next)       ",
            " ▽ provisional   ● daily value from all-day heart rate                                              ",
        ])
        // The focused writer's entry in its colour and bold; the others' glyphs and names dimmed.
        let extra = StyleMap.writers("FGOSJPW", .dim).merging(["B": .bold]) { $1 }
        #expect(StyleMap.row(buffer, legend.y, extra: extra)
                == " mmmmmmmmmmmmmmmmmm1BBBBBBB  mmGmmmmmmmmmmmmmmm  mmOmmmmm  mmSmmmmmmmmmmmmmmm                       ")
    }

    @Test("the dimmed writers keep their glyphs on the cursor day: the cursor column hides no one more than before")
    func cursorDayShowsEveryone() {
        let state = ManyWriters.state(100, 30)
        let buffer = Fixture.render(state)
        let plot = DashboardLayout(state).chart.plot
        let column = (plot.x..<plot.maxX).first { x in (plot.y..<plot.maxY).contains { buffer[x, $0].style.attributes.contains(.reverse) } }!
        let marks = (plot.y..<plot.maxY).map { buffer[column, $0] }.filter { cell in
            cell.glyph != " " && !(0x2800...0x28FF).contains(cell.glyph.unicodeScalars.first!.value)
        }
        // Six values on the eight rows share two: each row shows one of its writers' glyphs, Fitbit's 58 over the
        // 57 of Oura, Samsung Health, the watch and Polar, Garmin's 52 dimmed below.
        #expect(marks.map(\.glyph) == ["●", "◆"])
        #expect(marks.contains { $0.style.attributes.contains(.dim) } && marks.contains { !$0.style.attributes.contains(.dim) })
    }

    @Test("f draws the next writer in full; with three writers in view all are in full again")
    func focusMovesAndCrowdEnds() {
        var state = ManyWriters.state(100, 30)
        DashboardUpdate.update(&state, .key(.character("f")))
        #expect(Self.marks(state, Fixture.render(state)).full == [1])
        #expect(state.message == "Garmin Connect in full, the others dimmed.")
        for n in ["1", "3", "4", "6"] { DashboardUpdate.update(&state, .key(.character(Character(n)))) }
        let (full, dimmed) = Self.marks(state, Fixture.render(state))
        #expect(full == [1, 4, 6] && dimmed.isEmpty)
    }

    @Test("without colour (NO_COLOR, ASCII), the dimmed writers are still told apart: dim, the one in full not")
    func withoutColour() {
        let state = ManyWriters.state(100, 30, unicode: false)
        let buffer = Fixture.render(state)
        let (full, dimmed) = Self.marks(state, buffer)
        #expect(full == [0] && dimmed == [1, 2, 3, 4, 5, 6])
        let legend = DashboardLayout(state).chart.legend
        #expect((legend.y..<legend.maxY).contains { buffer.line($0).contains("1 Fitbit in full (f: next)") })
    }

    @Test("80×24 with a note and seven writers: the plot has seven rows (it had five), the columns still four days")
    func chartRowsAt80x24() {
        var state = ManyWriters.state(80, 24)
        state.importFailures = [ImportFailure(file: "x.json", message: "x.json: line 1: not JSON")]
        let layout = DashboardLayout(state)
        #expect(layout.chart.plot.height == 7)
        #expect(layout.columns?.height == 7)
        let lines = Fixture.render(state).lines
        #expect(Array(lines[16...22]) == [
            " Per source ● Fitbit ◆ Garmi… ■ Oura   ▲ Samsu… ▼ Jane’… ★ Polar… ✚ Withi…      ",
            " latest     HC       HC       HC       HC       HK       HK       HK            ",
            " Mon  9 Mar   59       50       55       58       55       55       63          ",
            " Tue 10 Mar   60       52       57       59       57       52                   ",
            " Wed 11 Mar   57       50       55       56       54 p     54       63          ",
            "▸Thu 12 Mar   58       52       57       57       57 p     57                   ",
            " p provisional · o offset assumed · x out of range · d implausible date         ",
        ])
    }
}
