import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

@Suite("Render: screens on the ScreenBuffer")
struct RenderTests {
    @Test("Every size from 0×0 to 200×60 draws every cell and no line overflows",
          arguments: [(0, 0), (1, 1), (59, 15), (60, 16), (80, 24), (200, 60)])
    func drawsEveryCell(width: Int, height: Int) {
        let size = TerminalSize(width: width, height: height)
        for state in [Fixture.state(size: size), Fixture.state(DashboardData(), size: size)] {
            let lines = Fixture.screen(state)
            #expect(lines.count == height)
            for (y, line) in lines.enumerated() {
                #expect(!line.contains("¤"), "row \(y) at \(size) has cells nobody drew: \(line)")
                #expect(DisplayWidth.of(line) == width, "row \(y) at \(size) is \(DisplayWidth.of(line)) wide")
            }
        }
    }

    @Test("1×1 shows what fits of 'too small'")
    func oneByOne() {
        #expect(Fixture.screen(Fixture.state(size: TerminalSize(width: 1, height: 1))) == ["t"])
    }

    @Test("59×15 says it is too small and the size it needs")
    func tooSmall() {
        let buffer = Fixture.render(Fixture.state(size: TerminalSize(width: 59, height: 15)))
        let lines = buffer.lines
        let blank = String(repeating: " ", count: 59)
        let expected = Array(repeating: blank, count: 6) + [
            "                    Terminal too small                     ",
            "             59×15: rhr needs at least 60×16.              ",
            "        Make the window larger, or press q to quit.        ",
        ] + Array(repeating: blank, count: 6)
        #expect(lines == expected)
        #expect(StyleMap.rows(buffer, 6...8) == [
            "                    TTTTTTTTTTTTTTTTTT                     ",
            "                                                           ",
            "        mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm        ",
        ])
    }

    @Test("80×24: header, chart in braille lines, legend, per-source columns and footer, in their styles")
    func standardScreen() {
        let buffer = Fixture.render(Fixture.state())
        let lines = buffer.lines
        let expected = [
            " rhr   resting heart rate  12 Jan – 12 Mar 2026       one value per day: latest ",
            " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00 (+01:00)    ",
            " Resting heart rate, bpm  1 column a day                today ▸ Thu 12 Mar 2026 ",
            "    │                                       ■              ■  ■                 ",
            " 65 ┤   ■  ■⡀ ■  ■     ■  ■  ■  ■        ■     ■        ■⡀                      ",
            "    │■⢀⢆⢀⢆ ⡜⢱ ◆                ⡰⠱⣠⢆ ⢠⢆■             ⣄ ⣄ ⡜⠱⣀⡄                    ",
            " 60 ┤ ⡎⡈⠎⡈⠞⢀⢌⠞⣸ ⡰⣣  ■      ⢄⢠⠳◆⠁ ⠁⠈■⠁●⣄⣄ ⢀⣄ ⡀  ⡀  ■⡜⠈■⠈⠞  ⠁⠘⣄⠔◆ ◇               ",
            "    │⠜⡰⠱⡰⠱⣠⠊⠈⠞⠱⣋⠜⠹⣦⣦ ⢠⣦⢀⠄  ⠈⠃  ⢀⢄⢀⡄ ⡜⠘⠜⠹⣦⠊⠹⣞⣵⢀⢼⢳⢠⣦⡰⢁⡄        ⢀⢦◇●               ",
            " 55 ┤⡰⠁ ⠁ ⠁    ⠁  ⠁⠘⡷●⠘⡯⢆ ⡰⠱⣠⢆⢀⠎⠈⠊⠘⡜    ⠁  ⠁⠘⡿◆ ⠋⠸⣡⠊⠸⣠⢆ ⡰⠱⣠⠂ ⠊ ⠋                ",
            "    │                   ⠈⠞  ⠁⠈⠎                   ⠁  ●⠈⠞  ⠁                     ",
            "    └───┬──────┬─────────┬──────┬──────┬──────┬──────┬──────×────               ",
            "        15 Jan 22 Jan    1 Feb  8 Feb  15 Feb 22 Feb 1 Mar   12 Mar             ",
            " Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch  3 ■ Withings      ",
            " ◇ provisional: Apple may still replace this estimate   × out of range          ",
            " Per source      1 ● Oura             2 ◆ Jane’s Apple Watch    3 ■ Withings    ",
            " latest          Health Connect       HealthKit                 HealthKit       ",
            "                 com.ouraring.oura                                              ",
            " Sun  8 Mar 2026     — x                 58                                     ",
            " Mon  9 Mar 2026    54                   59                                     ",
            " Tue 10 Mar 2026    57 o                 60                        67           ",
            " Wed 11 Mar 2026    54                   57 p                                   ",
            "▸Thu 12 Mar 2026    56                   58 p                                   ",
            " p provisional · o offset assumed · x out of range · d implausible date         ",
            " ←→ day  +- zoom  a aggregation  1–9 writers  Tab focus  / date  ? help  q quit ",
        ]
        #expect(lines == expected)
        // The focused chart's title reversed in the accent colour (focus shows without colour); each writer's line,
        // glyphs, legend entry and column heading in its colour; the cursor day a reversed column through the plot
        // and the axis ("M" where empty, "o", "j": writers 1 and 2 reversed); the cursor row reversed, today in
        // bold; axes, flags and hint words muted. Sixty days take 60 of the 74 plot columns: no day after the last
        // that the cursor could not reach.
        let styles = [
            "TTTTTmmmmmmmmmmmmmmmmmmmmmm                           bbbbbbbbbbbbbbbbbbbbbbbbbb",
            "mbbbbbbbbbbbbbbmmmmmmm            mmmmmbbbbbbbbbmmmmmmm            mmmmmmmmm    ",
            "ttttttttttttttttttttttttmmmmmmmmmmmmmmmm                mmmmmmbbbbbbbbbbbbbbbbbb",
            "    m                                       3              3  3 M               ",
            "mmm m   3  32 3  3     3  3  3  3        3     3        32      M               ",
            "    m32222 22 2                2222 223             2 2 2222    M               ",
            "mmm m 212121121 21  3      22222 2232121 11 1  1  322322  22222 j               ",
            "    m211111111111111 1122  22  1111 11111111111111211        112o               ",
            "mmm m11 1 1    1  1111111 1111111111    1  2212 1111111 1111 1 1M               ",
            "    m                   11  111                   1  111  1     M               ",
            "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmmmM               ",
            "        mmmmmm mmmmmm    mmmmm  mmmmm  mmmmmm mmmmmm mmmmm   TTTTTT             ",
            " mmmmmmmmmmmmmmmmmm1       mmmmmmmmmmmmm2                     mm3               ",
            " 2                                                      b                       ",
            "bbbbbbbbbbb      mm11bbbb             mm22bbbbbbbbbbbbbbbbbb    mm33bbbbbbbb    ",
            "mmmmmmm          mmmmmmmmmmmmmm       mmmmmmmmm                 mmmmmmmmm       ",
            "                 mmmmmmmmmmmmmmmmm                                              ",
            "T                     mm                                                        ",
            "T                                                                               ",
            "T                     mm                                                        ",
            "T                                          mm                                   ",
            "TRRRRRRRRRRRRRRRrrrrrrrrrrrrrrrrrrrrrrrrrrrMMrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
            "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm         ",
            "bbbmmmmmbbbmmmmmmbbmmmmmmmmmmmmmbbbbmmmmmmmmmbbbbmmmmmmmbbmmmmmmbbmmmmmmbbmmmmmm",
        ]
        for (y, row) in styles.enumerated() {
            #expect(StyleMap.row(buffer, y, extra: StyleMap.writers("ojw", .reverse)) == row, "row \(y)")
        }
    }

    @Test("200×60: columns and detail side by side; the detail shows raw samples, context and flags")
    func wideScreen() {
        let state = Fixture.state(size: TerminalSize(width: 200, height: 60))
        let lines = Fixture.screen(state)
        #expect(lines[0].hasPrefix(" rhr   resting heart rate  12 Jan – 12 Mar 2026"))
        #expect(lines[0].hasSuffix("one value per day: latest "))
        let text = lines.joined(separator: "\n")
        #expect(text.contains("│ Thu 12 Mar 2026  raw samples and revisions"))
        // HealthKit: the window with its offset, the value as delivered, device, creation, provisional.
        #expect(text.contains("00:03–23:48 +01:00  58 count/min  Apple Inc. Watch  created 13 Mar 00:12"))
        #expect(text.contains("◇ provisional, read 12 Mar 21:00 +01:00"), "the watch's own hollow glyph, as in the chart")
        // Health Connect: the instant, recording method and last modification.
        #expect(text.contains("06:12 +01:00  56 count/min  Oura Ring (ring)  automatically recorded  modified 12 Mar 06:20"))

        // On a machine at UTC the sample keeps its own offset and times; when it was read is rhr's moment, in
        // the machine's clock, as the header's "as of".
        var data = Fixture.standard()
        data.machineZone = TimeZone(identifier: "UTC")!
        let utc = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 200, height: 60))).joined(separator: "\n")
        #expect(utc.contains("00:03–23:48 +01:00  58 count/min  Apple Inc. Watch  created 13 Mar 00:12"))
        #expect(utc.contains("◇ provisional, read 12 Mar 20:00"), "\(utc)")
        #expect(utc.contains("HealthKit as of 12 Mar 20:00"))
        #expect(text.contains("written by Oura (Health Connect)  com.ouraring.oura"))
        #expect(text.contains("HealthKit · Jane’s Apple Watch: sedentary lowest 52, median 61 bpm of 5 sedentary"))
        // Three legend rows at this height: writers, then markers.
        #expect(text.contains(" ◇ provisional: Apple may still replace this estimate   × out of range"))
    }

    @Test("The detail pane shows the day's revision history")
    func revisionHistory() {
        let state = Fixture.state(size: TerminalSize(width: 160, height: 50), pressing: .left, .left)
        let text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains(" Revision history"))
        #expect(text.contains("◆ Jane’s Apple Watch: draft 62 → 59 (Apple Health export, 12 Mar 21:00 +01:00)"))
    }

    @Test("A revision longer than the detail pane wraps under its text: where and when it was read are not cut off")
    func revisionHistoryWraps() {
        let state = Fixture.state(size: TerminalSize(width: 160, height: 50), pressing: .left, .left)
        let lines = DetailView.lines(DetailView.Model(state), width: 40, glyphs: Glyphs(unicode: true))
            .map { $0.spans.map(\.text).joined() }
        let history = Array(lines.drop { $0 != " Revision history" })
        #expect(history == [
            " Revision history",
            "   ◆ Jane’s Apple Watch: draft 62 → 59",
            "     (Apple Health export, 12 Mar 21:00",
            "     +01:00)",
        ])
        #expect(history.allSatisfy { DisplayWidth.of($0) <= 40 })
    }

    @Test("The header follows the aggregation: latest, lowest, mean")
    func aggregationInHeader() {
        var state = Fixture.state()
        #expect(Fixture.row(state, 0).hasSuffix("one value per day: latest "))
        Fixture.press(&state, .character("a"))
        #expect(Fixture.row(state, 0).hasSuffix("one value per day: lowest "))
        #expect(Fixture.row(state, 15).hasPrefix(" lowest "))
        Fixture.press(&state, .character("a"))
        #expect(Fixture.row(state, 0).hasSuffix("one value per day: mean "))
        // Means carry one decimal (R6).
        #expect(Fixture.row(state, 21).hasPrefix("▸Thu 12 Mar 2026  56.0                 58.0 p"))
    }

    @Test("The provisional legend appears only when a provisional value is in view")
    func provisionalLegend() {
        var state = Fixture.state(Fixture.standard(days: 200))
        #expect(Fixture.screen(state).contains { $0.contains("provisional: Apple may still replace this estimate") })
        // Far enough back that the last two days leave the chart.
        Fixture.press(&state, .character("g"))
        let lines = Fixture.screen(state)
        #expect(!lines.contains { $0.contains("provisional: Apple may still replace this estimate") })
        #expect(!lines.joined().contains("◇"))
    }

    @Test("An out-of-range day is marked on the axis and flagged in the columns, never plotted")
    func outOfRange() {
        let lines = Fixture.screen(Fixture.state())
        // 8 Mar is four days before the cursor, which sits at plot column 59 (x = 64).
        #expect(Fixture.character(lines[10], 60) == "×")
        #expect(lines[17].hasPrefix(" Sun  8 Mar 2026     — x "))
        for y in 3...9 { #expect(Fixture.character(lines[y], 60) != "●", "Oura's zero must not be plotted") }
        // On the cursor's day the mark stays readable inside the highlighted column.
        let state = Fixture.state(pressing: .left, .left, .left, .left)
        let buffer = Fixture.render(state)
        #expect(Fixture.character(buffer.lines[10], 60) == "×")
        #expect(buffer[60, 10].style == Style(tint: .plain, [.bold, .reverse]))
    }

    @Test("Days without a value stay empty: gaps are gaps")
    func gaps() {
        // Only the watch, so no other writer's point can hide a glyph.
        let state = Fixture.state(pressing: .character("1"), .character("3"))
        let lines = Fixture.screen(state)
        // The watch has no sample on days 20 and 21 of 60: plot columns 20 and 21 (x = 25, 26) hold no dot of
        // its line.
        for x in [25, 26] {
            #expect((3...9).allSatisfy { Fixture.character(lines[$0], x) == " " }, "column \(x) must be empty for the watch")
        }
        // The days around the gap have their dots, so the check above could fail.
        #expect((3...9).contains { Fixture.character(lines[$0], 24) != " " })
        #expect((3...9).contains { Fixture.character(lines[$0], 27) != " " })
    }

    @Test("The cursor day is a highlighted column (no glyph of its own), labelled, and highlighted in the columns")
    func cursor() {
        var state = Fixture.state()
        func highlighted(_ buffer: ScreenBuffer) -> [Int] {
            (0..<80).filter { x in (3...10).allSatisfy { buffer[x, $0].style.attributes.contains(.reverse) } }
        }
        #expect(highlighted(Fixture.render(state)) == [64])
        #expect(Fixture.character(Fixture.row(state, 10), 64) == "─", "the axis keeps its own glyph")
        Fixture.press(&state, .left)
        let lines = Fixture.screen(state)
        #expect(highlighted(Fixture.render(state)) == [63])
        #expect(lines[11].contains("11 Mar"))
        #expect(lines[2].hasSuffix("▸ Wed 11 Mar 2026 "))
        #expect(lines.contains { $0.hasPrefix("▸Wed 11 Mar 2026") })
    }

    @Test("c shows the sedentary minimum as a separately labelled context series")
    func contextSeries() {
        var state = Fixture.state(pressing: .character("c"))
        var lines = Fixture.screen(state)
        #expect(lines.contains { $0.contains("· sedentary minimum (Jane’s Apple Watch): context, not resting") })
        #expect(lines.contains { $0.contains("◇ provisional: Apple may still replace this estimate") })
        // 52 bpm on the cursor day, below the watch's 58 (◇) in the cursor column.
        let axis = lines.firstIndex { $0.hasPrefix("    └") }!
        let column = (3..<axis).map { Fixture.character(lines[$0], 64) }
        #expect(column.contains("·"))
        if let dot = column.firstIndex(of: "·"), let watch = column.firstIndex(of: "◇") { #expect(dot > watch) }
        Fixture.press(&state, .character("c"))
        lines = Fixture.screen(state)
        #expect(!lines.contains { $0.contains("sedentary minimum") })
        #expect(!lines[3..<10].joined().contains("·"))
    }

    @Test("A hidden writer leaves the chart and the columns and is marked hidden in the legend")
    func hiddenWriter() {
        let state = Fixture.state(pressing: .character("2"))
        let lines = Fixture.screen(state)
        #expect(lines[12].contains("2 ◆ Jane’s Apple W… (hidden)"))
        #expect(!lines[3...9].joined().contains("◆"))
        // Nothing in the chart in the watch's colour: no line either.
        let buffer = Fixture.render(state)
        #expect((3...9).allSatisfy { !StyleMap.row(buffer, $0).contains("2") })
        #expect(!lines[14].contains("Jane"))
    }

    @Test("At week zoom each writer has one point per column, the median of its days")
    func weekZoom() {
        let state = Fixture.state(pressing: .character("-"))
        let lines = Fixture.screen(state)
        #expect(lines[2].contains("8 columns a week, weekly medians"))
        #expect(lines[11].contains("week of 9 Mar"))
        for x in 5..<79 {
            let column = (3...9).map { Fixture.character(lines[$0], x) }
            #expect(column.filter { $0 == "●" }.count <= 1)
            #expect(column.filter { $0 == "◆" || $0 == "◇" }.count <= 1)
        }
    }

    @Test("The cursor's date on the axis stands two blank cells clear of every tick label, at every width and zoom",
          arguments: [60, 80, 97, 120, 161, 200])
    func cursorLabelStandsClear(width: Int) {
        for steps in 0...2 {
            var state = Fixture.state(size: TerminalSize(width: width, height: 24))
            for _ in 0..<steps { Fixture.press(&state, .character("-")) }
            for _ in 0..<3 {
                let screen = Fixture.screen(state)
                guard let axis = screen.firstIndex(where: { $0.contains("└") }) else {
                    Issue.record("no axis at \(width) columns"); return
                }
                let labels = screen[axis + 1]
                let label = ChartView.cursorLabel(state.cursor, zoom: state.zoom)
                let found = labels.range(of: label)
                #expect(found != nil, "\(label) at \(width) columns")
                if let found {
                    let before = labels[..<found.lowerBound], after = labels[found.upperBound...]
                    #expect(before.count < 2 || before.hasSuffix("  "), "\(labels)")
                    #expect(after.count < 2 || after.hasPrefix("  "), "\(labels)")
                }
                Fixture.press(&state, .left)
            }
        }
    }

    @Test("Without UTF-8 every glyph and name is ASCII")
    func ascii() {
        var state = Fixture.state(unicode: false)
        var help = state
        Fixture.press(&help, .character("?"))
        for line in Fixture.screen(state) + Fixture.screen(help) {
            let ascii = line.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "not ASCII: \(line)")
        }
        state.overlay = .none
        let lines = Fixture.screen(state)
        // A writer's glyph is its number, said once; no braille: each point is its writer's number.
        #expect(lines[12].contains("Health Connect: 1 Oura  HealthKit: 2 Jane's Apple Watch  3 Withings"))
        // A provisional value is its writer's number underlined, never a `?` that hides whose it is.
        #expect(lines[13].contains("2 provisional: Apple may still replace this estimate"))
        #expect(!lines[3...13].joined().contains("?"))
        #expect(StyleMap.row(Fixture.render(state), 13, extra: ["u": Style.series(1).with(.underline)]).hasPrefix(" u "))
        #expect(lines[7].contains("1") && lines[7].contains("2") && !lines[3...9].joined().contains("o"))
        // Outside the plot only the glyphs change: every style stays (the footer's key names differ in length).
        let extra = StyleMap.writers("ojw", .reverse)
        #expect(StyleMap.rows(Fixture.render(state), 15...22, extra: extra)
                == StyleMap.rows(Fixture.render(Fixture.state()), 15...22, extra: extra))
        #expect(StyleMap.rows(Fixture.render(state), 10...11, extra: extra)
                == StyleMap.rows(Fixture.render(Fixture.state()), 10...11, extra: extra))
        #expect(StyleMap.rows(Fixture.render(state), 0...2) == StyleMap.rows(Fixture.render(Fixture.state()), 0...2))
    }

    @Test("The / prompt shows what was typed")
    func goToPrompt() {
        var state = Fixture.state(pressing: .character("/"))
        for key in Fixture.typing("2026-02") { Fixture.press(&state, key) }
        #expect(Fixture.row(state, 23).hasPrefix(" Go to date: 2026-02    Enter go · Esc cancel"))
        // The prompt in the accent colour, the typed text plain, a reversed cell where the next character goes.
        #expect(StyleMap.row(Fixture.render(state), 23).hasPrefix("TTTTTTTTTTTTT       rmmmmmmmmmmmm"))
    }

    @Test("At 80×24 Tab to the detail pane puts it where the columns were")
    func detailFocus() {
        let state = Fixture.state(pressing: .tab, .tab)
        let buffer = Fixture.render(state)
        let lines = buffer.lines
        #expect(lines[14].hasPrefix(" Thu 12 Mar 2026  raw samples and revisions"))
        #expect(lines[15].contains("● Oura  latest 56  written by Oura (Health Connect)"))
        // The focused pane's title in the accent colour; the writer's glyph in its colour, its name bold.
        #expect(StyleMap.row(buffer, 14).hasPrefix("ttttttttttttttttmmmmmmmmmmmmmmmmmmmmmmmmmmm"))
        #expect(StyleMap.row(buffer, 15).hasPrefix(" 1bbbbb             mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"))
        #expect(StyleMap.row(buffer, 2).hasPrefix(String(repeating: "b", count: 24)), "the chart's title, not focused")
    }

    @Test("The focused pane's title is reversed, bold, in the accent colour (seen without colour); the others only bold")
    func focusStyles() {
        var state = Fixture.state(size: TerminalSize(width: 200, height: 60))
        /// The styles of the chart's, the columns' and the detail pane's titles.
        func titles() -> [String] {
            let buffer = Fixture.render(state)
            let lines = buffer.lines
            let row = Fixture.rowIndex(lines, containing: " Per source")!
            let detail = lines[row].distance(from: lines[row].startIndex, to: lines[row].range(of: " Thu 12 Mar 2026")!.lowerBound)
            let chartStyles = Array(StyleMap.row(buffer, 2)), paneStyles = Array(StyleMap.row(buffer, row))
            return [String(chartStyles[0..<24]), String(paneStyles[0..<11]), String(paneStyles[detail..<(detail + 16)])]
        }
        let focused = { (n: Int) in String(repeating: "t", count: n) }, bold = { (n: Int) in String(repeating: "b", count: n) }
        #expect(titles() == [focused(24), bold(11), bold(16)])
        Fixture.press(&state, .tab)
        #expect(titles() == [bold(24), focused(11), bold(16)])
        Fixture.press(&state, .tab)
        #expect(titles() == [bold(24), bold(11), focused(16)])
    }

    /// R13: a day whose only sample is implausibly dated has no value and says why with `d`, the letter `rhr summary`
    /// gives it (one `DayFlag` list behind both), and the columns' key names it.
    @Test("An implausibly dated sample is marked d in its writer's column, and the key says what d is")
    func implausibleDateInColumns() {
        var data = Fixture.standard()
        let tenth = LocalDay("2026-03-10")!
        for i in data.samples.indices where data.samples[i].day == tenth && data.samples[i].sample.writer.key == Fixture.withings.key {
            data.samples[i].implausibleDate = true
        }
        let lines = Fixture.screen(Fixture.state(data))
        #expect(lines[19] == " Tue 10 Mar 2026    57 o                 60                         — d         ")
        #expect(lines[22] == " p provisional · o offset assumed · x out of range · d implausible date         ")
    }
}
