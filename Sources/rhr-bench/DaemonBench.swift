import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRStore
import Synchronization
import class RHRTestSupport.TemporaryDirectory
import func RHRTestSupport.onThreads

// The daemon benchmark (docs/design.md section 7): 4 clients push small batches for 10 s while a subscriber
// measures push → event latency. Targets: ≥ 2,000 pushes/s, p99 ≤ 20 ms. Baselines from the same run: the
// same batches applied straight to a store in-process (what the store alone allows), and a bare `hello`
// round trip over the same socket (what the socket and the loop cost).
//
//   rhr-bench daemon [--seconds N] [--clients N]
//
// Options other sections take are passed over, so `scripts/bench` can hand every section the same ones.
enum DaemonBench {
    struct Options {
        var seconds = 10.0
        var clients = 4

        init(_ arguments: [String]) throws {
            try BenchArguments.read(arguments, into: &self, ["--seconds": .seconds(\.seconds), "--clients": .count(\.clients)])
        }
    }

    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments)
        // A short path (a socket path holds at most 107 bytes), removed at the end.
        let scratch = try TemporaryDirectory(prefix: "rhr-bench-daemon")
        defer { withExtendedLifetime(scratch) {} }
        let directory = scratch.path
        let zone = TimeZone(identifier: "UTC")!

        // Both stores hold 10 years of one value a day from each client's watch, as a real one would.
        for name in ["direct.sqlite", "rhr.sqlite"] {
            let store = try HealthDatabase(path: directory + "/" + name, machineZone: zone)
            _ = try store.apply((0...options.clients).map { history(client: $0) })
        }

        // Baseline 1: the store alone, one thread, the same kind of batches, for a third of the time.
        let direct = try HealthDatabase(path: directory + "/direct.sqlite", machineZone: zone)
        var directCount = 0
        let directStart = now()
        while seconds(since: directStart) < options.seconds / 3 {
            directCount += 1
            _ = try direct.apply(batch(client: 0, n: directCount))
        }
        let directRate = Double(directCount) / seconds(since: directStart)

        let daemon = try BenchDaemon(directory: directory, storePath: directory + "/rhr.sqlite", zone: zone)
        defer { withExtendedLifetime(daemon) {} }

        // Baseline 2: a bare round trip over the socket.
        let echo = try DaemonClient(socketPath: daemon.socketPath)
        var roundTrips: [Double] = []
        for _ in 0..<2000 {
            let t0 = now()
            _ = try echo.request(.hello)
            roundTrips.append(seconds(since: t0))
        }
        echo.close()

        // The run: N pushers, one subscriber (subscribed before the first push).
        let socketPath = daemon.socketPath
        let record = Record()
        let stop = Flag()
        let pushersDone = DispatchGroup()
        let listening = DispatchSemaphore(value: 0), subscribed = DispatchSemaphore(value: 0)
        Thread {
            defer { listening.signal() }
            let subscriber: DaemonClient
            do {
                subscriber = try DaemonClient(socketPath: socketPath)
                _ = try subscriber.subscribe()
            } catch {
                record.fail("subscriber: \(error)")
                subscribed.signal()
                return
            }
            subscribed.signal()
            while true {
                guard let event = try? subscriber.nextEvent(timeout: 0.5) else {
                    if stop.isSet && pushersDone.wait(timeout: .now()) == .success { break }
                    continue
                }
                let received = now()
                switch event {
                case .changed(let revision, _): record.heard(revision: revision, at: received)
                case .resync: record.fail("the subscriber fell behind: \(event)")
                case .imported, .other: break
                }
            }
        }.start()
        subscribed.wait()
        let runStart = now()
        onThreads(options.clients, group: pushersDone) { client in
            do {
                let connection = try DaemonClient(socketPath: socketPath)
                var n = 0
                while !stop.isSet {
                    n += 1
                    let request = DaemonRequest.push(batch(client: client + 1, n: n)).json(id: .number(JSONNumber(n)))
                    let sent = now()
                    try connection.send(request)
                    let reply = try connection.nextReply(timeout: 30)
                    guard let revision = try? reply.decode(BatchOutcome.self).revision else {
                        record.fail("client \(client + 1) push \(n): \(reply)")
                        return
                    }
                    record.pushed(revision: revision, at: sent)
                }
            } catch {
                record.fail("client \(client + 1): \(error)")
            }
        }
        Thread.sleep(forTimeInterval: options.seconds)
        stop.set()
        pushersDone.wait()
        let elapsed = seconds(since: runStart)
        listening.wait()

        let result = record.result()
        if let failure = result.failures.first { throw DaemonError(failure) }
        let rate = Double(result.pushes) / elapsed
        let p50 = percentile(result.latencies, 0.50) * 1000, p99 = percentile(result.latencies, 0.99) * 1000
        let maximum = (result.latencies.max() ?? 0) * 1000
        let echoP50 = percentile(roundTrips, 0.50) * 1000, echoP99 = percentile(roundTrips, 0.99) * 1000
        print(String(format: "daemon: %d clients pushing 1-sample batches for %.1f s: %@ pushes, %@ pushes/s  (target ≥ 2,000/s: %.2f × target)",
                     options.clients, elapsed, grouped(result.pushes), grouped(Int(rate)), rate / 2000))
        print(String(format: "daemon: push → subscriber event  p50 %.2f ms  p99 %.2f ms  max %.1f ms  over %@ events  (target p99 ≤ 20 ms: %.3f × target)",
                     p50, p99, maximum, grouped(result.latencies.count), p99 / 20))
        print(String(format: "daemon: baseline: the same batches applied to a store in-process, one thread: %@ /s  (daemon = %.2f × in-process)",
                     grouped(Int(directRate)), rate / directRate))
        print(String(format: "daemon: baseline: hello round trip over the socket  p50 %.3f ms  p99 %.3f ms  (push p50 latency = %.1f × round trip)",
                     echoP50, echoP99, p50 / max(echoP50, 0.000_001)))
        if result.missing > 0 { print("daemon: \(result.missing) acknowledged pushes had no event") }
    }

    static let asOf = Timestamp.parse("2026-11-29T08:00:00+01:00")!
    static let today = LocalDay(year: 2026, month: 11, day: 29)!

    static func writer(_ client: Int) -> Writer {
        Writer(store: .healthKit, name: "Bench Watch \(client)", bundleIdentifier: "com.apple.health.B\(client)", productType: "Watch7,1")
    }

    /// One resting sample of a client's watch on a day; `second` moves its start (HealthKit samples are told
    /// apart by writer, start and end).
    static func sample(client: Int, day: LocalDay, second: Int, value: Double, uuid: String) -> RestingSample {
        let start = Date(timeIntervalSince1970: day.startEpochSeconds - 3600 + 180 + Double(second))
        return RestingSample(store: .healthKit, uuid: uuid, writer: writer(client), start: start,
                             end: start.addingTimeInterval(80_000), offsetSeconds: 3600, value: value)
    }

    /// Ten years of one value a day, delivered once by an earlier sync.
    static func history(client: Int) -> SyncBatch {
        let samples = (1...3650).map { d in
            sample(client: client, day: today.adding(days: -d), second: 0, value: Double(50 + d % 13), uuid: "H\(client)-\(d)")
        }
        return SyncBatch(store: .healthKit, stream: "history-\(client)", asOf: asOf, resting: samples)
    }

    /// The n-th batch of a client's live feed: one new sample of today or yesterday (as a bridge delivers
    /// the watch's estimates while they are revised), its stream's cursor moving on by one.
    static func batch(client: Int, n: Int) -> SyncBatch {
        let value = sample(client: client, day: today.adding(days: -(n % 2)), second: n, value: Double(50 + n % 17), uuid: "B\(client)-\(n)")
        return SyncBatch(store: .healthKit, stream: "bench-\(client)", asOf: asOf,
                         cursor: .init(previous: n == 1 ? nil : "c\(n - 1)", next: "c\(n)"), resting: [value])
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    static func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }

    /// When each acknowledged push was sent and when its event arrived, by store revision.
    final class Record: Sendable {
        private struct Times {
            var sent: [Int64: UInt64] = [:]
            var received: [Int64: UInt64] = [:]
            var failures: [String] = []
        }
        private let times = Mutex(Times())

        func pushed(revision: Int64, at time: UInt64) { times.withLock { $0.sent[revision] = time } }

        func heard(revision: Int64, at time: UInt64) { times.withLock { $0.received[revision] = time } }

        func fail(_ message: String) { times.withLock { $0.failures.append(message) } }

        func result() -> (pushes: Int, latencies: [Double], missing: Int, failures: [String]) {
            times.withLock { times in
                var latencies: [Double] = []
                var missing = 0
                for (revision, start) in times.sent {
                    if let end = times.received[revision] { latencies.append(Double(end - start) / 1e9) } else { missing += 1 }
                }
                return (times.sent.count, latencies, missing, times.failures)
            }
        }
    }

    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }
}
