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

    @Test("Changed days are marked ↻: after the date in the columns, on the date axis, in the chart's legend")
    func marks80() {
        let buffer = Fixture.render(updated())
        let lines = buffer.lines
        #expect(lines[2] == " Resting heart rate, bpm  1 column a day      ↻ just changed  ▸ Thu 12 Mar 2026 ")
        // On the date axis both changed days get ↻ (the cursor's inside its highlighted column); × stays.
        #expect(lines[10] == "    └───┬──────┬─────────┬──────┬──────┬──────┬──────┬──────×─↻─↻               ")
        // The legend shortens its entries so every mark's meaning fits.
        #expect(lines[13] == " ◇ provisional   × out of range   ↻ just changed                                ")
        #expect(lines[18] == " Tue 10 Mar 2026↻   57 o                 60                        67           ")
        #expect(lines[20] == "▸Thu 12 Mar 2026↻   56                   58 p                                   ")
        // The message has its own row: the key hints stay.
        #expect(lines[22] == " Updated: 10 Mar, 12 Mar.                                                       ")
        #expect(lines[23].hasPrefix(" ←→ day  +- zoom"))
        // The marks in the accent colour, bold; the changed days' points underlined ("J", "O": writers 2 and 1;
        // "K", "Q": reversed too, in the cursor's column); the message in the accent colour.
        let extra = StyleMap.writers("OJW", .underline).merging(StyleMap.writers("QKX", [.reverse, .underline])) { $1 }
        let expected: [Int: String] = [
            2: "ttttttttttttttttttttttttmmmmmmmmmmmmmmmm      TTTTTTTTTTTTTTTTbbbbbbbbbbbbbbbbbb",
            6: "mmm m 212121121 21  3      22222 2232121 11 1  1  322322  2222J K               ",
            7: "    m211111111111111 1122  22  1111 11111111111111211        1O2Q               ",
            10: "    mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmbmTmt               ",
            13: " 2               b                T                                             ",
            18: "T               T     mm                                                        ",
            20: "TRRRRRRRRRRRRRRRtrrrrrrrrrrrrrrrrrrrrrrrrrrMMrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr",
            22: "aaaaaaaaaaaaaaaaaaaaaaaaa                                                       ",
        ]
        for (row, styles) in expected {
            #expect(StyleMap.row(buffer, row, extra: extra) == styles, "row \(row)")
        }
    }

    @Test("At 200×60 the legend explains the mark and the detail pane says the cursor day just changed")
    func marks200() {
        let lines = Fixture.screen(updated(size: TerminalSize(width: 200, height: 60)))
        #expect(lines.contains { $0.contains("◇ provisional: Apple may still replace this estimate   × out of range   ↻ just changed") })
        #expect(lines.contains { $0.contains("│ Thu 12 Mar 2026  ↻ just changed  raw samples and revisions") })
    }

    @Test("Without UTF-8 the mark is *, which no writer, flag or axis uses (writers are digits there)")
    func marksASCII() {
        let lines = Fixture.screen(updated(unicode: false))
        #expect(lines[2].hasSuffix("* just changed  > Thu 12 Mar 2026 "))
        #expect(lines.contains { $0.hasPrefix(" Tue 10 Mar 2026*") })
        #expect(lines[13].contains("* just changed"))
        #expect(!lines[3...9].joined().contains("*"))
    }

    @Test("The marks add up over live updates and go at the next key")
    func marksUntilKey() {
        var state = updated()
        DashboardUpdate.update(&state, .dataLoaded(state.index, .storeChanged([last.adding(days: -5)], revision: 5)))
        #expect(state.changedDays == [last, last.adding(days: -2), last.adding(days: -5)])
        #expect(state.message == "Updated: 7 Mar.")
        Fixture.press(&state, .character("a"))
        #expect(state.changedDays.isEmpty)
        #expect(!Fixture.screen(state).joined().contains("↻"))
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
        #expect(Fixture.row(state, 1) == " Health Connect 12 Mar 08:00 +01:00 · HealthKit 12 Mar 21:00 +01:00        live ")
        DashboardUpdate.update(&state, .liveFeedEnded(at: stoppedAt))
        #expect(Fixture.row(state, 1) == " Health Connect 12 Mar 08:00 · HealthKit 12 Mar 21:00 (+01:00)   daemon stopped ")
        #expect(state.message == "The daemon stopped: no more live updates. Showing the store as of 14:02 +01:00; r reads it again.")
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 100, height: 30)))
        #expect(Fixture.row(state, 1)
                == " Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00    daemon stopped ")
        DashboardUpdate.update(&state, .resize(TerminalSize(width: 140, height: 30)))
        #expect(Fixture.row(state, 1).hasSuffix("HealthKit as of 12 Mar 21:00 (+01:00)     live: daemon stopped; showing the store as of 14:02 +01:00 "))
        // Stopped on another day than today: the date too.
        DashboardUpdate.update(&state, .tick(today: last.adding(days: 1)))
        #expect(Fixture.row(state, 1).hasSuffix("live: daemon stopped; showing the store as of 12 Mar 14:02 +01:00 "))
    }

    @Test("The help says whether the dashboard is live and what ↻ means")
    func help() {
        var state = Fixture.state(size: TerminalSize(width: 100, height: 200), pressing: .character("?"))
        var text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("↻"))
        #expect(text.contains("a day a live update changed"))
        #expect(text.contains("Not live: no rhr daemon serves this store."))
        DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/run/user/1000/rhr/rhr.sock"))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("Live: following rhr daemon on /run/user/1000/rhr/rhr.sock."))
        DashboardUpdate.update(&state, .liveFeedEnded(at: stoppedAt))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("The daemon stopped at 14:02 +01:00: this is the store as of then."))
    }

    @Test("A temporary store (the demo's) follows no daemon: the help tells how to go live with a store of one's own")
    func temporaryStoreHelp() {
        var state = Fixture.state(size: TerminalSize(width: 100, height: 200), pressing: .character("?"))
        let header = Fixture.row(state, 1)
        state.live = .temporary
        let text = Fixture.screen(state).joined(separator: "\n")
        #expect(!text.contains("Start one (rhr daemon)"), "\(text)")
        #expect(text.contains("Not live: this is a temporary store, made for this run and removed when it ends; no daemon"),
                "\(text)")
        #expect(text.contains("rhr import FILE"), "\(text)")
        #expect(Fixture.row(state, 1) == header)
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

    @Test("A note from the feed goes to the message row above the key hints")
    func note() {
        var state = Fixture.state()
        DashboardUpdate.update(&state, .liveFeedNote("The daemon on /s serves another store (/x); not following it."))
        #expect(Fixture.row(state, 22).hasPrefix(" The daemon on /s serves another store (/x); not following it."))
        #expect(Fixture.row(state, 23).hasPrefix(" ←→ day"))
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
