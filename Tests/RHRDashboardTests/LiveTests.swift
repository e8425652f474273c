import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

/// The live parts of the dashboard on the screen buffer: the header's live state, the marks on the days a live
/// update changed, and how the state follows the feed.
@Suite("Live: the header's live state and the marks of changed days")
struct LiveTests {
    let last = Fixture.lastDay
    let stoppedAt = Timestamp.parse("2026-03-12T14:02:00+01:00")!

    /// A live update that changed the last day and the one two days before it.
    func updated(size: TerminalSize = TerminalSize(width: 80, height: 24), unicode: Bool = true) -> DashboardState {
        var state = Fixture.state(size: size, unicode: unicode)
        var data = Fixture.standard()
        data.revision = 4
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(data), .storeChanged([last, last.adding(days: -2)], revision: 4)))
        return state
    }

    @Test("Changed days are marked ✱: after the date in the columns, over the chart and in its legend")
    func marks80() {
        let buffer = Fixture.render(updated())
        let lines = buffer.lines
        #expect(lines[2] == " Resting heart rate, bpm  one column per day  ✱ just changed  ▸ Thu 12 Mar 2026 ")
        // On the date axis the cursor's ▲ stays; the other changed day gets ✱.
        #expect(lines[10] == "    └───┬──────┬──────┬──────┬─────────┬──────┬──────┬──────┬──────┬──────×─✱─▲ ")
        // The mark's meaning takes the place of the out-of-range one while it shows (× stays on the axis).
        #expect(lines[13] == " ◇ provisional: Apple may still replace this estimate   ✱ just changed          ")
        #expect(lines[19] == " Tue 10 Mar 2026✱   57 o                 60                   67                ")
        #expect(lines[21] == "▸Thu 12 Mar 2026✱   56                   58 p                                   ")
        #expect(lines[23] == " Updated: 10 Mar, 12 Mar.                                                       ")
        // The marks in the accent colour, bold; the changed days' points underlined ("w", "j", "o": writers 3, 2
        // and 1; "K", "Q": writers 2 and 1 in bold too, on the cursor day); the footer's message in the accent
        // colour.
        let extra = StyleMap.writers("ojw", .underline).merging(StyleMap.writers("QKX", [.bold, .underline])) { $1 }
        let expected: [Int: String] = [
            2: "TTTTTTTTTTTTTTTTTTTTTTTTmmmmmmmmmmmmmmmmmmmm  TTTTTTTTTTTTTTTTbbbbbbbbbbbbbbbbbb",
            3: "mmm m                                                     3              3  w m ",
            5: "mmm m              3212122121 21  3      2 222 2 22121  1 1  1  3222222 2222j K ",
            6: "    m              21 1 11 1 11 1121121  121 1111 1 1 11 1211211211 1  1 1 1o1Q ",
            10: "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmTmT ",
            13: " 2                                                      T                       ",
            19: "T               T     mm                                                        ",
            21: "TRRRRRRRRRRRRRRRtrrrrrrrrrrrrrrrrrrrrrrrrrrMMrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
            23: "aaaaaaaaaaaaaaaaaaaaaaaaa                                                       ",
        ]
        for (row, styles) in expected {
            #expect(StyleMap.row(buffer, row, extra: extra) == styles, "row \(row)")
        }
    }

    @Test("At 200×60 the legend explains the mark and the detail pane says the cursor day just changed")
    func marks200() {
        let lines = Fixture.screen(updated(size: TerminalSize(width: 200, height: 60)))
        #expect(lines.contains { $0.contains("◇ provisional: Apple may still replace this estimate   ✱ just changed   × out of range") })
        #expect(lines.contains { $0.contains("│ Thu 12 Mar 2026  ✱ just changed  raw samples and revisions") })
    }

    @Test("Without UTF-8 the mark is <, which no writer uses")
    func marksASCII() {
        let lines = Fixture.screen(updated(unicode: false))
        #expect(lines[2].hasSuffix("< just changed  > Thu 12 Mar 2026 "))
        #expect(lines.contains { $0.hasPrefix(" Tue 10 Mar 2026<") })
        #expect(lines[13].contains("< just changed"))
    }

    @Test("The marks add up over live updates and go at the next key")
    func marksUntilKey() {
        var state = updated()
        DashboardUpdate.update(&state, .dataLoaded(state.index, .storeChanged([last.adding(days: -5)], revision: 5)))
        #expect(state.changedDays == [last, last.adding(days: -2), last.adding(days: -5)])
        #expect(state.message == "Updated: 7 Mar.")
        Fixture.press(&state, .character("a"))
        #expect(state.changedDays.isEmpty)
        #expect(!Fixture.screen(state).joined().contains("✱"))
    }

    @Test("A live update with no value changed says the revision and marks nothing")
    func nothingVisible() {
        var state = Fixture.state()
        DashboardUpdate.update(&state, .dataLoaded(state.index, .storeChanged([], revision: 3)))
        #expect(state.changedDays.isEmpty)
        #expect(state.message == "Updated: store revision 3.")
    }

    @Test("Live: the header says so; stopped: it says since when, in the longest form that fits")
    func header() {
        var state = Fixture.state()
        #expect(!Fixture.row(state, 1).contains("live"), "no daemon: nothing changes")
        DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/run/user/1000/rhr/rhr.sock"))
        #expect(Fixture.row(state, 1) == " Health Connect as of 12 Mar 08:00  ·  HealthKit as of 12 Mar 21:00        live ")
        DashboardUpdate.update(&state, .liveFeedEnded(at: stoppedAt))
        #expect(Fixture.row(state, 1) == " Health Connect 12 Mar 08:00 · HealthKit 12 Mar 21:00            daemon stopped ")
        #expect(state.message == "The daemon stopped: no more live updates. Showing the store as of 14:02; r reads it again.")
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 100, height: 30)))
        #expect(Fixture.row(state, 1)
                == " Health Connect 12 Mar 08:00 · HealthKit 12 Mar 21:00             daemon stopped; store as of 14:02 ")
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 140, height: 30)))
        #expect(Fixture.row(state, 1).hasSuffix("HealthKit as of 12 Mar 21:00                     live: daemon stopped; showing the store as of 14:02 "))
        // Stopped on another day than today: the date too.
        DashboardUpdate.update(&state, .tick(today: last.adding(days: 1)))
        #expect(Fixture.row(state, 1).hasSuffix("live: daemon stopped; showing the store as of 12 Mar 14:02 "))
    }

    @Test("The help says whether the dashboard is live and what ✱ means")
    func help() {
        var state = Fixture.state(size: TerminalSize(width: 100, height: 200))
        Fixture.press(&state, .character("?"))
        var text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("✱"))
        #expect(text.contains("a day a live update changed"))
        #expect(text.contains("Not live: no rhr daemon serves this store."))
        DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/run/user/1000/rhr/rhr.sock"))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("Live: following rhr daemon on /run/user/1000/rhr/rhr.sock."))
        DashboardUpdate.update(&state, .liveFeedEnded(at: stoppedAt))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("The daemon stopped at 14:02: this is the store as of then."))
    }

    @Test("A feed that starts at a newer revision reads everything; one at the revision shown reads nothing")
    func feedStarted() {
        var state = Fixture.state()
        #expect(DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/s")) == nil)
        #expect(state.live == .connected(socket: "/s"))
        #expect(state.message == nil)
        DashboardUpdate.update(&state, .liveFeedEnded(at: stoppedAt))
        #expect(state.live == .stopped(at: stoppedAt))
        #expect(DashboardUpdate.update(&state, .liveFeedStarted(revision: 7, socket: "/s"))
                == .load(.storeChanged([], revision: 7)))
        #expect(state.message == "The daemon is back: live again.")
    }

    @Test("A note from the feed goes to the footer")
    func note() {
        var state = Fixture.state()
        DashboardUpdate.update(&state, .liveFeedNote("The daemon on /s serves another store (/x); not following it."))
        #expect(Fixture.row(state, 23).hasPrefix(" The daemon on /s serves another store (/x); not following it."))
    }

    @Test("On the most recent day the cursor follows newer data; elsewhere it stays")
    func followsEdge() {
        var short = Fixture.standard()
        short.samples.removeAll { $0.day == last }
        var state = Fixture.state(short, today: last)
        #expect(state.cursor == last.adding(days: -1))
        DashboardUpdate.update(&state, .dataLoaded(DashboardIndex(Fixture.standard()), .storeChanged([last], revision: 4)))
        #expect(state.cursor == last)
        var away = Fixture.state(short, today: last)
        Fixture.press(&away, .left)
        DashboardUpdate.update(&away, .dataLoaded(DashboardIndex(Fixture.standard()), .storeChanged([last], revision: 4)))
        #expect(away.cursor == last.adding(days: -2))
    }
}
