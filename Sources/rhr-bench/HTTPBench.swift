import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRFormats
import RHRStore
import RHRTestSupport
import Synchronization

// The phone feeds' benchmark (docs/design.md section 7): a day's Health Auto Export payload (heart rate every
// minute, aggregated, and the day's resting value: about 140 KB, as the app's REST API automation posts it)
// applied over HTTP on loopback. Targets: p99 ≤ 20 ms one request at a time; ≥ 200 requests/s with 4 clients,
// each a phone with its own token. Baseline from the same run: the same payloads read and their batches applied
// to a store in this process, one thread (what parsing and the store alone allow). Then what a phone posting every
// 15 minutes mostly sends, the same day again (it must change nothing), and `GET /v1/status` on the stream of the
// latency run (it must stay a few lookups, however many days the stream holds).
//
// Last, the feeds under abuse (`HTTPLoadBench`; `--load-only` runs that part alone).
//
//   rhr-bench http [--requests N] [--clients N] [--load-only]
//
// Options other sections take are passed over, so `scripts/bench` can hand every section the same ones.
enum HTTPBench {
    struct Options {
        var requests = 300
        var clients = 4
        var loadOnly = false

        init(_ arguments: [String]) throws {
            try BenchArguments.read(arguments, into: &self, ["--requests": .count(\.requests), "--clients": .count(\.clients),
                                                             "--load-only": .flag(\.loadOnly)])
        }
    }

    static let first = LocalDay(year: 2024, month: 1, day: 1)!

    static func run(_ arguments: [String]) throws {
        let options = try Options(arguments)
        let directory = try TemporaryDirectory(prefix: "rhr-bench-http")
        defer { withExtendedLifetime(directory) {} }
        let zone = TimeZone(identifier: "Europe/Berlin")!
        if options.loadOnly {
            let daemon = try BenchDaemon(directory: directory.path, storePath: directory.storePath, zone: zone) { configuration in
                var http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
                http.ratePerSecond = 1_000_000
                http.rateBurst = 1_000_000
                configuration.http = http
            }
            try HTTPLoadBench.run(daemon: daemon, token: try FeedTokens(forStore: directory.storePath).create(name: "phone"))
            return
        }
        // Each client posts days of its own (so every request applies a day, none is a repeat); one set more for
        // the latency run.
        let payloads = (0...options.clients).map { client in
            (0..<options.requests).map { i in
                PhonePayloads.healthAutoExportDay(first.adding(days: i), resting: Double(50 + (i + client) % 15),
                                                  source: "Bench Watch \(client)")
            }
        }
        let size = payloads[0][0].count

        // Baseline: read and apply in this process, one thread.
        let direct = try HealthDatabase(path: directory.file("direct.sqlite"), machineZone: zone)
        var directTimes: [Double] = []
        let directStart = DaemonBench.now()
        for (i, body) in payloads[0].enumerated() {
            let t0 = DaemonBench.now()
            let stream = FeedTokens.stream(ofToken: "bench-0")
            let payload = try HealthAutoExportReader.payload(bytes: body, label: "day \(i)", options: ImportOptions(machineZone: zone))
            let asOf = Timestamp(date: Date(), offsetSeconds: 3600)
            _ = try direct.apply(payload.imported(on: .phoneFeed(stream: stream, receivedAt: asOf)).batches)
            directTimes.append(DaemonBench.seconds(since: t0))
        }
        let directRate = Double(directTimes.count) / DaemonBench.seconds(since: directStart)

        let daemon = try BenchDaemon(directory: directory.path, storePath: directory.storePath, zone: zone) { configuration in
            var http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            http.ratePerSecond = 1_000_000
            http.rateBurst = 1_000_000
            configuration.http = http
        }
        let tokens = FeedTokens(forStore: directory.storePath)
        let names = (0...options.clients).map { "bench-\($0)" }
        let secrets = try names.map { try tokens.create(name: $0) }
        let port = daemon.server.httpPort ?? 0

        // One phone, one request at a time: the latency of a request, applied.
        let single = try HTTPTestClient(port: port)
        var latencies: [Double] = []
        for body in payloads[options.clients] {
            let t0 = DaemonBench.now()
            let answer = try single.post("/v1/health-auto-export", token: secrets[options.clients], json: body, timeout: 30)
            latencies.append(DaemonBench.seconds(since: t0))
            guard answer.status == 200, answer.json?["added"]?.int64 == 1 else { throw DaemonError("request refused: \(answer.text)") }
        }

        // The last day again and again, as a phone re-sends its period: nothing changes, nothing is stored.
        var repeats: [Double] = []
        for _ in 0..<min(options.requests, 100) {
            let t0 = DaemonBench.now()
            let answer = try single.post("/v1/health-auto-export", token: secrets[options.clients],
                                         json: payloads[options.clients].last!, timeout: 30)
            repeats.append(DaemonBench.seconds(since: t0))
            guard answer.status == 200, answer.json?["days"]?.array?.isEmpty == true else {
                throw DaemonError("a repeated request changed something: \(answer.text)")
            }
        }
        // The phone's status: its stream's freshness and counts.
        var statuses: [Double] = []
        for _ in 0..<100 {
            let t0 = DaemonBench.now()
            let answer = try single.request("GET", "/v1/status", headers: [("api-key", secrets[options.clients])])
            statuses.append(DaemonBench.seconds(since: t0))
            guard answer.status == 200 else { throw DaemonError("status refused: \(answer.text)") }
        }

        // All phones at once, each its own token, stream and days: requests per second.
        let failures = Mutex<[String]>([])
        let runStart = DaemonBench.now()
        let done = onThreads(options.clients) { client in
            do {
                let connection = try HTTPTestClient(port: port)
                for body in payloads[client] {
                    let answer = try connection.post("/v1/health-auto-export", token: secrets[client], json: body, timeout: 30)
                    if answer.status != 200 { failures.withLock { $0.append(answer.text) } }
                }
            } catch {
                failures.withLock { $0.append("client \(client): \(error)") }
            }
        }
        done.wait()
        let elapsed = DaemonBench.seconds(since: runStart)
        if let failure = failures.withLock({ $0.first }) { throw DaemonError(failure) }
        let total = options.clients * options.requests
        let rate = Double(total) / elapsed

        let p50 = DaemonBench.percentile(latencies, 0.5) * 1000, p99 = DaemonBench.percentile(latencies, 0.99) * 1000
        let directP50 = DaemonBench.percentile(directTimes, 0.5) * 1000, directP99 = DaemonBench.percentile(directTimes, 0.99) * 1000
        print(String(format: "http: a day's Health Auto Export payload (%@ bytes, 1,441 points), one request at a time: "
                     + "p50 %.2f ms  p99 %.2f ms over %@ requests  (target p99 ≤ 20 ms: %.2f × target)",
                     DaemonBench.grouped(size), p50, p99, DaemonBench.grouped(latencies.count), p99 / 20))
        print(String(format: "http: %d clients, each its own token: %@ requests in %.2f s, %@ requests/s  (target ≥ 200/s: %.2f × target)",
                     options.clients, DaemonBench.grouped(total), elapsed, DaemonBench.grouped(Int(rate)), rate / 200))
        print(String(format: "http: baseline: the same payloads read and applied in-process, one thread: p50 %.2f ms  p99 %.2f ms, "
                     + "%@ /s  (HTTP p99 = %.2f × in-process; 4 clients = %.2f × in-process rate)",
                     directP50, directP99, DaemonBench.grouped(Int(directRate)), p99 / max(directP99, 0.000_001), rate / directRate))
        print(String(format: "http: the same day again (a phone re-sending its period), no change: p50 %.2f ms  p99 %.2f ms over %d requests",
                     DaemonBench.percentile(repeats, 0.5) * 1000, DaemonBench.percentile(repeats, 0.99) * 1000, repeats.count))
        print(String(format: "http: GET /v1/status on a stream of %d days: p50 %.2f ms  p99 %.2f ms over %d requests",
                     options.requests, DaemonBench.percentile(statuses, 0.5) * 1000, DaemonBench.percentile(statuses, 0.99) * 1000,
                     statuses.count))
        try HTTPLoadBench.run(daemon: daemon, token: secrets[options.clients])
    }
}
