import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRScreen
import RHRTestSupport
import Testing

/// The feed adapter over a real daemon socket: what the daemon sends becomes dashboard events.
@Suite("Daemon feed: a daemon subscription as dashboard events", .serialized)
@MainActor
struct DaemonFeedTests {
    let today = day("2026-03-13")

    func draft(_ n: Int, value: Double) -> SyncBatch {
        History.bridge(n, asOf: "2026-03-13T0\(n):00:00+01:00", [History.watchSample(today, value, uuid: "D1", minutes: 600)])
    }

    @Test("No daemon listening: no connection, no event, no error; it looks again every few seconds")
    func noDaemon() throws {
        let dir = try TemporaryDirectory()
        _ = try History.build(at: dir.storePath)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath, explicit: true)
        #expect(!feed.isConnected && feed.fileDescriptor == nil)
        #expect(feed.start().isEmpty && feed.receive().isEmpty)
        #expect(feed.idleInterval == 3000)
    }

    @Test("A daemon on this store: live from the start; each push arrives as a store change naming its days")
    func pushes() throws {
        let dir = try TemporaryDirectory()
        _ = try History.build(at: dir.storePath)
        let daemon = try liveDaemon(dir)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.path + "/./rhr.sqlite")
        #expect(feed.isConnected && feed.idleInterval == nil)
        let started = feed.start()
        guard case .liveFeedStarted(let revision, let socket)? = started.first, started.count == 1 else {
            Issue.record("expected one liveFeedStarted, got \(started)")
            return
        }
        #expect(revision == 3 && socket == dir.socketPath)

        for (n, value) in [(1, 61.0), (2, 59)] {
            let reply = try daemon.push(draft(n, value: value))
            #expect(readable(feed.fileDescriptor), "no event within 10 s")
            let events = feed.receive()
            guard case .storeChanged(let r, let days)? = events.first, events.count == 1 else {
                Issue.record("expected one storeChanged, got \(events)")
                return
            }
            #expect(r == reply.revision && r == revision + Int64(n))
            #expect(days == reply.changedDays)
        }
        #expect(feed.receive().isEmpty, "nothing more arrived")
    }

    @Test("Another process writes the store: a resync asks for a full read")
    func resync() throws {
        let dir = try TemporaryDirectory()
        let database = try History.build(at: dir.storePath)
        let daemon = try liveDaemon(dir)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath)
        _ = feed.start()
        _ = try database.apply(draft(1, value: 61))
        #expect(readable(feed.fileDescriptor), "no event within 10 s")
        let events = feed.receive()
        guard case .storeChanged(let revision, let days)? = events.first else {
            Issue.record("expected a storeChanged, got \(events)")
            return
        }
        #expect(revision == 4 && days.isEmpty)
        _ = daemon
    }

    @Test("The daemon stops: the feed says so once and leaves no descriptor to watch; a new daemon is followed")
    func stopAndReturn() throws {
        let dir = try TemporaryDirectory()
        _ = try History.build(at: dir.storePath)
        var daemon: TestDaemon? = try liveDaemon(dir)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath, retrySeconds: 0.05)
        _ = feed.start()
        try daemon?.stop()
        daemon = nil
        #expect(readable(feed.fileDescriptor), "the closed connection did not wake the loop")
        let events = feed.receive()
        guard case .liveFeedEnded? = events.last else {
            Issue.record("expected liveFeedEnded, got \(events)")
            return
        }
        #expect(feed.fileDescriptor == nil && !feed.isConnected)
        #expect(feed.receive().isEmpty)
        #expect(feed.idleInterval == 50)
        #expect(feed.idle().isEmpty, "no daemon yet")

        daemon = try liveDaemon(dir)
        var started: [DashboardEvent] = []
        #expect(eventually { started = feed.idle(); return !started.isEmpty })
        guard case .liveFeedStarted? = started.first else {
            Issue.record("expected liveFeedStarted, got \(started)")
            return
        }
        #expect(feed.isConnected)
        _ = try daemon?.push(draft(1, value: 61))
        #expect(readable(feed.fileDescriptor))
        #expect(feed.receive().count == 1)
    }

    @Test("A daemon that serves another store is not followed; a note says so when its socket was named")
    func otherStore() throws {
        let dir = try TemporaryDirectory(), other = try TemporaryDirectory()
        _ = try History.build(at: dir.storePath)
        _ = try History.build(at: other.storePath)
        let daemon = try liveDaemon(dir, storePath: other.storePath)
        let quiet = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath)
        #expect(!quiet.isConnected && quiet.start().isEmpty)
        let named = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath, explicit: true)
        let events = named.start()
        guard case .liveFeedNote(let note)? = events.first else {
            Issue.record("expected a note, got \(events)")
            return
        }
        #expect(note == "The daemon on \(dir.socketPath) serves another store (\(other.storePath)); not following it.")
        #expect(!named.isConnected && named.fileDescriptor == nil)
        _ = daemon
    }

    @Test("The dashboard over a real daemon: a push is patched in and drawn with its mark; then the daemon stops")
    func session() throws {
        let dir = try TemporaryDirectory()
        _ = try History.build(at: dir.storePath)
        let daemon = try liveDaemon(dir)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath)
        let background = BackgroundStore(path: dir.storePath, machineZone: utc)
        let loads = Counter()
        let session = DashboardSession(load: {
            loads.add()
            return try background.read { try fullData($0) }
        }, loadDays: { days in
            try background.read { try DashboardDeltaReader.read($0, days: days) }
        }, feed: feed, today: { day("2026-03-13") })
        // The bridge's first batch (a new stream) and a replacement of its draft, each pushed while the
        // dashboard waits, then the daemon stopped.
        let terminal = WaitingTerminal(size: TerminalSize(width: 120, height: 40))
        // Each push wakes the loop twice (the event, then the finished read); the stop once. The stop is timed
        // clear of a minute's end, so the minute the header shows is known.
        var stopped: [String] = []
        func minute(_ date: Date) -> String {
            Timestamp(date: date, offsetSeconds: TimeZone.current.secondsFromGMT(for: date)).text(thisYear: 2026)
        }
        terminal.steps = [
            { _ = try? daemon.push(self.draft(1, value: 61)) }, {},
            { _ = try? daemon.push(self.draft(2, value: 47)) }, {},
            {
                eventually(timeout: 10, every: 0.1) { Calendar.current.component(.second, from: Date()) < 50 }
                stopped.append(minute(Date()))
                #expect(throws: Never.self) { try daemon.stop() }
                stopped.append(minute(Date()))
            },
        ]
        let initial = try background.read { try fullData($0) }
        _ = try session.run(on: terminal, initial: initial)
        let screens = terminal.frames.map { $0.lines.joined(separator: "\n") }
        #expect(screens.first?.contains(" live ") == true)
        let patched = try #require(screens.first { $0.contains("  47 p") })
        #expect(patched.contains("▸Fri 13 Mar 2026↻"))
        #expect(patched.contains("Updated: 13 Mar."))
        #expect(loads.count == 1, "the replacement was patched in; only the new stream was read in full")
        try #require(stopped.count == 2 && stopped[0] == stopped[1], "the stop took more than ten seconds: \(stopped)")
        // At 120 columns the stopped state takes its middle form whatever the date's width; the currency beside it
        // takes what is left.
        #expect(terminal.frames.last?.lines[1].hasSuffix("  daemon stopped; store as of \(stopped[0]) ") == true,
                "\(terminal.frames.last?.lines[1] ?? "no frame")")
        #expect(terminal.watched.last?.count == 2, "only the loader's and the renderer's descriptors are watched once the daemon is gone")
    }
}

/// A terminal that runs one step, then waits (with a deadline) until a watched descriptor is readable and
/// reports it; `q` when the steps are done.
@MainActor
final class WaitingTerminal: TerminalDevice {
    let size: TerminalSize
    let capabilities = TerminalCapabilities.full
    var steps: [() -> Void] = []
    var frames: [ScreenBuffer] = []
    var watched: [[Int32]] = []

    init(size: TerminalSize) { self.size = size }

    func draw(_ buffer: ScreenBuffer) { frames.append(buffer) }

    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        watched.append(watching)
        guard !steps.isEmpty else { return .key(.character("q")) }
        steps.removeFirst()()
        var fds = watching.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 10_000) > 0, let ready = fds.first(where: { $0.revents != 0 }) else {
            Issue.record("nothing became readable within 10 s")
            return .key(.character("q"))
        }
        return .readable(ready.fd)
    }
}
