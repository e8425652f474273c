import Foundation
import RHRCore
import RHRDaemon
import RHRTestSupport
import Testing

/// The phone feeds hold under abuse and say what they refused (issue 21): slow connections from one address lock
/// nobody else out, and every refusal is a log line.
@Suite("phone feeds under abuse")
struct HTTPAbuseTests {
    /// A daemon with phone feeds whose log lines are kept.
    static func daemon(_ log: Recorder<String>, _ configure: (inout HTTPFeedConfiguration) -> Void = { _ in }) throws -> TestDaemon {
        try TestDaemon { configuration in
            var http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            configure(&http)
            configuration.http = http
            configuration.log = { log.append($0) }
        }
    }

    /// 200 connections from one address that trickle a request head a byte at a time, while a phone at another
    /// address is served at every try. Loopback only; bounded in time and count, it stops by itself.
    @Test(.timeLimit(.minutes(1)))
    func twoHundredSlowConnectionsFromOneAddressLockNobodyElseOut() throws {
        let log = Recorder<String>()
        let daemon = try HTTPAbuseTests.daemon(log)
        let token = try daemon.token("phone")
        let port = daemon.httpPort
        let slow = (0..<200).compactMap { _ in try? HTTPTestClient(port: port, timeout: 2, source: "127.0.0.3") }
        #expect(slow.count == 200)
        let stop = Counter(), trickling = DispatchGroup(), descriptors = slow.map(\.fd)
        trickling.enter()
        Thread {
            defer { trickling.leave() }
            func send(_ text: String) {
                for fd in descriptors { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
            }
            send("POST /v1/health-auto-export HTTP/1.1\r\n")
            // One header byte every half second, for five seconds at most.
            for _ in 0..<10 where stop.count == 0 {
                usleep(500_000)
                send("X")
            }
        }.start()
        var answered: [Int] = []
        var slowest = 0.0
        for _ in 0..<8 {
            let start = Date()
            let status = (try? HTTPTestClient(port: port, timeout: 2).request("GET", "/v1/status", headers: [("api-key", token)],
                                                                                timeout: 2).status) ?? 0
            slowest = max(slowest, Date().timeIntervalSince(start))
            answered.append(status)
            usleep(250_000)
        }
        _ = stop.add()
        #expect(trickling.wait(timeout: .now() + 10) == .success)
        #expect(answered == Array(repeating: 200, count: 8), "slowest answer \(slowest) s")
        #expect(slowest < 1)
    }
}
