import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// A readable trend with seven writers: nothing hidden (every value of the cursor day on screen, the legend never
/// dropping a writer), a scale that stays put, lines in braille, one meaning per glyph.
@Suite("Many writers: nothing hidden, a scale that stays put, lines in braille")
struct ManyWritersTests {
    @Test("120×36, seven writers: every writer's value for the cursor day is on screen, in its colour's column")
    func cursorDay120() {
        let buffer = Fixture.render(ManyWriters.state(120, 36))
        let lines = buffer.lines
        // Seven headings cannot all be whole in 120 columns: the columns take the width (the narrow headings whole,
        // the others sharing the rest) and the detail pane is a Tab away.
        #expect(lines[19] == " Per source      1 ● Fitbit     2 ◆ Garmin Co… 3 ■ Oura       4 ▲ Samsung H… 5 ▼ Jane’s Ap… 6 ★ Polar Flow 7 ✚ Withings ")
        #expect(lines[20] == " latest          Health Connect Health Connect Health Connect Health Connect HealthKit      HealthKit      HealthKit    ")
        #expect(lines[21] == "                 com.fitbit.Fi… com.garmin.an… com.ouraring.… com.sec.andro…                                            ")
        #expect(lines[32] == " Wed 11 Mar 2026    57             50             55             56             54 p           54             63        ")
        #expect(lines[33] == "▸Thu 12 Mar 2026    58             52             57             57             57 p           57                       ")
        #expect(StyleMap.row(buffer, 19) == "bbbbbbbbbbb      mm11bbbbbb     mm22bbbbbbbbbb mm33bbbb       mm44bbbbbbbbbb mm55bbbbbbbbbb mm66bbbbbbbbbb mm77bbbbbbbb ")
        #expect(StyleMap.row(buffer, 33) == "TRRRRRRRRRRRRRRR" + String(repeating: "r", count: 66) + "MM" + String(repeating: "r", count: 36))
        // The legend names all seven, grouped by store.
        #expect(lines[16].hasPrefix(" Health Connect: 1 ● Fitbit  2 ◆ Garmin Connect  3 ■ Oura  4 ▲ Samsung Health  HealthKit: 5 ▼ Jane’s Apple Watch"))
        // After the other markers, where room is left, what the writer drawn in full has for a number (R15).
        #expect(lines[17].hasPrefix(" 6 ★ Polar Flow  7 ✚ Withings   ● Fitbit in full, the others dimmed (f: next)"))
    }

    @Test("The chart is lines of braille dots in each writer's colour, its glyph at intervals and where it marks something")
    func brailleLines() {
        let state = ManyWriters.state(120, 36)
        let buffer = Fixture.render(state)
        let plot = DashboardLayout(state).chart.plot
        var braille = 0, glyphs = 0
        for y in plot.y..<plot.maxY {
            for x in plot.x..<plot.maxX {
                let cell = buffer[x, y]
                guard cell.glyph != " " else { continue }
                let scalar = cell.glyph.unicodeScalars.first!.value
                if (0x2800...0x28FF).contains(scalar) { braille += 1 } else { glyphs += 1 }
                // Every mark in the plot is some writer's (the cursor's column reversed over it).
                if case .series = cell.style.tint {} else { Issue.record("a mark at \(x),\(y) in \(cell.style)") }
            }
        }
        #expect(braille == 485 && glyphs == 77, "lines, not a scatter: \(braille) braille cells, \(glyphs) glyphs")
    }

    @Test("60×16: the legend keeps every writer (number and glyph); the columns scroll and a line gives the day's values")
    func small() {
        var state = ManyWriters.state(60, 16)
        var buffer = Fixture.render(state)
        var lines = buffer.lines
        // Seven in view: Fitbit in full, the others dimmed (their glyphs "2"…"7" dim), and the legend says so.
        #expect(lines[10] == " 1●  2◆  3■  4▲  5▼  6★  7✚   ● Fitbit in full (f: next)    ")
        let dimmed = Dictionary(uniqueKeysWithValues: (1..<7).map { (Character("\($0 + 1)"), Style.series($0).with(.dim)) })
        #expect(StyleMap.row(buffer, 10, extra: dimmed) == " m1  m2  m3  m4  m5  m6  m7   1                             ")
        #expect(lines[12] == " latest  1→ HC      HC      HC      HC      HK      HK      ")
        #expect(lines[14] == " ▸ 12 Mar:  ● 58  ◆ 52  ■ 57  ▲ 57  ▼ 57 p  ★ 57            ")
        #expect(StyleMap.row(buffer, 14) == " TTTTTTTTT  1     2     3     4     5       6               ")
        // > brings Withings in; < goes back; no further than the ends.
        Fixture.press(&state, .character(">"), .left)
        lines = Fixture.screen(state)
        #expect(lines[11].hasPrefix(" Per source ◆ Garm… ■ Oura  ▲ Sams… ▼ Jane… ★ Pola… ✚ With…"))
        #expect(lines[12].hasPrefix(" latest ←1  HC"))
        #expect(lines[13] == "▸Wed 11 Mar   50      55      56      54 p    54      63    ")
        #expect(lines[14] == " ▸ 11 Mar:  ● 57  ◆ 50  ■ 55  ▲ 56  ▼ 54 p  ★ 54  ✚ 63      ")
        Fixture.press(&state, .character(">"))
        #expect(state.columnScroll == 1)
        Fixture.press(&state, .character("<"), .character("<"))
        #expect(state.columnScroll == 0)
        // Every writer's column in view: nothing to scroll, and it says so.
        var wide = ManyWriters.state(120, 36)
        Fixture.press(&wide, .character(">"))
        #expect(wide.columnScroll == 0 && wide.message == "Every writer's column is in view.")
        buffer = Fixture.render(wide)
        #expect(buffer.lines[34].hasPrefix(" Every writer's column is in view."))
    }

    @Test("Moving the cursor anywhere never changes the scale; PgUp and PgDn move one screen, the cursor in place")
    func scaleStaysPut() {
        for zoom in ["", "-", "--"] {
            var state = ManyWriters.state(80, 24)
            for key in zoom { Fixture.press(&state, .character(key)) }
            let title = Fixture.row(state, 2)
            let scale = ChartWindow(state).cellsPerBucket
            Fixture.press(&state, .character("g"))
            var seen: Set<Int> = []
            while true {
                let before = state.cursor
                Fixture.press(&state, .right)
                let window = ChartWindow(state)
                seen.insert(window.cellsPerBucket)
                #expect(window.contains(bucket: state.zoom.bucket(of: state.cursor)))
                #expect(window.start >= state.zoom.bucket(of: state.firstNavigableDay))
                if state.cursor == before { break }
            }
            #expect(seen == [scale], "zoom \(state.zoom): \(seen)")
            #expect(Fixture.row(state, 2).prefix(40) == title.prefix(40), "the title states the same scale")
        }
        // Two years of days at 80×24: PgUp moves the cursor and the window one screen (74 days) together.
        var long = Fixture.state(Fixture.standard(days: 730))
        let window = ChartWindow(long)
        Fixture.press(&long, .pageUp)
        #expect(long.cursor == Fixture.lastDay.adding(days: -74))
        #expect(ChartWindow(long).start == window.start - 74)
        Fixture.press(&long, .pageUp)
        #expect(long.cursor == Fixture.lastDay.adding(days: -148))
        #expect(ChartWindow(long).start == window.start - 148)
        Fixture.press(&long, .pageDown, .pageDown)
        #expect(long.cursor == Fixture.lastDay && ChartWindow(long).start == window.start)
    }

    @Test("One meaning per glyph: writers, flags, marks and axis never share a glyph, in UTF-8 or ASCII")
    func glyphs() {
        for unicode in [true, false] {
            let g = Glyphs(unicode: unicode)
            var owners: [String: String] = [:]
            func claim(_ glyph: Character, _ meaning: String) {
                if let other = owners[String(glyph)], other != meaning {
                    Issue.record("\(glyph) means both \(other) and \(meaning) (unicode \(unicode))")
                }
                owners[String(glyph)] = meaning
            }
            // Writers after the ninth are letters; a provisional value keeps its writer's glyph where there is no
            // hollow form (a number, a letter), underlined: never a `?` that hides whose it is.
            for w in 0..<35 {
                claim(g.series(w), "writer \(w + 1)")
                if g.provisional(w) != g.series(w) {
                    claim(g.provisional(w), "writer \(w + 1), provisional")
                } else {
                    #expect(g.provisionalStyle(w) == Style.series(w).with(.underline))
                }
                #expect(g.provisional(w) != "?")
            }
            #expect(unicode || g.provisional(0) == "1")
            for (glyph, meaning) in [(g.context, "context"), (g.outOfRange, "out of range"), (g.changed, "changed"),
                                     (g.cursorRow, "cursor row"), (g.bandEdge, "usual range"), (g.horizontal, "axis"),
                                     (g.vertical, "axis"), (g.tick, "axis"), (g.axisTick, "axis"), (g.corner, "axis")] {
                claim(glyph, meaning)
            }
            // The columns' flags and the ellipsis are letters and text, not chart glyphs, but still their own.
            for flag in ["p", "o"] { claim(Character(flag), "flag \(flag)") }
            claim(Character(g.ellipsis.prefix(1).description), "cut text")
        }
    }

    @Test("Cut text ends in an ellipsis: the detail pane's long items wrap or end in …")
    func ellipsis() {
        // Tall enough for the followed writer's derivation above its samples.
        let state = Fixture.state(size: TerminalSize(width: 120, height: 46), pressing: .left, .left)
        let text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("offset assumed: no zone offset, this"))
        #expect(!text.contains("this machine's us\n") && !text.contains("this machine's us "))
        // A one-span item too long for its line wraps at words; several spans that must stay together are cut.
        let wrapped = Flow.lines([[Span("a very long item")], [Span("x")]], width: 12, indent: 2)
        #expect(wrapped.map { $0.spans.map(\.text).joined() } == ["a very long", "  item  x"])
        let cut = Flow.lines([[Span("Jane’s ", .bold), Span("Apple Watch", .muted)]], width: 10)
        #expect(cut.map { $0.spans.map(\.text).joined() } == ["Jane’s Ap…"])
    }
}
