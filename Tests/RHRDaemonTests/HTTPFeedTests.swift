import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRTestSupport
import Synchronization
import Testing

extension HTTPTestClient {
    /// Health Auto Export's REST automation posting resting points, and nothing else.
    func postResting(_ points: [PhonePayloads.Point], token: String) throws -> HTTPResponse {
        try post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(resting: points))
    }
}

/// The phone feeds over real HTTP on loopback (docs/design.md section 4b): a daemon of this process with real
/// libmicrohttpd and a real store, and a raw HTTP client, so each answer is what a phone would get.
@Suite("phone feeds over HTTP")
struct HTTPFeedTests {
    static let hae = "/v1/health-auto-export"
    static let hcw = "/v1/health-connect-webhook"

    /// A daemon with phone feeds on a free port of 127.0.0.1; `configure` changes the limits.
    static func daemon(_ configure: (inout HTTPFeedConfiguration) -> Void = { _ in }) throws -> TestDaemon {
        try TestDaemon { configuration in
            var http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            configure(&http)
            configuration.http = http
        }
    }

    /// A daemon with phone feeds, a token for `device`, and an HTTP client connected to it.
    static func phone(_ device: String = "phone") throws -> (daemon: TestDaemon, token: String, client: HTTPTestClient) {
        let daemon = try daemon()
        return (daemon, try daemon.token(device), try daemon.http())
    }

    static func revision(_ daemon: TestDaemon) throws -> Int64 {
        try daemon.directory.store().revision()
    }

    // MARK: - 401

    @Test func withoutAValidTokenNothingIsRead() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("phone")
        let body = PhonePayloads.healthAutoExport(resting: [.init("2026-11-27 00:00:00 +0100", 55)])

        let none = try daemon.http().request("POST", HTTPFeedTests.hae, body: body)
        #expect(none.status == 401)
        #expect(none.errorCode == "unauthorized")
        #expect(none.errorMessage.contains("Authorization: Bearer TOKEN"))
        #expect(none.headers["www-authenticate"] == "Bearer realm=\"rhr\"")
        let wrong = try daemon.http().request("POST", HTTPFeedTests.hae, headers: [("Authorization", "Bearer rhr_not-a-token")], body: body)
        #expect(wrong.status == 401)
        #expect(wrong.errorMessage.contains("not known"))
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token + "x")]).status == 401)

        // The answer comes from the headers alone: a body announced but never sent is not waited for.
        let client = try daemon.http()
        try client.send(HTTPTestClient.requestBytes("POST", HTTPFeedTests.hae, headers: [("Content-Length", "50000000")]))
        #expect(try client.response(timeout: 5).status == 401)
        #expect(client.closedByServer(timeout: 5))

        // A revoked token is refused from its next request on.
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
        try FeedTokens(forStore: daemon.directory.storePath).revoke(name: "phone")
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 401)
        #expect(try HTTPFeedTests.revision(daemon) == 0)
    }

    /// A tokens file that cannot be read is not "no tokens": the phone is told the file could not be read, and the
    /// daemon's log names the file and the line (counted with blank lines, as an editor counts them), once.
    @Test func anUnreadableTokensFileIsSaidSoNamingTheLine() throws {
        let logged = Mutex<[String]>([])
        let directory = try TemporaryDirectory()
        let tokensPath = FeedTokens.path(forStore: directory.storePath)
        let token = try FeedTokens(path: tokensPath).create(name: "phone")
        let handle = try #require(FileHandle(forWritingAtPath: tokensPath))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n{\"name\":\"tablet\"}\n".utf8))
        try handle.close()
        let daemon = try TestDaemon(directory: directory) { configuration in
            configuration.http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            configuration.log = { line in logged.withLock { $0.append(line) } }
        }
        let error = try #require(throws: DaemonError.self) { try FeedTokens(path: tokensPath).list() }
        #expect(error.message.hasPrefix("\(tokensPath):3: not a token line"), "\(error.message)")
        for _ in 0..<2 {
            let answer = try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)])
            #expect(answer.status == 401)
            #expect(answer.errorCode == "unauthorized")
            #expect(answer.errorMessage.contains("the daemon cannot read its tokens file"), "\(answer.errorMessage)")
        }
        let lines = logged.withLock { $0 }
        #expect(!lines.contains { $0.contains("no tokens yet") }, "\(lines)")
        #expect(lines.filter { $0.contains("\(tokensPath):3: not a token line") }.count == 1, "\(lines)")
    }

    /// A digest or salt that is not hex of the right length (a hand edit, a cut copy) is a bad line, named, not a
    /// token that quietly never matches.
    @Test func aDamagedDigestIsABadLineNotATokenThatNeverMatches() throws {
        let directory = try TemporaryDirectory()
        let tokensPath = FeedTokens.path(forStore: directory.storePath)
        _ = try FeedTokens(path: tokensPath).create(name: "phone")
        let line = try String(contentsOfFile: tokensPath, encoding: .utf8)
        for (damage, what) in [({ (s: String) in s.replacingOccurrences(of: "\"sha256\":\"", with: "\"sha256\":\"zz") }, "sha256"),
                               ({ (s: String) in s.replacingOccurrences(of: "\"salt\":\"", with: "\"salt\":\"0") }, "salt")] {
            try damage(line).write(toFile: tokensPath, atomically: true, encoding: .utf8)
            let error = try #require(throws: DaemonError.self) { try FeedTokens(path: tokensPath).list() }
            #expect(error.message.hasPrefix("\(tokensPath):1: not a token line: \(what)"), "\(error.message)")
        }
    }

    // MARK: - 413

    @Test func aBodyOverTheLimitIsRefusedAndReadNoFurther() throws {
        let daemon = try HTTPFeedTests.daemon { $0.maxBody = 4096 }
        let token = try daemon.token("phone")
        // Announced too large: refused before a byte of it is sent.
        let client = try daemon.http()
        try client.send(HTTPTestClient.requestBytes("POST", HTTPFeedTests.hae, headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Content-Length", "5000"),
        ]))
        let announced = try client.response(timeout: 5)
        #expect(announced.status == 413)
        #expect(announced.errorCode == "too_large")
        #expect(announced.errorMessage.contains("larger than 4 KiB"))
        #expect(client.closedByServer(timeout: 5))

        // Sent in chunks without a length: cut off once it passes the limit (libmicrohttpd takes no answer in the
        // middle of a body, so the connection is closed); the rest is not read.
        let chunked = try daemon.http()
        try chunked.send(HTTPTestClient.requestBytes("POST", HTTPFeedTests.hae, headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Transfer-Encoding", "chunked"),
        ]))
        let piece = Array(repeating: UInt8(ascii: " "), count: 3000)
        for _ in 0..<2 { try? chunked.send(Array("bb8\r\n".utf8) + piece + Array("\r\n".utf8)) }
        if let answer = try? chunked.response(timeout: 5) { #expect(answer.status == 413) }
        #expect(chunked.closedByServer(timeout: 5))
        #expect(try HTTPFeedTests.revision(daemon) == 0)
        // The daemon goes on serving.
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
    }

    // MARK: - 415

    @Test func csvAndOtherBodiesThatAreNotJSONAreRefusedWithAWordAboutJSON() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("phone")
        // What Health Auto Export sends when the automation's format is CSV.
        let multipart = Array("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nDate,Resting\r\n--b--\r\n".utf8)
        let csv = try daemon.http().request("POST", HTTPFeedTests.hae, headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "multipart/form-data; boundary=b"),
        ], body: multipart)
        #expect(csv.status == 415)
        #expect(csv.errorCode == "unsupported_media_type")
        #expect(csv.errorMessage.contains("Export Format to JSON"))
        let text = try daemon.http().request("POST", HTTPFeedTests.hcw, headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "text/csv"),
        ], body: Array("time,bpm\n".utf8))
        #expect(text.status == 415)
        // No type said, and the body does not start like JSON.
        let bare = try daemon.http().request("POST", HTTPFeedTests.hae, headers: [("Authorization", "Bearer \(token)")],
                                             body: Array("Date,Resting Heart Rate\n".utf8))
        #expect(bare.status == 415)
        #expect(try HTTPFeedTests.revision(daemon) == 0)
    }

    // MARK: - 400

    @Test func malformedBodiesAreRefusedNamingTheJSONPathAndChangeNothing() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let cut = try client.post(HTTPFeedTests.hae, token: token, json: Array(#"{"data":{"metrics":[{"name":"#.utf8))
        #expect(cut.status == 400)
        #expect(cut.errorCode == "bad_json")
        #expect(cut.errorMessage == "not JSON: line 1, column 29, byte 28, data.metrics[0].name: expected a value, found the end of the input")
        let notAnObject = try client.post(HTTPFeedTests.hae, token: token, json: Array(#"{"data":{"metrics":[55]}}"#.utf8))
        #expect(notAnObject.status == 400)
        #expect(notAnObject.errorCode == "invalid_payload")
        #expect(notAnObject.errorMessage == "line 1, column 21, byte 20, data.metrics[0]: expected an object, found an integer")
        let webhook = try client.post(HTTPFeedTests.hcw, token: token, json: Array(#"{"resting_heart_rate":{"bpm":57}}"#.utf8))
        #expect(webhook.status == 400)
        #expect(webhook.errorMessage.hasPrefix("resting_heart_rate: "), "\(webhook.errorMessage)")
        let empty = try client.post(HTTPFeedTests.hcw, token: token, json: [])
        #expect(empty.status == 400)
        #expect(try HTTPFeedTests.revision(daemon) == 0)
        // The connection is still good.
        #expect(try client.request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)
    }

    // MARK: - 404, 405, 429

    @Test func unknownPathsWrongMethodsAndTooManyRequests() throws {
        let daemon = try HTTPFeedTests.daemon { $0.rateBurst = 3; $0.ratePerSecond = 0.01 }
        let token = try daemon.token("phone"), other = try daemon.token("tablet")
        let auth = [("Authorization", "Bearer \(token)")]
        // A refusal closes its connection (libmicrohttpd cannot know what the client still sends): one each.
        let missing = try daemon.http().request("GET", "/v1/nothing", headers: auth)
        #expect(missing.status == 404)
        #expect(missing.errorMessage.contains("POST /v1/health-auto-export"))
        let wrong = try daemon.http().request("GET", HTTPFeedTests.hae, headers: auth)
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "POST")
        // Three at once (the burst), then one a hundred seconds.
        for _ in 0..<3 { #expect(try daemon.http().request("GET", "/v1/status", headers: auth).status == 200) }
        let limited = try daemon.http().request("GET", "/v1/status", headers: auth)
        #expect(limited.status == 429)
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 > 0)
        // Another phone's token has a bucket of its own.
        #expect(try daemon.http().request("GET", "/v1/status", headers: [("api-key", other)]).status == 200)
    }

    // MARK: - 200: Health Auto Export

    /// The counts as `rhr import` words them; a subscriber (a live dashboard) hears of the change at once; the
    /// same request again changes nothing.
    @Test func aHealthAutoExportRequestIsAppliedAndARepeatChangesNothing() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("phone")
        let subscriber = try daemon.subscriber()
        let body = PhonePayloads.healthAutoExport(
            resting: [.init("2026-11-27 00:00:00 +0100", 55), .init("2026-11-28 00:00:00 +0100", 57)],
            heartRate: [.init("2026-11-28 08:00:00 +0100", 71), .init("2026-11-28 08:01:00 +0100", 73)])
        let first = try daemon.http().post(HTTPFeedTests.hae, token: token, json: body)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json?["added"]?.int64 == 2)
        #expect(first.json?["stream"]?.string == "http-phone")
        #expect(first.json?["store"]?.string == "healthkit")
        #expect(first.json?["summary"]?.string == "Health Auto Export JSON: 4 records read; HealthKit resting samples 2 added, "
            + "0 replaced, 0 deleted; 2 heart-rate readings (kept as day summaries, R8)")
        let event = try subscriber.nextEvent(timeout: 5)
        #expect(event.days == ["2026-11-27", "2026-11-28"])

        let revision = try HTTPFeedTests.revision(daemon)
        let again = try daemon.http().post(HTTPFeedTests.hae, token: token, json: body)
        #expect(again.status == 200)
        #expect(again.json?["added"]?.int64 == 0)
        #expect(again.json?["unchanged"]?.int64 == 2)
        #expect(again.json?["days"]?.array?.isEmpty == true)
        #expect(try HTTPFeedTests.revision(daemon) == revision)

        let days = try storeDays(daemon.directory.storePath)
        #expect(days.map(\.day.description) == ["2026-11-27", "2026-11-28"])
        #expect(days.allSatisfy { $0.writer.name == "Jane’s Apple Watch" })
        let heartRate = try daemon.directory.store().heartRateDays()
        #expect(heartRate.map(\.total) == [2])
    }

    /// A request is a snapshot of the metrics it carries for the days it covers: a value replaced on the phone
    /// goes, a day without resting points keeps its value, and heart rate alone removes no resting value.
    @Test func aHealthAutoExportRequestIsASnapshotOfTheMetricsAndDaysItCarries() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        func post(_ body: [UInt8]) throws -> HTTPResponse {
            let answer = try client.post(HTTPFeedTests.hae, token: token, json: body)
            #expect(answer.status == 200, "\(answer.text)")
            return answer
        }
        // Raw samples (no aggregation): the watch's draft for the 28th at 09:00.
        _ = try post(PhonePayloads.healthAutoExport(resting: [.init("2026-11-27 08:00:00 +0100", 55),
                                                              .init("2026-11-28 09:00:00 +0100", 61)]))
        // A later request for the 28th only: Apple replaced the draft by a sample at 21:00.
        let replaced = try post(PhonePayloads.healthAutoExport(resting: [.init("2026-11-28 21:00:00 +0100", 58)]))
        #expect(replaced.json?["added"]?.int64 == 1)
        #expect(replaced.json?["deleted"]?.int64 == 1)
        // "Since last sync": heart rate of the 29th and the resting metric without a point.
        let heartRateOnly = try post(PhonePayloads.healthAutoExport(resting: [], heartRate: [.init("2026-11-29 10:00:00 +0100", 70)]))
        #expect(heartRateOnly.json?["deleted"]?.int64 == 0)
        let values = try storeDays(daemon.directory.storePath).map { "\($0.day) \(Int($0.bpm ?? 0))" }
        #expect(values == ["2026-11-27 55", "2026-11-28 58"])
        // Heart rate of a day is replaced by the day's counts in the next request that carries it.
        _ = try post(PhonePayloads.healthAutoExport(heartRate: [.init("2026-11-29 10:00:00 +0100", 70), .init("2026-11-29 10:01:00 +0100", 72)]))
        let heartRate = try daemon.directory.store().heartRateDays()
        #expect(heartRate.map(\.total) == [2])
    }

    /// A request of heart rate only makes none of the stream's older resting values fresher (R12): an Apple export
    /// read since still decides the day it holds, until the phone sends that day again.
    @Test func heartRateAloneMakesNoRestingValueFresher() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let today = Timestamp(date: Date(), offsetSeconds: 3600).localDay, yesterday = today.adding(days: -1)
        #expect(try client.postResting([.init("\(yesterday) 00:00:00 +0100", 55)], token: token).status == 200)
        // An Apple export read after that request holds the day's final 58.
        let start = Date(timeIntervalSince1970: yesterday.startEpochSeconds - 3600 + 180)
        let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
        _ = try daemon.directory.store().apply(SyncBatch(
            store: .healthKit, stream: "apple-health-export", asOf: Timestamp(date: Date(), offsetSeconds: 3600),
            snapshot: .init(), resting: [RestingSample(store: .healthKit, writer: watch, start: start,
                                                       end: start.addingTimeInterval(23 * 3600), offsetSeconds: 3600, value: 58)],
            watchWriters: [watch.name], origin: "Apple Health export"))
        let heartRateOnly = try client.post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(
            resting: [], heartRate: [.init("\(today) 08:00:00 +0100", 70)]))
        #expect(heartRateOnly.json?["days"]?.array?.map { $0.string } == [today.description])
        #expect(try storeDays(daemon.directory.storePath).map { "\($0.day) \($0.bpmText)" } == ["\(yesterday) 58"])
        // The phone sends the day again: its word is the freshest now.
        let again = try client.postResting([.init("\(yesterday) 00:00:00 +0100", 55)], token: token)
        #expect(again.json?["days"]?.array?.map { $0.string } == [yesterday.description])
        #expect(try storeDays(daemon.directory.storePath).map { "\($0.day) \($0.bpmText)" } == ["\(yesterday) 55"])
    }

    // MARK: - 200: HC Webhook

    /// Health Connect records, offsets assumed (R5), heart rate counted for R9 also in its bucket form; a
    /// look-back that sends the same records again changes nothing.
    @Test func anHCWebhookRequestIsAppliedWithAssumedOffsetsAndItsHeartRateCounts() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("pixel")
        let body = PhonePayloads.hcWebhook(
            resting: [("2026-11-27T05:58:00Z", 57), ("2026-11-28T06:02:00.123Z", 0)],
            heartRate: [("2026-11-28T06:00:00Z", 71), ("2026-11-28T06:00:05Z", 73)],
            buckets: [("2026-11-28T07:00:00Z", 70, 61, 88)],
            extra: ["steps": [["count": 12, "start_time": "2026-11-28T06:00:00Z", "end_time": "2026-11-28T06:10:00Z"]]])
        let first = try daemon.http().post(HTTPFeedTests.hcw, token: token, json: body)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json?["store"]?.string == "healthconnect")
        #expect(first.json?["added"]?.int64 == 2)
        #expect(first.json?["outOfRange"]?.int64 == 1)
        #expect(first.json?["summary"]?.string == "HC Webhook JSON: 6 records read; Health Connect resting samples 2 added, "
            + "0 replaced, 0 deleted; 1 out of range among them (kept, excluded from the trend); 3 heart-rate readings (kept as day "
            + "summaries, R8); 1 skipped: records of other types")

        let store = try daemon.directory.store()
        let samples = try store.samples()
        #expect(samples.count == 2)
        #expect(samples.allSatisfy { $0.offsetAssumed })
        #expect(samples.allSatisfy { $0.sample.writer.name == "com.ouraring.oura" && $0.sample.recordingMethod == .automaticallyRecorded })
        #expect(samples.first?.sample.device?.model == "Ring 4")
        let contents = try store.contents().first { $0.store == .healthConnect }
        #expect(contents?.heartRateSamples == 3)

        let revision = try HTTPFeedTests.revision(daemon)
        let again = try daemon.http().post(HTTPFeedTests.hcw, token: token, json: body)
        #expect(again.json?["unchanged"]?.int64 == 2)
        #expect(try HTTPFeedTests.revision(daemon) == revision)
        #expect(try store.contents().first { $0.store == .healthConnect }?.heartRateSamples == 3)
    }

    // MARK: - 200: batches, status

    @Test func batchesAreAnsweredLineByLineAndFeedTheTokensStream() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("bridge")
        let lines = [
            batchLine(liveBatch(stream: "iphone", previous: nil, next: "a1", samples: [restingSample(day: "2026-11-27", value: 56, uuid: "A")])),
            "{\"store\":",
            "",
            batchLine(liveBatch(stream: "iphone", previous: "zz", next: "a2")),
            batchLine(liveBatch(stream: "iphone", previous: "a1", next: "a2", samples: [restingSample(day: "2026-11-28", value: 57, uuid: "B")])),
        ].joined(separator: "\n")
        let answer = try daemon.http().request("POST", "/v1/batches", headers: [("Authorization", "Bearer \(token)")],
                                               body: Array(lines.utf8))
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/x-ndjson")
        let replies = answer.lines
        #expect(replies.map { $0["id"]?.int64 ?? 0 } == [1, 2, 4, 5])
        #expect(replies.map { $0["ok"]?.bool ?? false } == [true, false, false, true])
        #expect(replies[1]["error"]?["code"]?.string == "bad_json")
        #expect(replies[2]["error"]?["code"]?.string == "cursor_mismatch")
        // The token decides the stream: a bridge cannot write another phone's stream.
        let streams = try daemon.directory.store().streams()
        #expect(streams.map(\.stream) == ["http-bridge"])
        #expect(streams.first?.cursor == "a2")
    }

    @Test func statusSaysWhenTheStreamLastDeliveredAndWhetherRestingValuesStopped() throws {
        let phone = try HTTPFeedTests.phone()
        let token = phone.token, client = phone.client
        let auth = [("Authorization", "Bearer \(token)")]
        #expect(try client.request("GET", "/v1/status", headers: auth).json?["streams"]?.array?.isEmpty == true)
        // Resting values up to the 26th, then "since last sync" requests that carry heart rate only.
        _ = try client.post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(
            resting: [.init("2026-11-26 00:00:00 +0100", 55)], heartRate: [.init("2026-11-26 08:00:00 +0100", 70)]))
        let before = Date()
        _ = try client.post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(
            resting: [], heartRate: [.init("2026-11-28 08:00:00 +0100", 70), .init("2026-11-28 08:01:00 +0100", 72)]))
        let after = Date()
        let status = try client.request("GET", "/v1/status", headers: auth)
        #expect(status.status == 200)
        #expect(status.json?["stream"]?.string == "http-phone")
        let stream = try #require(status.json?["streams"]?[0])
        #expect(stream["store"]?.string == "healthkit")
        #expect(stream["restingSamples"]?.int64 == 1)
        #expect(stream["heartRateSamples"]?.int64 == 3)
        #expect(stream["newestRestingDay"]?.string == "2026-11-26")
        #expect(stream["newestHeartRateDay"]?.string == "2026-11-28")
        #expect(stream["restingStopped"]?.bool == true)
        #expect(stream["advice"]?.string?.contains("period to Default") == true)
        let delivered = try #require(stream["lastDelivery"]?.string.flatMap(Timestamp.parse))
        // The last request's time, to the second it is written in.
        #expect((before.timeIntervalSince1970.rounded(.down)...after.timeIntervalSince1970).contains(delivered.date.timeIntervalSince1970),
                "\(delivered) not between \(before) and \(after)")
        withExtendedLifetime(phone.daemon) {}
    }

    // MARK: - Phones together, limits, TLS

    @Test func twoPhonesAtOnceEachFeedTheirOwnStream() throws {
        let daemon = try HTTPFeedTests.daemon { $0.ratePerSecond = 1000 }
        let tokens = [try daemon.token("iphone"), try daemon.token("pixel")]
        let failures = Recorder<String>()
        let group = DispatchGroup()
        let first = LocalDay(year: 2026, month: 1, day: 1)!
        for (n, token) in tokens.enumerated() {
            group.enter()
            Thread { [port = daemon.httpPort] in
                defer { group.leave() }
                do {
                    let client = try HTTPTestClient(port: port)
                    for i in 0..<40 {
                        let day = first.adding(days: i)
                        let answer = n == 0
                            ? try client.postResting(
                                [.init("\(day) 00:00:00 +0100", Double(50 + i % 10))], token: token)
                            : try client.post(HTTPFeedTests.hcw, token: token, json: PhonePayloads.hcWebhook(
                                resting: [("\(day)T06:00:00Z", 60 + i % 10)]))
                        if answer.status != 200 || answer.json?["added"]?.int64 != 1 { failures.append("\(n) \(i): \(answer.text)") }
                    }
                } catch {
                    failures.append("\(n): \(error)")
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
        let streams = try daemon.directory.store().streams()
        #expect(streams.map { "\($0.store.rawValue)/\($0.stream)" } == ["healthconnect/http-pixel", "healthkit/http-iphone"])
        let contents = try daemon.directory.store().contents()
        #expect(contents.map(\.restingSamples) == [40, 40])
    }

    @Test func connectionsBeyondTheLimitWaitAndSlowRequestsAreCutOff() throws {
        let daemon = try HTTPFeedTests.daemon { $0.maxConnections = 2; $0.requestTime = 0.5; $0.idleTimeout = 2 }
        let token = try daemon.token("phone")
        let held = [try daemon.http(), try daemon.http()]
        // libmicrohttpd takes the third connection and closes it at once: the two others are not disturbed.
        let third = try daemon.http()
        #expect(third.closedByServer(timeout: 5))
        #expect(try held[0].request("GET", "/v1/status", headers: [("api-key", token)]).status == 200)

        // A body trickled in past the request time is cut off: its connection is closed.
        let slow = held[1]
        try slow.send(HTTPTestClient.requestBytes("POST", HTTPFeedTests.hae, headers: [
            ("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Content-Length", "100"),
        ]))
        // Two bytes every tenth of a second for up to four seconds: never idle, so only the request time can cut it.
        var cut = false
        for _ in 0..<40 where !cut {
            usleep(100_000)
            do { try slow.send(Array("  ".utf8)) } catch { cut = true }
        }
        #expect(cut, "the trickled body was not cut off while it was still arriving")
        #expect(try HTTPFeedTests.revision(daemon) == 0)
        // An idle connection is closed after the idle time.
        #expect(held[0].closedByServer(timeout: 5))
    }

    /// A throw-away certificate made here with openssl; curl trusts it and nothing else.
    @Test func aTLSRoundTrip() throws {
        guard let openssl = Subprocess.which("openssl"), let curl = Subprocess.which("curl") else {
            throw TestFailure("openssl and curl are needed; scripts/setup installs them")
        }
        let directory = try TemporaryDirectory(prefix: "rhr-tls")
        let made = try Subprocess.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                                "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"), "-days", "1",
                                                "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"])
        try #require(made.status == 0, "\(made.stderr)")
        let daemon = try HTTPFeedTests.daemon {
            $0.tls = .init(certificate: directory.file("cert.pem"), key: directory.file("key.pem"))
        }
        let token = try daemon.token("phone")
        let url = "https://127.0.0.1:\(daemon.httpPort)"
        let body = try directory.write("hae.json", PhonePayloads.healthAutoExport(resting: [.init("2026-11-27 00:00:00 +0100", 55)]))
        let posted = try Subprocess.run(curl, ["-sS", "--cacert", directory.file("cert.pem"), "-H", "Authorization: Bearer \(token)",
                                               "-H", "Content-Type: application/json", "--data-binary", "@" + body, url + HTTPFeedTests.hae])
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("\"added\":1"), "\(posted.stdout)")
        // Without trusting the certificate, curl refuses; plain HTTP gets no answer.
        #expect(try Subprocess.run(curl, ["-sS", url + "/v1/status"]).status != 0)
        #expect(try Subprocess.run(curl, ["-sS", "http://127.0.0.1:\(daemon.httpPort)/v1/status"]).status != 0)
        #expect(try storeDays(daemon.directory.storePath).count == 1)
    }

    @Test func plainHTTPOffLoopbackIsRefusedNamingTLSAndTheFlag() throws {
        var configuration = HTTPFeedConfiguration(address: try HTTPAddress(parsing: "0.0.0.0:0"))
        #expect(throws: DaemonError.self) { try configuration.checkTransport() }
        do {
            try configuration.checkTransport()
        } catch {
            #expect(error.message.contains("--tls-cert FILE --tls-key FILE"))
            #expect(error.message.contains("--allow-plain-http"))
        }
        configuration.allowPlainHTTP = true
        try configuration.checkTransport()
        try HTTPFeedConfiguration(address: try HTTPAddress(parsing: "[::1]:8787")).checkTransport()
        try HTTPFeedConfiguration(address: try HTTPAddress(parsing: "localhost:8787")).checkTransport()
        // A daemon made without the command asks too, of the address it binds.
        do {
            _ = try TestDaemon { $0.http = HTTPFeedConfiguration(address: HTTPAddress(host: "0.0.0.0", port: 0)) }
            Issue.record("a daemon served plain HTTP on 0.0.0.0")
        } catch let error as DaemonError {
            #expect(error.message.hasPrefix("refusing plain HTTP on 0.0.0.0:0"))
        }
        #expect(throws: DaemonError.self) { try HTTPAddress(parsing: "8787") }
        #expect(throws: DaemonError.self) { try HTTPAddress(parsing: "127.0.0.1:http") }
    }
}

extension HTTPFeedTests {
    /// A name is listened on at one address: status and the log give that address as numbers, never the name, so a
    /// bridge posting to the other address of `localhost` knows why it is refused.
    @Test func aNameIsListenedOnAtOneAddressShownAsNumbers() throws {
        let daemon = try TestDaemon { $0.http = HTTPFeedConfiguration(address: HTTPAddress(host: "localhost", port: 0)) }
        let port = daemon.httpPort
        let address = try daemon.subscriber().request(.status)["http"]?["address"]?.string
        #expect(address == "\(try Self.firstAddressOfLocalhost()):\(port)")
    }

    /// What this machine's resolver gives first for `localhost` (its hosts file decides): `127.0.0.1` or `[::1]`.
    static func firstAddressOfLocalhost() throws -> String {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo("localhost", "0", &hints, &list) == 0, let first = list else { throw TestFailure("localhost does not resolve") }
        defer { freeaddrinfo(list) }
        return first.pointee.ai_family == AF_INET6 ? "[::1]" : "127.0.0.1"
    }
}
