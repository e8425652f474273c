import Foundation
import RHRCore
import RHRDashboard
import RHRTerminal
import Testing

/// A terminal that plays a script and keeps what was drawn: the run loop's real partner in tests. A step
/// can also wait (with a deadline) for one of the watched descriptors, e.g. a finished background load.
@MainActor
final class ScriptedTerminal: TerminalDevice {
    enum Step {
        case input(TerminalInput?)
        /// Polls the watched descriptors until one is readable and reports it.
        case awaitReadable
    }

    var size = TerminalSize(width: 80, height: 24)
    let capabilities = TerminalCapabilities.full
    var script: [Step]
    var frames: [ScreenBuffer] = []
    var watched: [[Int32]] = []

    init(_ script: [Step]) { self.script = script }

    func draw(_ buffer: ScreenBuffer) { frames.append(buffer) }

    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        watched.append(watching)
        guard !script.isEmpty else { return .key(.character("q")) }
        switch script.removeFirst() {
        case .input(let input):
            return input
        case .awaitReadable:
            var fds = watching.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 10_000) > 0, let ready = fds.first(where: { $0.revents != 0 }) else {
                Issue.record("nothing became readable within 10 s")
                return .key(.character("q"))
            }
            return .readable(ready.fd)
        }
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

/// Counts loads across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
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
        let terminal = ScriptedTerminal([.input(.key(.character("a"))), .input(.key(.left)),
                                         .input(.key(.character("q"))), .input(.key(.right))])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        #expect(try session.run(on: terminal) == .quit)
        #expect(terminal.frames.count == 3)
        #expect(terminal.frames[1].lines[0].hasSuffix("one value per day: lowest "))
        #expect(terminal.frames[2].lines[2].hasSuffix("▸ Wed 11 Mar 2026 "))
    }

    @Test("A signal ends the session with that signal; a resize redraws at the new size")
    func signalAndResize() throws {
        let terminal = ScriptedTerminal([.input(.resize(TerminalSize(width: 59, height: 15))),
                                         .input(.signal(.terminate))])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        #expect(try session.run(on: terminal) == .signal(.terminate))
        #expect(terminal.frames.last?.size == TerminalSize(width: 59, height: 15))
        #expect(terminal.frames.last?.lines[6].contains("Terminal too small") == true)
    }

    @Test("r reads the store on another thread while keys go on; a failing read keeps the data and says why")
    func reload() throws {
        let loads = Counter()
        let terminal = ScriptedTerminal([.input(.key(.character("r"))), .input(.key(.left)), .awaitReadable,
                                         .input(.key(.character("r"))), .awaitReadable])
        let session = DashboardSession(load: {
            let n = loads.next()
            if n == 3 { throw LoadError() }
            var data = Fixture.standard()
            data.revision = Int64(n)
            return data
        }, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 3)
        #expect(terminal.frames[1].lines[23].hasPrefix(" Reading the store…"))
        // The key after r was answered before the load finished.
        #expect(terminal.frames[2].lines[2].hasSuffix("▸ Wed 11 Mar 2026 "))
        #expect(terminal.frames[3].lines[23].hasPrefix(" Reloaded: store revision 2."))
        #expect(terminal.frames[5].lines[23].hasPrefix(" Could not read the store: the store is gone"))
        #expect(terminal.frames[5].lines[0].contains("12 Jan – 12 Mar 2026"))
    }

    @Test("A partial first frame is completed by the history read in the background")
    func partialFirstFrame() throws {
        var recent = Fixture.standard()
        recent.samples.removeAll { $0.day < Fixture.lastDay.adding(days: -10) }
        recent.isPartial = true
        let terminal = ScriptedTerminal([.awaitReadable])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        _ = try session.run(on: terminal, initial: recent)
        #expect(terminal.frames[0].lines[0].contains("reading earlier days"))
        #expect(terminal.frames[1].lines[0].contains("12 Jan – 12 Mar 2026"))
    }

    @Test("The live-update seam: a feed's store change reads the store and marks the days")
    func liveFeed() throws {
        let feed = ListFeed([.storeChanged(revision: 9, days: [Fixture.lastDay])])
        let loads = Counter()
        let terminal = ScriptedTerminal([.input(.readable(feed.fileDescriptor)), .awaitReadable])
        let session = DashboardSession(load: {
            var data = Fixture.standard()
            data.revision = loads.next() == 1 ? 3 : 9
            return data
        }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 2)
        #expect(terminal.watched.first?.contains(feed.fileDescriptor) == true)
        #expect(terminal.frames[2].lines[23].hasPrefix(" Updated: 12 Mar."))
    }

    @Test("A timeout is a tick: today moves on")
    func tick() throws {
        var day = Fixture.lastDay
        let terminal = ScriptedTerminal([.input(nil), .input(.key(.character("t")))])
        let session = DashboardSession(load: { Fixture.standard() }, today: {
            defer { day = day.adding(days: 1) }
            return day
        })
        _ = try session.run(on: terminal)
        #expect(terminal.frames[2].lines[2].hasSuffix("today ▸ Fri 13 Mar 2026 "))
    }
}
