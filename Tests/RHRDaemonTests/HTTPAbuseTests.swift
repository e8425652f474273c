import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRTestSupport
import Testing

/// The phone feeds hold under abuse and say what they refused: slow connections from one address lock
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
        let daemon = try HTTPAbuseTests.daemon(log) { $0.headerTime = 2 }
        let token = try daemon.token("phone")
        let port = daemon.httpPort
        let slow = (0..<200).compactMap { _ in try? HTTPTestClient(port: port, timeout: 2, source: "127.0.0.3") }
        #expect(slow.count == 200)
        // One header byte every half second, for five seconds at most.
        let trickling = TricklingHeads(slow, bytes: 10)
        var answered: [Int] = []
        // A try every quarter second while the others trickle; each gets its answer within the client's timeout.
        for _ in 0..<8 {
            let status = (try? HTTPTestClient(port: port, timeout: 2).request("GET", "/v1/status", headers: [("api-key", token)],
                                                                                timeout: 2).status) ?? 0
            answered.append(status)
            usleep(250_000)
        }
        trickling.stop()
        #expect(trickling.wait(timeout: .now() + 10) == .success)
        #expect(answered == Array(repeating: 200, count: 8))
        // Those past the cap were closed at once, the others once their head was 2 s late: all of them long before
        // the 30 s idle time could close any.
        #expect(slow.allSatisfy { $0.closedByServer(timeout: 10) })
        // The log is written from its own thread, its lines rate-limited (one a second after the first 30): the
        // closing of a late head is said once the limit lets it, so it is waited for.
        #expect(eventually(timeout: 20) { log.all.contains { $0.hasPrefix("phone feeds: refused a connection from 127.0.0.3: "
            + "its request line and headers did not arrive within 2 s; connection closed") } }, "\(log.all.suffix(3))")
        let lines = log.all
        #expect(lines.contains("phone feeds: refused a connection from 127.0.0.3: 16 connections from that address are open, "
            + "the most one address may hold; closed at once"), "\(lines.prefix(3))")
        // 184 refusals of one kind, logged 30 at once and then one a second; the late heads, a kind of their own,
        // are not hidden by them.
        #expect(lines.filter { $0.contains("the most one address may hold") }.count < 45)
    }

    @Test func absurdOrConflictingLengthsAreRefusedWith400() throws {
        let log = Recorder<String>()
        let daemon = try HTTPAbuseTests.daemon(log)
        let token = try daemon.token("phone")
        let auth = ("Authorization", "Bearer \(token)"), json = ("Content-Type", "application/json")
        for headers in [[auth, json, ("Content-Length", "9223372036854775808")],
                        [auth, json, ("Content-Length", "18446744073709551615")],
                        [auth, json, ("Content-Length", "10"), ("Content-Length", "12")]] {
            let client = try daemon.http()
            try client.send(HTTPTestClient.requestBytes("POST", "/v1/health-auto-export", headers: headers))
            let answer = try client.response(timeout: 5)
            #expect(answer.status == 400, "\(headers): \(answer.text)")
            #expect(answer.errorCode == "bad_request")
        }
        #expect(try daemon.directory.store().revision() == 0)
    }

    @Test func eachRefusalIsALogLineAndCountedForItsFeed() throws {
        let log = Recorder<String>()
        let daemon = try HTTPAbuseTests.daemon(log) { $0.rateBurst = 2; $0.ratePerSecond = 0.01 }
        let token = try daemon.token("phone")
        #expect(try daemon.http().request("GET", "/v1/status").status == 401)
        #expect(try daemon.http().post("/v1/health-auto-export", token: token, json: Array("{\"data\":7}".utf8)).status == 400)
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 429)
        #expect(log.all.contains { $0.hasPrefix("phone feeds: refused 401 to 127.0.0.1: unauthorized: no token") }, "\(log.all)")
        #expect(log.all.contains { $0.hasPrefix("phone feeds: refused 400 to 127.0.0.1, token phone: invalid_payload: ") })
        #expect(log.all.contains { $0.hasPrefix("phone feeds: refused 429 to 127.0.0.1, token phone: too_many_requests: ") })
        let status: StatusReply = try daemon.client().request(.status).decode()
        let feeds = try #require(status.http?.feeds)
        #expect(feeds.map(\.token) == ["phone", nil])
        #expect(feeds.map(\.accepted) == [1, 0])
        #expect(feeds.map(\.refused) == [2, 1])
        #expect(feeds[0].lastRefusal?.status == 429)
        #expect(feeds[0].lastRefusal?.reason.hasPrefix("too_many_requests: token phone sent more requests") == true)
    }

    @Test func bodiesPastWhatTheDaemonHoldsAtOnceAreAnswered503BeforeTheyAreRead() throws {
        let daemon = try HTTPAbuseTests.daemon(Recorder()) { $0.maxBodiesInFlight = 1000 }
        let token = try daemon.token("phone")
        let auth = ("Authorization", "Bearer \(token)"), json = ("Content-Type", "application/json")
        let first = try daemon.http()
        try first.send(HTTPTestClient.requestBytes("POST", "/v1/health-auto-export", headers: [auth, json, ("Content-Length", "800")]))
        #expect(eventually { daemon.server.httpPeakBodyBytes == 800 })
        let second = try daemon.http()
        try second.send(HTTPTestClient.requestBytes("POST", "/v1/health-auto-export", headers: [auth, json, ("Content-Length", "800")]))
        let answer = try second.response(timeout: 5)
        #expect(answer.status == 503)
        #expect(answer.headers["retry-after"] == "10")
    }

    /// TLS 1.0 and 1.1 are refused; 1.2 is served.
    @Test func aTLS11ClientIsRefused() throws {
        guard let openssl = Subprocess.which("openssl") else { throw TestFailure("openssl is needed; scripts/setup installs it") }
        let directory = try TemporaryDirectory(prefix: "rhr-tls")
        let made = try Subprocess.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"), "-days", "1",
                                                "-subj", "/CN=localhost"])
        try #require(made.status == 0, "\(made.stderr)")
        let daemon = try HTTPAbuseTests.daemon(Recorder()) {
            $0.tls = .init(certificate: directory.file("cert.pem"), key: directory.file("key.pem"))
        }
        func handshake(_ version: String) throws -> SubprocessResult {
            // SECLEVEL=0, or OpenSSL itself would not offer TLS 1.1.
            try Subprocess.run(openssl, ["s_client", "-connect", "127.0.0.1:\(daemon.httpPort)", version,
                                         "-cipher", "DEFAULT@SECLEVEL=0"], input: "")
        }
        let old = try handshake("-tls1_1")
        #expect(old.status != 0)
        #expect(old.stdout.contains("Cipher is (NONE)"), "\(old.stdout)")
        let good = try handshake("-tls1_2")
        #expect(good.stdout.contains("TLSv1.2"), "\(good.stdout) \(good.stderr)")
    }

    /// While another process holds the store's write lock (a long import), a phone waits the busy time, then gets 503
    /// with Retry-After, nothing applied, instead of `500 database is locked`.
    @Test(.timeLimit(.minutes(1)))
    func aRequestWhileAnImportHoldsTheStoreGets503WithRetryAfter() throws {
        let daemon = try HTTPAbuseTests.daemon(Recorder())
        let token = try daemon.token("phone")
        let lock = try StoreWriteLock(store: daemon.directory.storePath)
        let body = PhonePayloads.healthAutoExportDay(LocalDay(year: 2026, month: 3, day: 1)!)
        let answer = try daemon.http().post("/v1/health-auto-export", token: token, json: body, timeout: 20)
        #expect(answer.status == 503, "\(answer.text)")
        #expect(answer.errorCode == "store_busy")
        #expect(answer.headers["retry-after"] == "30")
        lock.release()
        #expect(try daemon.http().post("/v1/health-auto-export", token: token, json: body).status == 200)
    }
}
