import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRScreen
import RHRTestSupport
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
    /// What the run loop is told becomes readable when input waits (a test's pipe).
    var inputDescriptors: [Int32] = []
    /// Called with the step's number before it is played.
    var onInput: (Int) -> Void = { _ in }

    init(_ script: [Step]) { self.script = script }

    func draw(_ buffer: ScreenBuffer) { frames.append(buffer) }

    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        onInput(watched.count)
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
    var startEvents: [DashboardEvent] = []
    var idleEvents: [DashboardEvent] = []
    var idleCalls = 0
    /// After the next `receive`, there is no descriptor any more (a connection that closed).
    var closeOnReceive = false
    private var closed = false

    init(_ events: [DashboardEvent]) { pending = events }
    var fileDescriptor: Int32? { closed ? nil : pipe.fileHandleForReading.fileDescriptor }
    func start() -> [DashboardEvent] { startEvents }
    func receive() -> [DashboardEvent] {
        defer { pending = [] }
        if closeOnReceive { closed = true }
        return pending
    }
    var idleInterval: Int32? { idleEvents.isEmpty ? nil : 1 }
    func idle() -> [DashboardEvent] {
        idleCalls += 1
        defer { idleEvents = [] }
        return idleEvents
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

    @Test("A temporary store's session is not live, and says so in its own words")
    func temporaryStore() throws {
        let terminal = ScriptedTerminal([.input(.key(.character("q")))])
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay })
        #expect(try session.run(on: terminal, temporaryStore: true) == .quit)
        #expect(session.state?.live == .temporary)
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
            let n = loads.add()
            if n == 3 { throw LoadError() }
            var data = Fixture.standard()
            data.revision = Int64(n)
            return data
        }, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 3)
        #expect(terminal.frames[1].lines[22].hasPrefix(" Reading the store…"))
        // The key after r was answered before the load finished.
        #expect(terminal.frames[2].lines[2].hasSuffix("▸ Wed 11 Mar 2026 "))
        #expect(terminal.frames[3].lines[22].hasPrefix(" Reloaded: store revision 2."))
        #expect(terminal.frames[5].lines[22].hasPrefix(" Could not read the store: the store is gone"))
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

    /// What a live update's reader reads of `data` for `days`: their rows and the streams (not the contents).
    nonisolated static func delta(_ days: Set<LocalDay>, of data: DashboardData) -> DashboardDelta {
        var delta = DashboardDelta(days: days)
        delta.samples = data.samples.filter { days.contains($0.day) }
        delta.revisions = data.revisions.filter { days.contains($0.day) }
        delta.heartRateDays = data.heartRateDays.filter { days.contains($0.day) }
        delta.streams = data.streams
        return delta
    }

    /// The fixture with the watch's value on the last day changed to 70, at store revision 9.
    nonisolated static func changedFixture() -> DashboardData {
        var data = Fixture.standard()
        data.revision = 9
        if let i = data.samples.lastIndex(where: { $0.sample.writer == Fixture.watch }) {
            data.samples[i].sample.value = 70
        }
        return data
    }

    @Test("A live update reads only the changed days, patches them in and marks them ↻")
    func liveFeedPatch() throws {
        let feed = ListFeed([.storeChanged(revision: 9, days: [Fixture.lastDay])])
        let loads = Counter(), dayLoads = Counter()
        let terminal = ScriptedTerminal([.input(.readable(feed.fileDescriptor!)), .awaitReadable])
        let session = DashboardSession(load: {
            loads.add()
            return Fixture.standard()
        }, loadDays: { days in
            dayLoads.add()
            let data = SessionTests.changedFixture()
            var delta = SessionTests.delta(days, of: data)
            delta.contents = data.contents
            return delta
        }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 1 && dayLoads.count == 1, "one full read to start, then only the day")
        #expect(terminal.watched.first?.contains(feed.fileDescriptor!) == true)
        let screen = terminal.frames[2].lines
        #expect(screen[22].hasPrefix(" Updated: 12 Mar."))
        #expect(screen.contains { $0.hasPrefix("▸Thu 12 Mar 2026↻   56                   70 p") })
        #expect(screen[2].hasSuffix("↻ just changed  ▸ Thu 12 Mar 2026 "))
    }

    @Test("A live update whose days were read at an older revision than the change is not patched in: it reads everything")
    func staleDeltaReadsEverything() throws {
        let feed = ListFeed([.storeChanged(revision: 9, days: [Fixture.lastDay])])
        let loads = Counter()
        let terminal = ScriptedTerminal([.input(.readable(feed.fileDescriptor!)), .awaitReadable])
        let session = DashboardSession(load: {
            loads.add() == 1 ? Fixture.standard() : SessionTests.changedFixture()
        }, loadDays: { days in
            // What a connection stuck on an old snapshot reads: the revision before the change, and its values.
            let data = Fixture.standard()
            var delta = SessionTests.delta(days, of: data)
            delta.revision = 3
            return delta
        }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 2, "the change was read in full")
        #expect(session.state?.index.revision == 9)
        #expect(terminal.frames[2].lines.contains { $0.hasPrefix("▸Thu 12 Mar 2026↻   56                   70 p") })
    }

    @Test("A change without days (a resync) reads everything and marks the days that differ")
    func liveFeedResync() throws {
        let feed = ListFeed([.storeChanged(revision: 9, days: [])])
        let loads = Counter()
        let terminal = ScriptedTerminal([.input(.readable(feed.fileDescriptor!)), .awaitReadable])
        let session = DashboardSession(load: {
            loads.add() == 1 ? Fixture.standard() : SessionTests.changedFixture()
        }, loadDays: { _ in throw LoadError() }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(loads.count == 2)
        #expect(terminal.frames[2].lines[22].hasPrefix(" Updated: 12 Mar."))
    }

    @Test("A feed that starts connected shows live; when it ends, its descriptor is no longer watched")
    func liveFeedLifecycle() throws {
        let feed = ListFeed([])
        feed.startEvents = [.liveFeedStarted(revision: 3, socket: "/run/user/1000/rhr/rhr.sock")]
        let ended = Timestamp.parse("2026-03-12T14:02:00+01:00")!
        let terminal = ScriptedTerminal([.input(.key(.left)), .input(.readable(feed.fileDescriptor!)),
                                         .input(.key(.right))])
        terminal.onInput = { step in if step == 1 { feed.pending = [.liveFeedEnded(at: ended)]; feed.closeOnReceive = true } }
        let session = DashboardSession(load: { Fixture.standard() }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(terminal.frames[0].lines[1].hasSuffix(" live "))
        // At 80 columns the header has room for the short form; the footer says it all.
        #expect(terminal.frames[2].lines[1].hasSuffix("HealthKit 12 Mar 21:00 (+01:00)   daemon stopped "))
        #expect(terminal.frames[2].lines[22].hasPrefix(" The daemon stopped: no more live updates."))
        #expect(terminal.watched[1].contains(feed.pipe.fileHandleForReading.fileDescriptor))
        #expect(!terminal.watched[2].contains(feed.pipe.fileHandleForReading.fileDescriptor))
        // The dashboard goes on: the key after the end still moves the cursor.
        #expect(terminal.frames[3].lines[2].hasSuffix("▸ Thu 12 Mar 2026 "))
    }

    @Test("A feed without a daemon is asked again when idle; one that appears makes the dashboard live")
    func liveFeedIdle() throws {
        let feed = ListFeed([])
        feed.idleEvents = [.liveFeedStarted(revision: 3, socket: "/tmp/rhr.sock")]
        let terminal = ScriptedTerminal([.input(nil)])
        let session = DashboardSession(load: { Fixture.standard() }, feed: feed, today: { Fixture.lastDay })
        _ = try session.run(on: terminal)
        #expect(!terminal.frames[0].lines[1].contains("live"))
        #expect(terminal.frames[1].lines[1].hasSuffix(" live "))
        #expect(feed.idleCalls == 1)
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

    /// A frame that takes long (a layout measuring a megabyte of name, say) never keeps `q` or a signal
    /// waiting. The second frame here is still being made, until the test lets it go, when the key comes.
    @Test("q, SIGTERM and SIGHUP are answered while a frame is still being drawn", arguments: [
        TerminalInput.key(.character("q")), .signal(.terminate), .signal(.hangup),
    ])
    func answeredWhileDrawing(last: TerminalInput) throws {
        let release = DispatchSemaphore(value: 0)
        let renders = Counter(), finishedFrames = Counter()
        let keyboard = Pipe()
        let terminal = ScriptedTerminal([.input(.key(.left)), .input(last)])
        terminal.inputDescriptors = [keyboard.fileHandleForReading.fileDescriptor]
        let session = DashboardSession(load: { Fixture.standard() }, today: { Fixture.lastDay }, render: { state in
            if renders.add() == 2 {
                // The key is pressed while this frame is drawn, and the frame goes on until the test lets it go.
                keyboard.fileHandleForWriting.write(Data("q".utf8))
                _ = release.wait(timeout: .now() + 60)
                finishedFrames.add()
            }
            return DashboardRenderer.render(state, size: state.size)
        })
        let exit = try session.run(on: terminal)
        let unfinished = finishedFrames.count
        release.signal()
        if case .signal(let signal) = last { #expect(exit == .signal(signal)) } else { #expect(exit == .quit) }
        #expect(unfinished == 0, "the session ended while the second frame was still being drawn")
        #expect(terminal.frames.count == 1, "the first frame, drawn at once; the second never finished")
        #expect(renders.count == 2)
    }
}
