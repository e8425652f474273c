import Foundation
import RHRCore
import RHRDaemonClient
import RHRDashboard
import RHRLive
import RHRScreen
import RHRStore
import RHRSystem
import class RHRTestSupport.TemporaryDirectory

// The live dashboard benchmark (docs/design.md section 6: "updates live within a tenth of a second of a push"):
// a daemon on a store of 10 years × 8 writers, the dashboard session in this process with its real daemon
// feed and store reads, drawing into a terminal that notes when a frame first shows the pushed value. A
// bridge pushes a new value for today's watch estimate, one push at a time; each push is timed from just
// before it is sent until that frame is drawn. Same-run baselines: a bare subscriber's push → event latency
// (what the daemon costs), and the dashboard reading the whole store on every push (as it did before).
//
//   rhr-bench live [--years N] [--pushes N] [--dir DIR] [--keep]
enum LiveDashboardBench {
    struct Options {
        /// The store pushed to, built as the dashboard section builds its own (`--years`, `--dir`, `--keep`), of
        /// seed 1 whatever `--seed` says.
        var store: DashboardBench.Options
        var pushes = 300

        init(_ arguments: [String]) throws {
            store = try DashboardBench.Options(arguments)
            store.seed = 1
            try BenchArguments.read(arguments, into: &self, ["--pushes": .count(\.pushes)])
        }
    }

    static let zone = TimeZone(identifier: "Europe/Berlin")!

    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments)
        let store = options.store
        try FileManager.default.createDirectory(atPath: store.dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = store.dir + "/live-\(store.years)y.sqlite"
        let (samples, buildSeconds) = try DashboardBench.buildStore(at: path, options: store)
        defer { if !store.keep { DashboardBench.removeStore(path) } }
        let today = DashboardHistory(years: store.years, lastDay: MachineClock.today(), seed: store.seed).lastDay
        print("live: store of \(store.years) years × \(DashboardHistory.writerCount) writers, \(samples) resting samples (built in "
              + "\(DashboardBench.format(buildSeconds * 1000)) ms); pushes of today's watch estimate at 200×60")

        // The bridge's stream exists before the dashboard opens (a new stream is read in full, once).
        let database = try HealthDatabase(path: path, machineZone: zone)
        _ = try database.apply(bridgeBatch(n: 0, today: today))

        // In process, without the daemon: what a live update costs the dashboard, step by step.
        var n = 1
        try inProcess(database: database, path: path, today: today, next: &n)

        let scratch = try TemporaryDirectory(prefix: "rhr-bench-live")
        defer { withExtendedLifetime(scratch) {} }
        let daemon = try BenchDaemon(directory: scratch.path, storePath: path, zone: zone)
        defer { withExtendedLifetime(daemon) {} }
        let socket = daemon.socketPath

        let live = try MainActor.assumeIsolated {
            try measure(socket: socket, path: path, today: today, firstPush: &n,
                        pushes: options.pushes, patch: true)
        }
        let full = try MainActor.assumeIsolated {
            try measure(socket: socket, path: path, today: today, firstPush: &n,
                        pushes: max(10, options.pushes / 15), patch: false)
        }
        func line(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            return "\(name)  p50 \(DashboardBench.ms(DashboardBench.percentile(sorted, 0.5)))  "
                + "p99 \(DashboardBench.ms(DashboardBench.percentile(sorted, 0.99)))  max \(DashboardBench.ms(sorted.last ?? 0))"
        }
        print("  " + line("push → changed frame drawn, over \(live.frames.count) pushes:", live.frames)
              + "  (target ≤ 100 ms: p99 ratio \(DashboardBench.ratio(DashboardBench.percentile(live.frames.sorted(), 0.99), 0.100)))")
        print("  " + line("baseline: push → event at a bare subscriber, same pushes:", live.events))
        let share = zip(live.frames, live.events).map { max(0, $0 - $1) }
        print("  " + line("the dashboard's own share (frame − event):", share))
        print("  " + line("before, reading the whole store on each push (\(full.frames.count) pushes):", full.frames))
        if live.missed + full.missed > 0 { print("  \(live.missed + full.missed) pushes never showed within 5 s") }
    }

    // MARK: - In process

    /// Reading a changed day, patching the index, rendering: medians over 50 rounds on the real store.
    static func inProcess(database: HealthDatabase, path: String, today: LocalDay, next: inout Int) throws {
        var index = DashboardIndex(try DashboardLoader.load(database, source: path))
        var reads: [Double] = [], patches: [Double] = [], renders: [Double] = []
        for _ in 1...50 {
            let outcome = try database.apply(bridgeBatch(n: next, today: today))
            next += 1
            let t0 = DashboardBench.now()
            let delta = try DashboardDeltaReader.read(database, days: outcome.changedDays)
            let t1 = DashboardBench.now()
            guard let patch = index.patched(with: delta, revision: outcome.revision) else {
                throw DashboardBench.BenchError("a bridge push could not be patched")
            }
            let t2 = DashboardBench.now()
            var state = DashboardState(index: patch.index, size: TerminalSize(width: 200, height: 60), today: today)
            state.settings = DashboardBench.aids
            state.changedDays = patch.changedDays
            _ = DashboardRenderer.render(state, size: state.size)
            let t3 = DashboardBench.now()
            index = patch.index
            reads.append(t1 - t0)
            patches.append(t2 - t1)
            renders.append(t3 - t2)
        }
        // The store's share, query by query (one day, as a live update reads it).
        var queryTimes: [String] = []
        for (name, body) in [("samples", { _ = try database.samples(from: today, to: today) }),
                             ("revisions", { _ = try database.revisions(from: today, to: today) }),
                             ("heartRateDays", { _ = try database.heartRateDays(from: today, to: today) }),
                             ("streams", { _ = try database.streams() }),
                             ("contents (whole store, not read: counted by the patch)", { _ = try database.contents() })]
            as [(String, () throws -> Void)] {
            var times: [Double] = []
            for _ in 0..<20 {
                let t = DashboardBench.now()
                try body()
                times.append(DashboardBench.now() - t)
            }
            queryTimes.append("\(name) \(DashboardBench.ms(DashboardBench.median(times)))")
        }
        print("  in process, per push (median of 50): read the changed day \(DashboardBench.ms(DashboardBench.median(reads))), "
              + "patch the index \(DashboardBench.ms(DashboardBench.median(patches))), "
              + "render \(DashboardBench.ms(DashboardBench.median(renders)))")
        print("    store queries for one day (median of 20): " + queryTimes.joined(separator: ", "))
    }

    // MARK: - Through the daemon

    /// Opens the dashboard session on the store with a real daemon feed, pushes `pushes` batches one at a
    /// time, and times each until the frame showing it is drawn; a bare subscriber times the event.
    @MainActor
    static func measure(socket: String, path: String, today: LocalDay, firstPush: inout Int, pushes: Int,
                        patch: Bool) throws -> (frames: [Double], events: [Double], missed: Int) {
        let background = BackgroundStore(path: path, machineZone: zone)
        let feed = DaemonFeed(socketPath: socket, storePath: path)
        guard feed.isConnected else { throw DashboardBench.BenchError("the dashboard did not connect to the daemon") }
        let source = path
        let load: @Sendable () throws -> DashboardData = {
            try background.read { try DashboardLoader.load($0, source: source) }
        }
        let loadDays: @Sendable (Set<LocalDay>) throws -> DashboardDelta = { days in
            try background.read { database in try DashboardDeltaReader.read(database, days: days) }
        }
        let session = DashboardSession(load: load, loadDays: patch ? loadDays : nil, feed: feed, today: { today })
        let terminal = try BenchTerminal(size: TerminalSize(width: 200, height: 60))

        let first = firstPush
        firstPush += pushes
        let record = terminal.record
        let pusher = Thread {
            defer { record.finish() }
            do {
                let subscriber = try DaemonClient(socketPath: socket)
                _ = try subscriber.subscribe()
                defer { subscriber.close() }
                let client = try DaemonClient(socketPath: socket)
                record.waitForFirstFrame()
                for n in first..<(first + pushes) {
                    let expected = " \(value(n))"
                    record.expect(expected)
                    let start = DashboardBench.now()
                    let reply = try client.push(bridgeBatch(n: n, today: today))
                    guard let revision = try? reply.decode(BatchOutcome.self).revision else {
                        throw DashboardBench.BenchError("push \(n): \(reply)")
                    }
                    // The subscriber's event for this revision (it may have come before the reply).
                    var event: Double?
                    while event == nil {
                        let message = try subscriber.nextEvent(timeout: 5)
                        if case .changed(revision, _) = message { event = DashboardBench.now() - start }
                    }
                    record.waitForFrame(start: start, event: event ?? 0)
                }
            } catch {
                record.fail("\(error)")
            }
        }
        pusher.start()
        // With the lines, the 7-day mean and the usual range on, as the targets are stated.
        _ = try session.run(on: terminal, initial: try load(), settings: DashboardBench.aids)
        if let failure = record.failure { throw DashboardBench.BenchError(failure) }
        return record.result()
    }

    /// The bridge's n-th batch: today's watch estimate (the same sample, a new value each time), read a
    /// second later than the last, and later than the history's export (21:00): R12 lets the newest road speak
    /// for the watch's day, so a bridge older than the export would never be what the table shows.
    static func bridgeBatch(n: Int, today: LocalDay) -> SyncBatch {
        let midnight = today.startEpochSeconds - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: today.startEpochSeconds)))
        let start = Date(timeIntervalSince1970: midnight + 120), end = Date(timeIntervalSince1970: midnight + 7 * 3600 + 1800)
        let offset = zone.secondsFromGMT(for: start)
        let sample = RestingSample(store: .healthKit, uuid: "LIVE-TODAY", writer: DashboardHistory.watch,
                                   device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
                                   start: start, end: end, offsetSeconds: offset, value: Double(value(n)), unit: "count/min",
                                   created: end)
        let asOf = Timestamp(date: Date(timeIntervalSince1970: midnight + 22 * 3600 + Double(n)), offsetSeconds: offset)
        return SyncBatch(store: .healthKit, stream: "bench-bridge", asOf: asOf,
                         cursor: .init(previous: n == 0 ? nil : "b\(n - 1)", next: "b\(n)"), resting: [sample],
                         watchWriters: [DashboardHistory.watch.name], origin: "bench bridge")
    }

    /// 100–199, never the same twice in a row: the value a frame must show in the watch's column of today's row,
    /// where every other value has two digits.
    static func value(_ n: Int) -> Int { 100 + n % 100 }

    /// What the pusher and the terminal share: the text the next frame must show, and the times.
    /// `@unchecked Sendable`: every mutable property is used under `condition` only (the waits need a condition
    /// variable, which `Mutex` does not offer, and the compiler cannot see what `NSCondition` guards); the pipe's
    /// ends never change.
    final class Record: @unchecked Sendable {
        private let condition = NSCondition()
        private var expected: String?
        private var start = 0.0
        private var drawnAt: Double?
        /// The session has drawn its first frame: pushes start after it.
        private var started = false
        private(set) var failure: String?
        private var frames: [Double] = [], events: [Double] = []
        private var missed = 0
        /// Written when the pusher is done; the terminal watches it.
        let stopRead: Int32, stopWrite: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw DashboardBench.BenchError("pipe failed") }
            stopRead = fds[0]
            stopWrite = fds[1]
        }

        deinit {
            close(stopRead)
            close(stopWrite)
        }

        func expect(_ text: String) {
            condition.lock()
            expected = text
            drawnAt = nil
            condition.unlock()
        }

        /// What the terminal asks of each frame: nil when nothing is awaited.
        var awaited: String? {
            condition.lock()
            defer { condition.unlock() }
            if !started {
                started = true
                condition.broadcast()
            }
            return drawnAt == nil ? expected : nil
        }

        func waitForFirstFrame() {
            condition.lock()
            defer { condition.unlock() }
            let deadline = Date().addingTimeInterval(30)
            while !started && condition.wait(until: deadline) {}
        }

        func drawn(at time: Double) {
            condition.lock()
            if drawnAt == nil { drawnAt = time }
            condition.broadcast()
            condition.unlock()
        }

        func waitForFrame(start: Double, event: Double) {
            condition.lock()
            defer { condition.unlock() }
            let deadline = Date().addingTimeInterval(5)
            while drawnAt == nil && condition.wait(until: deadline) {}
            if let drawnAt {
                frames.append(drawnAt - start)
                events.append(event)
            } else {
                missed += 1
            }
            expected = nil
        }

        func fail(_ message: String) {
            condition.lock()
            failure = message
            condition.unlock()
        }

        func finish() {
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
        }

        func result() -> (frames: [Double], events: [Double], missed: Int) {
            condition.lock()
            defer { condition.unlock() }
            return (frames, events, missed)
        }
    }

    /// A terminal that shows nothing: it waits on the session's descriptors like the real one, and notes
    /// when a frame first shows what the pusher waits for. `q` once the pusher is done.
    @MainActor
    final class BenchTerminal: TerminalDevice {
        let size: TerminalSize
        let capabilities = TerminalCapabilities.full
        let record: Record

        init(size: TerminalSize) throws {
            self.size = size
            self.record = try Record()
        }

        func draw(_ buffer: ScreenBuffer) {
            guard let text = record.awaited else { return }
            // The cursor's row (today, where the session opens) with the pushed value in it.
            if buffer.lines.contains(where: { $0.hasPrefix("▸") && $0.contains(text) }) { record.drawn(at: DashboardBench.now()) }
        }

        func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
            var fds = (watching + [record.stopRead]).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return nil }
            if fds.last!.revents != 0 { return .key(.character("q")) }
            return fds.first { $0.revents != 0 }.map { .readable($0.fd) }
        }
    }
}
