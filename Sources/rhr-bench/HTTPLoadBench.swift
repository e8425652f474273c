import Foundation
import RHRTestSupport
import Synchronization

// The phone feeds under abuse, the last part of `rhr-bench http` (alone: `rhr-bench http
// --load-only`): a good phone's latency while 200 slow connections from one other address trickle their request
// heads, and the bodies the daemon holds at once when 32 large requests come together. Loopback only; bounded in
// time and count.
enum HTTPLoadBench {
    static func run(daemon: BenchDaemon, token: String) throws {
        let port = daemon.server.httpPort ?? 0
        // 200 connections from 127.0.0.3, one header byte each half second for the whole run.
        let slow = (0..<200).compactMap { _ in try? HTTPTestClient(port: port, timeout: 2, source: "127.0.0.3") }
        let trickling = TricklingHeads(slow)
        // The good phone: a new connection for each request, as a phone's automation makes one, for 5 s.
        var latencies: [Double] = []
        var refused: [Int: Int] = [:]
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            let t0 = DaemonBench.now()
            let status = (try? HTTPTestClient(port: port, timeout: 5)
                .request("GET", "/v1/status", headers: [("api-key", token)], timeout: 5).status) ?? 0
            latencies.append(DaemonBench.seconds(since: t0))
            if status != 200 { refused[status, default: 0] += 1 }
            usleep(20_000)
        }
        trickling.stop()
        _ = trickling.wait()
        print(String(format: "http: a phone's GET /v1/status while 200 slow connections from one other address trickle their "
                     + "heads: p50 %.2f ms  p99 %.2f ms over %d requests, %d not answered 200%@",
                     DaemonBench.percentile(latencies, 0.5) * 1000, DaemonBench.percentile(latencies, 0.99) * 1000,
                     latencies.count, refused.values.reduce(0, +),
                     refused.isEmpty ? "" : " (" + refused.sorted { $0.key < $1.key }
                        .map { "\($0.value) × \($0.key == 0 ? "no answer" : String($0.key))" }.joined(separator: ", ") + ")"))

        // 32 requests announcing 16 MiB each, all at once: what fits the bodies' budget is read, the rest is answered
        // 503 before a byte of it is read.
        let size = 16 << 20
        let answers = Mutex<[Int]>([])
        let body = [UInt8](repeating: 0x20, count: size - 2) + Array("{}".utf8)
        let posting = onThreads(32) { _ in
            let status = (try? HTTPTestClient(port: port, timeout: 30).request(
                "POST", "/v1/health-auto-export", headers: [("Authorization", "Bearer \(token)"),
                                                            ("Content-Type", "application/json")],
                body: body, timeout: 60).status) ?? 0
            answers.withLock { $0.append(status) }
        }
        posting.wait()
        let statuses = answers.withLock { $0 }
        let budget = daemon.server.configuration.http?.maxBodiesInFlight ?? 0
        // A refused one gets 503 and its connection closed while this client still sends the body: most see the close.
        print(String(format: "http: 32 requests of 16 MiB at once: %d read, %d refused before their bodies were read; bodies "
                     + "held at once at most %.0f MiB  (cap %.0f MiB)", statuses.filter { $0 != 503 && $0 != 0 }.count,
                     statuses.filter { $0 == 503 || $0 == 0 }.count, Double(daemon.server.httpPeakBodyBytes) / 1_048_576,
                     Double(budget) / 1_048_576))
    }
}
