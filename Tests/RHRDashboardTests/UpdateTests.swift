import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

@Suite("Update: every key of the key table, resizes, ticks and store changes")
struct UpdateTests {
    let last = Fixture.lastDay

    @Test("The key table maps each of its keys to its action, and no key twice")
    func keyTable() {
        var seen: Set<Key> = []
        for binding in KeyTable.bindings {
            #expect(!binding.keys.isEmpty)
            #expect(!binding.help.isEmpty)
            for key in binding.keys {
                #expect(!seen.contains(key), "\(key) is bound twice")
                seen.insert(key)
                #expect(KeyTable.action(for: key) == binding.action)
            }
        }
        // Every action has a key.
        for action in DashboardAction.allCases { #expect(KeyTable.binding(for: action) != nil, "\(action) has no key") }
        #expect(KeyTable.action(for: .character("x")) == nil)
    }

    @Test("Opens on the most recent day with data, not on a later today")
    func opensOnLastDay() {
        let state = Fixture.state(today: last.adding(days: 8))
        #expect(state.cursor == last)
    }

    @Test("← h and → l move a day, a week or a month, and stop at the ends")
    func leftRight() {
        var state = Fixture.state(pressing: .left)
        #expect(state.cursor == last.adding(days: -1))
        Fixture.press(&state, .character("h"))
        #expect(state.cursor == last.adding(days: -2))
        Fixture.press(&state, .right, .character("l"), .right)
        #expect(state.cursor == last, "no further than today")
        Fixture.press(&state, .character("-"))
        Fixture.press(&state, .left)
        #expect(state.cursor == last.adding(days: -7))
        Fixture.press(&state, .character("-"), .left)
        #expect(state.cursor == LocalDay("2026-02-05")!, "a month back keeps the day of the month")
        for _ in 0..<10 { Fixture.press(&state, .left) }
        #expect(state.cursor == last.adding(days: -59), "no earlier than the first day with data")
    }

    @Test("↑ k and ↓ j move a day in the chart and columns, and scroll in the detail pane")
    func upDown() {
        var state = Fixture.state(pressing: .up, .character("k"))
        #expect(state.cursor == last.adding(days: -2))
        Fixture.press(&state, .down)
        #expect(state.cursor == last.adding(days: -1))
        Fixture.press(&state, .tab)
        #expect(state.focus == .columns)
        Fixture.press(&state, .character("j"))
        #expect(state.cursor == last)
        Fixture.press(&state, .tab)
        #expect(state.focus == .detail)
        // The day's detail is longer than its eight-line pane: scroll to its last line, and no further.
        #expect(!Fixture.screen(state)[22].contains("1 active, 0 not set)"))
        Fixture.press(&state, .down)
        #expect(state.detailScroll == 1)
        for _ in 0..<20 { Fixture.press(&state, .character("j")) }
        let end = state.detailScroll
        #expect(end == 8)
        #expect(Fixture.screen(state)[22].hasSuffix("1 active, 0 not set)                    "))
        #expect(state.cursor == last)
        Fixture.press(&state, .character("k"))
        #expect(state.detailScroll == end - 1)
        for _ in 0..<20 { Fixture.press(&state, .up) }
        #expect(state.detailScroll == 0)
    }

    @Test("PgUp and PgDn move a screen in the chart, a pane in the columns, a page in the detail")
    func pages() {
        var state = Fixture.state(Fixture.standard(days: 400), pressing: .pageUp)
        // 74 chart columns at 80×24.
        #expect(state.cursor == last.adding(days: -74))
        Fixture.press(&state, .pageDown)
        #expect(state.cursor == last)
        Fixture.press(&state, .tab, .pageUp)
        let moved = state.cursor.distance(to: last)
        #expect(moved == 5)
        Fixture.press(&state, .tab, .character("G"), .pageDown)
        #expect(state.detailScroll == 5)
        // A page at a time to the detail's last line (the followed writer's derivation makes it longer than two).
        Fixture.press(&state, .pageDown)
        #expect(state.detailScroll == 10)
        Fixture.press(&state, .pageDown, .pageDown)
        #expect(Fixture.screen(state)[22].contains("1 active, 0 not set)"))
        Fixture.press(&state, .pageUp, .pageUp, .pageUp)
        #expect(state.detailScroll == 0)
    }

    @Test("g Home and G End go to the first and the most recent day with data; t to today")
    func jumps() {
        let today = last.adding(days: 5)
        var state = Fixture.state(today: today, pressing: .character("g"))
        #expect(state.cursor == last.adding(days: -59))
        Fixture.press(&state, .character("G"))
        #expect(state.cursor == last)
        Fixture.press(&state, .home)
        #expect(state.cursor == last.adding(days: -59))
        Fixture.press(&state, .end)
        #expect(state.cursor == last)
        Fixture.press(&state, .character("t"))
        #expect(state.cursor == today)
    }

    @Test("+ = zoom in and - _ zoom out, day ↔ week ↔ month, saying so at the ends")
    func zoom() {
        var state = Fixture.state()
        // Each key in turn, the zoom it leaves, and what it says where there is no further to go.
        let steps: [(key: Character, zoom: Zoom, says: String?)] = [
            ("+", .day, "Already at day zoom"), ("-", .week, nil), ("_", .month, nil),
            ("-", .month, "Already at month zoom"), ("=", .week, nil), ("+", .day, nil),
        ]
        for (n, step) in steps.enumerated() {
            Fixture.press(&state, .character(step.key))
            #expect(state.zoom == step.zoom, "step \(n + 1): \(step.key)")
            if let says = step.says { #expect(state.message?.contains(says) == true, "step \(n + 1): \(step.key)") }
        }
        #expect(state.cursor == last, "zooming keeps the cursor day")
    }

    @Test("a cycles latest → lowest → mean → latest")
    func aggregation() {
        var state = Fixture.state()
        var seen: [Aggregation] = []
        for _ in 0..<4 {
            Fixture.press(&state, .character("a"))
            seen.append(state.aggregation)
        }
        #expect(seen == [.lowest, .mean, .latest, .lowest])
    }

    @Test("c toggles the sedentary context; without sedentary data it says why and stays off")
    func context() {
        var state = Fixture.state(pressing: .character("c"))
        #expect(state.showContext)
        Fixture.press(&state, .character("c"))
        #expect(!state.showContext)
        var data = Fixture.standard()
        data.heartRateDays = []
        var bare = Fixture.state(data)
        Fixture.press(&bare, .character("c"))
        #expect(!bare.showContext)
        #expect(bare.message?.hasPrefix("No sedentary heart-rate samples") == true)
    }

    @Test("1–9 toggle the numbered writers; a number without a writer says so")
    func writers() {
        var state = Fixture.state()
        let oura = state.index.writers[0], watch = state.index.writers[1]
        #expect(oura.name == "com.ouraring.oura" && watch.name == "Jane’s Apple Watch")
        Fixture.press(&state, .character("1"))
        #expect(!state.isVisible(oura) && state.isVisible(watch))
        Fixture.press(&state, .character("2"), .character("1"))
        #expect(state.isVisible(oura) && !state.isVisible(watch))
        Fixture.press(&state, .character("7"))
        #expect(state.message == "There is no writer 7; the legend numbers the writers.")
        #expect(state.hidden == [watch.key])
    }

    @Test("Tab and Shift-Tab cycle the focus")
    func focus() {
        var state = Fixture.state()
        var order: [Focus] = []
        for _ in 0..<3 {
            Fixture.press(&state, .tab)
            order.append(state.focus)
        }
        #expect(order == [.columns, .detail, .chart])
        Fixture.press(&state, .backTab)
        #expect(state.focus == .detail)
    }

    @Test("/ opens the date prompt: type, Backspace, Enter goes; a bad date says so; Esc cancels")
    func goToDate() {
        var state = Fixture.state(pressing: .character("/"))
        #expect(state.overlay == .goTo(""))
        for key in Fixture.typing("2026-02-011") { Fixture.press(&state, key) }
        Fixture.press(&state, .backspace)
        #expect(state.overlay == .goTo("2026-02-01"))
        // q types into the prompt instead of quitting.
        #expect(Fixture.press(&state, .character("q")) == nil)
        #expect(state.overlay == .goTo("2026-02-01q"))
        Fixture.press(&state, .delete)
        #expect(Fixture.press(&state, .enter) == nil)
        #expect(state.overlay == .none)
        #expect(state.cursor == LocalDay("2026-02-01")!)

        Fixture.press(&state, .character("/"))
        for key in Fixture.typing("14 jan") { Fixture.press(&state, key) }
        Fixture.press(&state, .enter)
        #expect(state.cursor == LocalDay("2026-01-14")!)

        Fixture.press(&state, .character("/"))
        for key in Fixture.typing("soon") { Fixture.press(&state, key) }
        Fixture.press(&state, .enter)
        #expect(state.cursor == LocalDay("2026-01-14")!)
        #expect(state.message?.contains("is not a date") == true)

        Fixture.press(&state, .character("/"))
        for key in Fixture.typing("2001") { Fixture.press(&state, key) }
        Fixture.press(&state, .enter)
        #expect(state.cursor == last.adding(days: -59))
        #expect(state.message == "1 Jan 2001 is before the first day with data; showing 12 Jan 2026, the first.")
        #expect(Fixture.row(state, 22) == " 1 Jan 2001 is before the first day with data; showing 12 Jan 2026, the first.  ")

        Fixture.press(&state, .character("/"), .character("2"), .escape)
        #expect(state.overlay == .none)
        #expect(state.cursor == last.adding(days: -59))
    }

    @Test("r asks the run loop to reload; the new data keeps cursor, zoom and aggregation")
    func reload() {
        var state = Fixture.state(pressing: .left, .character("-"), .character("a"), .character("3"))
        #expect(Fixture.press(&state, .character("r")) == .load(.reload))
        #expect(state.message == "Reading the store…")
        var data = Fixture.standard()
        data.revision = 4
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(data), .reload))
        #expect(state.cursor == last.adding(days: -1))
        #expect(state.zoom == .week && state.aggregation == .lowest)
        #expect(state.hidden == [Fixture.withings.key])
        #expect(state.index.revision == 4)
        #expect(state.message == "Reloaded: store revision 4.")
        DashboardUpdate.update(&state, .loadFailed("database is locked"))
        #expect(state.message == "Could not read the store: database is locked")
        #expect(state.index.revision == 4)
    }

    @Test("? and F1 open help; Esc, ? or q close it; ↑↓ scroll it, G and g to its end and start; F10 and Ctrl-C quit")
    func help() {
        var state = Fixture.state(pressing: .character("?"))
        #expect(state.overlay == .help)
        Fixture.press(&state, .down, .down, .up)
        #expect(state.helpScroll == 1)
        Fixture.press(&state, .character("G"))
        let end = state.helpScroll
        #expect(end == 100)
        Fixture.press(&state, .down)
        #expect(state.helpScroll == end, "G went to the end: nothing further to scroll")
        Fixture.press(&state, .character("g"))
        #expect(state.helpScroll == 0)
        Fixture.press(&state, .down)
        Fixture.press(&state, .left)
        #expect(state.cursor == last, "other keys do nothing under the help")
        Fixture.press(&state, .escape)
        #expect(state.overlay == .none)
        Fixture.press(&state, .character("?"), .character("?"))
        #expect(state.overlay == .none)
        Fixture.press(&state, .function(1))
        #expect(state.overlay == .help)
        #expect(Fixture.press(&state, .character("q")) == nil)
        #expect(state.overlay == .none, "q closes the help")
        Fixture.press(&state, .function(1))
        #expect(Fixture.press(&state, .function(10)) == .quit)
        #expect(Fixture.press(&state, .control("c")) == .quit)
        #expect(Fixture.press(&state, .function(10)) == .quit, "F10 quits from the dashboard too")
    }

    @Test("Esc closes overlays and is harmless otherwise")
    func escape() {
        var state = Fixture.state(pressing: .escape)
        #expect(state.overlay == .none && state.cursor == last)
        Fixture.press(&state, .character("/"), .escape)
        #expect(state.overlay == .none)
    }

    @Test("q and Ctrl-C quit, also from the prompt (Ctrl-C) and the help (q)")
    func quit() {
        var state = Fixture.state()
        #expect(Fixture.press(&state, .character("q")) == .quit)
        #expect(Fixture.press(&state, .control("c")) == .quit)
        Fixture.press(&state, .character("/"))
        #expect(Fixture.press(&state, .control("c")) == .quit)
        // On the too-small screen q still quits.
        var small = Fixture.state(size: TerminalSize(width: 40, height: 10))
        #expect(Fixture.press(&small, .character("q")) == .quit)
    }

    @Test("Back from a smaller terminal the chart ends where it ended: more history to the left, not empty days after")
    func resizeKeepsTheRightEdge() {
        // Today a month after the last value: the cursor can go on past the data.
        var state = Fixture.state(Fixture.standard(days: 400), today: last.adding(days: 30))
        let before = ChartWindow(state)
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 59, height: 15)))
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 80, height: 24)))
        #expect(ChartWindow(state) == before)
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 120, height: 30)))
        let wider = ChartWindow(state)
        // 40 columns more, 40 days more before the same last day.
        #expect(wider.end == before.end && wider.start == before.start - 40)
    }

    @Test("A resize keeps the cursor in view; a tick moves today")
    func resizeAndTick() {
        var state = Fixture.state(Fixture.standard(days: 400), pressing: .character("g"))
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 200, height: 60)))
        #expect(state.size == TerminalSize(width: 200, height: 60))
        let wide = Fixture.screen(state)
        #expect(wide[2].hasSuffix("▸ Thu 6 Feb 2025 "))
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 59, height: 15)))
        #expect(Fixture.screen(state)[6].contains("Terminal too small"))
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 80, height: 24)))
        #expect(Fixture.screen(state)[11].contains("6 Feb"), "the cursor's date under the axis")
        DashboardUpdate.update(&state, .tick(today: last.adding(days: 3)))
        #expect(state.today == last.adding(days: 3))
        Fixture.press(&state, .character("t"))
        #expect(state.cursor == last.adding(days: 3))
    }

    @Test("A store change newer than the data on screen asks for a reload of those days; an old one does not")
    func storeChanged() {
        var state = Fixture.state()
        let days: Set<LocalDay> = [last]
        #expect(DashboardUpdate.update(&state, .storeChanged(revision: 3, days: days)) == nil)
        #expect(DashboardUpdate.update(&state, .storeChanged(revision: 4, days: days))
                == .load(.storeChanged(days, revision: 4)))
        var data = Fixture.standard()
        data.revision = 4
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(data), .storeChanged(days, revision: 4)))
        #expect(state.message == "Updated: 12 Mar.")
        #expect(Fixture.screen(state).contains { $0.hasPrefix("▸Thu 12 Mar 2026") })
    }

    @Test("Data arriving in an empty dashboard puts the cursor on its last day")
    func firstData() {
        var state = Fixture.state(DashboardData(), today: last.adding(days: 10))
        #expect(state.cursor == last.adding(days: 10))
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(Fixture.standard()), .reload))
        #expect(state.cursor == last)
    }

    @Test("A first frame from recent days says the rest is being read; the history then arrives without a word")
    func partialThenHistory() {
        var recent = Fixture.standard()
        recent.samples.removeAll { $0.day < last.adding(days: -20) }
        recent.isPartial = true
        var state = Fixture.state(recent)
        #expect(Fixture.row(state, 0).contains("… – 12 Mar 2026  reading earlier days"))
        Fixture.press(&state, .left, .left)
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(Fixture.standard()), .history))
        #expect(Fixture.row(state, 0).contains("12 Jan – 12 Mar 2026"))
        #expect(state.cursor == last.adding(days: -2))
        #expect(state.message == nil)
    }

    /// R13 keeps a sample dated 0001-01-01 and flags it, but leaves it out of the chart's range: the first day is
    /// the first plausible one. What a fuzzing pass found stays tested: nothing on the way to the data's first month, a
    /// month before it, or a jump to year 1 crashes (the month arithmetic floors: `DashboardTypesTests.yearOne`).
    @Test("A store with a sample on 0001-01-01; - - g (month zoom, first day), a month back and a jump to year 1 do not crash")
    func yearOne() {
        let yearOne = LocalDay(year: 1, month: 1, day: 1)!
        var data = Fixture.standard()
        let first = data.samples[0].day
        // The store gives samples by day: year 1 first.
        data.samples.insert(Fixture.healthConnect(Fixture.oura, yearOne, 55, id: "year-one"), at: 0)
        var state = Fixture.state(data)
        #expect(state.index.data.samples.contains { $0.day == yearOne && $0.implausibleDate })
        #expect(state.index.firstDay == first)
        Fixture.press(&state, .character("-"), .character("-"), .character("g"))
        #expect(state.zoom == .month && state.cursor == first)
        let lines = Fixture.screen(state)
        #expect(lines[2].hasSuffix("▸ 12 Jan 2026 "), "\(lines[2])")
        #expect(!lines.contains { $0.contains("Jan 1 ") || $0.hasSuffix("Jan 1") }, "\(lines)")
        // A month before the first month is outside the data: the cursor stays.
        Fixture.press(&state, .left)
        #expect(state.cursor == first)
        #expect(!Fixture.screen(state).isEmpty)
        // Asked for by date, year 1 is before the first day: the cursor stays there, and the message says so.
        Fixture.press(&state, .character("/"))
        for key in Fixture.typing("0001-01-01") { Fixture.press(&state, key) }
        Fixture.press(&state, .enter)
        #expect(state.cursor == first)
        #expect(state.message?.hasSuffix("is before the first day with data; showing 12 Jan 2026, the first.") == true,
                "\(state.message ?? "")")
        #expect(!Fixture.screen(state).isEmpty)
    }
}
