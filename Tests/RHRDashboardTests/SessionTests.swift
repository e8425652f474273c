import Foundation
import RHRCore
import RHRDashboard
import RHRTerminal
import Testing

/// A terminal that plays a script of inputs and keeps what was drawn: the run loop's real partner in tests.
@MainActor
final class ScriptedTerminal: TerminalDevice {
    var size = TerminalSize(width: 80, height: 24)
    let capabilities = TerminalCapabilities.full
    var script: [TerminalInput?]
    var frames: [ScreenBuffer] = []
    var watched: [[Int32]] = []

    init(_ script: [TerminalInput?]) { self.script = script }

    func draw(_ buffer: ScreenBuffer) { frames.append(buffer) }

    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        watched.append(watching)
        guard !script.isEmpty else { return .key(.character("q")) }
        return script.removeFirst()
    }
}

/// A feed whose file descriptor is a real pipe; what it receives is what the test put in.
@MainActor
final class ListFeed: DashboardFeed {
    let pipe = Pipe()
    var pending: [DashboardEvent]
    init(_ events: [DashboardEvent]) { pending = events }
    var fileDescriptor: Int32 { pipe.fileHandleForReading.fileDescriptor }
    func receive() -> [DashboardEvent] {
        defer { pending = [] }
        return pending
    }
}

struct LoadError: Error, CustomStringConvertible {
    var description: String { "the store is gone" }
}

@Suite("Session: the run loop between terminal, update, store and render")
@MainActor
struct SessionTests {
    @Test("Keys are applied and drawn; q ends the session")
    func keysAndQuit() throws {
        let terminal = ScriptedTerminal([.key(.character("a")), .key(.left), .key(.character("q")), .key(.right)])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        #expect(try session.run(on: terminal) == .quit)
        #expect(terminal.frames.count == 3)
        #expect(terminal.frames[1].lines[0].hasSuffix("one value per day: lowest "))
        #expect(terminal.frames[2].lines[2].hasSuffix("▸ Wed 11 Mar 2026 "))
    }

    @Test("A signal ends the session with that signal; a resize redraws at the new size")
    func signalAndResize() throws {
        let terminal = ScriptedTerminal([.resize(TerminalSize(width: 59, height: 15)), .signal(.terminate)])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        #expect(try session.run(on: terminal) == .signal(.terminate))
        #expect(terminal.frames.last?.size == TerminalSize(width: 59, height: 15))
        #expect(terminal.frames.last?.lines[6].contains("Terminal too small") == true)
    }

    @Test("r reloads from the store; a failing reload keeps the data and says why")
    func reload() throws {
        var loads = 0
        let terminal = ScriptedTerminal([.key(.character("r")), .key(.character("r"))])
        let session = DashboardSession(load: {
            loads += 1
            if loads == 3 { throw LoadError() }
            var data = Fixture.standard()
            data.revision = Int64(loads)
            return data
        }, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads == 3)
        #expect(terminal.frames[1].lines[23].hasPrefix(" Reloaded: store revision 2."))
        #expect(terminal.frames[2].lines[23].hasPrefix(" Could not read the store: the store is gone"))
        #expect(terminal.frames[2].lines[0].contains("12 Jan – 12 Mar 2026"))
    }

    @Test("The live-update seam: a feed's store change reloads and marks the days")
    func liveFeed() throws {
        let feed = ListFeed([.storeChanged(revision: 9, days: [Fixture.lastDay])])
        var loads = 0
        let terminal = ScriptedTerminal([.readable(feed.fileDescriptor)])
        let session = DashboardSession(load: {
            loads += 1
            var data = Fixture.standard()
            data.revision = loads == 1 ? 3 : 9
            return data
        }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads == 2)
        #expect(terminal.watched.first == [feed.fileDescriptor])
        #expect(terminal.frames[1].lines[23].hasPrefix(" Updated: 12 Mar."))
    }

    @Test("A timeout is a tick: today moves on")
    func tick() throws {
        var day = Fixture.lastDay
        let terminal = ScriptedTerminal([nil, .key(.character("t"))])
        let session = DashboardSession(load: { Fixture.standard() }, today: {
            defer { day = day.adding(days: 1) }
            return day
        })
        _ = try session.run(on: terminal)
        #expect(terminal.frames[2].lines[2].hasSuffix("today ▸ Fri 13 Mar 2026 "))
    }
}
