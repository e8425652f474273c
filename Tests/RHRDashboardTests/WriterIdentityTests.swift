import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

/// A writer keeps its number, glyph and colour for the life of the store (the store's writer numbers); a new writer
/// gets the next ones, wherever its name sorts, and moves no other writer's meaning.
@Suite("Render: writers keep their numbers, glyphs and colours")
struct WriterIdentityTests {
    static let appleWatch = Writer(store: .healthKit, name: "Apple Watch")

    /// The standard data, numbered as a store numbers it: Oura 1, the watch 2, Withings 3; with `newcomer`, a fourth
    /// writer whose name sorts before the others of its store, on the last ten days.
    static func data(newcomer: Bool) -> DashboardData {
        var data = Fixture.standard()
        data.writerNumbers = [Fixture.oura.key: 1, Fixture.watch.key: 2, Fixture.withings.key: 3]
        if newcomer {
            for i in 0..<10 {
                data.samples.append(Fixture.healthKit(appleWatch, Fixture.lastDay.adding(days: -i), 50, device: nil))
            }
            data.writerNumbers[appleWatch.key] = 4
        }
        return data
    }

    @Test("a new writer that sorts first is writer 4, with the fourth glyph and colour; 1–3 keep theirs")
    func newWriterTakesTheNextNumber() {
        let before = Fixture.render(Fixture.state(Self.data(newcomer: false), size: TerminalSize(width: 100, height: 30)))
        let after = Fixture.render(Fixture.state(Self.data(newcomer: true), size: TerminalSize(width: 100, height: 30)))
        let legend = { (b: ScreenBuffer) in b.lines.first { $0.contains("Health Connect: 1") } ?? "" }
        #expect(legend(before).hasPrefix(" Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings"))
        #expect(legend(after).hasPrefix(" Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings  4 ▲ Apple Watch"))
        // The columns' heads, in the same order, with the same glyphs.
        let heads = { (b: ScreenBuffer) in b.lines.first { $0.hasPrefix(" Per source") } ?? "" }
        #expect(heads(after).contains("● Oura") && heads(after).contains("◆ Jane’s") && heads(after).contains("▲ Apple"))
        let oura = heads(after).range(of: "● Oura")!.lowerBound, jane = heads(after).range(of: "◆ Jane’s")!.lowerBound
        let apple = heads(after).range(of: "▲ Apple")!.lowerBound
        #expect(oura < jane && jane < apple)
        // Writer 2's colour is the same before and after (four in view dim all but one: the colour stays).
        let tintOf = { (b: ScreenBuffer, glyph: Character) -> Tint? in
            let row = b.lines.firstIndex { $0.contains("Health Connect: 1") }!
            let column = Array(b.lines[row]).firstIndex(of: glyph)!
            return b[column, row].style.tint
        }
        #expect(tintOf(before, "◆") == tintOf(after, "◆") && tintOf(after, "◆") == .series(1))
        #expect(tintOf(after, "▲") == .series(3))
    }

    @Test("the keys follow the numbers: 4 hides the new writer, 2 still the watch")
    func keysFollowNumbers() {
        var state = Fixture.state(Self.data(newcomer: true), size: TerminalSize(width: 100, height: 30))
        DashboardUpdate.update(&state, .key(.character("4")))
        #expect(state.hidden == [Self.appleWatch.key])
        DashboardUpdate.update(&state, .key(.character("2")))
        #expect(state.hidden == [Self.appleWatch.key, Fixture.watch.key])
    }
}
