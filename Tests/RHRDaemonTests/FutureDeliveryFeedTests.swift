import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRTestSupport
import Testing

/// R13's last clause over the daemon's roads: a batch pushed over the socket or posted over HTTP with an `asOf` later
/// than the machine's clock is dated by when it was read, the reply says so, and the stream's next batch goes on; a
/// phone request is dated by its receipt whatever time the app claims. And the account of each reply (docs/design.md
/// R14): its counts name what became of every resting sample.
@Suite("Feeds from the future")
struct FutureDeliveryFeedTests {
    static let future = "2099-01-01T08:00:00+01:00"

    @Test func rhrPushSaysABatchFrom2099WasDatedByWhenItWasRead() throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        defer { daemon.stop() }
        let now = Timestamp(date: Date(), offsetSeconds: 3600).iso8601
        let file = rhr.directory.file("feed.jsonl")
        try [
            batchLine(liveBatch(previous: nil, next: "a1", samples: [restingSample(day: "2026-11-27", value: 57, uuid: "S27")],
                                asOf: Self.future)),
            batchLine(liveBatch(previous: "a1", next: "a2", samples: [restingSample(day: "2026-11-27", value: 55, uuid: "S27")],
                                asOf: now)),
        ].joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let pushed = try rhr.run(["push", file])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let lines = pushed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("ok: 1 added, 0 replaced, 0 deleted; batch dated 1 Jan 2099, later than this machine's "
                                      + "clock: dated by when it was read (") == true, "\(pushed.stdout)")
        // The next batch, dated now, is fresher than the first as it was read: it replaces the value.
        #expect(lines.last?.contains("ok: 0 added, 1 replaced, 0 deleted; revision 2") == true, "\(pushed.stdout)")
        #expect(!(try rhr.run(["status"]).stdout.contains("2099")))
    }

    @Test func aBatchPostedFrom2099IsDatedByItsReceiptAndTheReplySaysSo() throws {
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("bridge")
        let line = batchLine(liveBatch(previous: nil, next: "a1", samples: [restingSample(day: "2026-11-27", value: 56, uuid: "A")],
                                       asOf: Self.future))
        let answer = try daemon.http().request("POST", "/v1/batches", headers: [("Authorization", "Bearer \(token)")],
                                               body: Array(line.utf8))
        let reply = try #require(answer.lines.first)
        #expect(reply["ok"]?.bool == true && reply["added"]?.int64 == 1)
        let dated = try #require(reply["futureDated"]?.array?.first)
        #expect(dated["claim"]?.string == "asOf" && dated["what"]?.string == "batch")
        #expect(dated["claimed"]?.string == "2099-01-01T08:00:00+01:00")
        let stream = try #require(try daemon.directory.store().streams().first)
        #expect(try #require(stream.asOf).epochSeconds < Date().timeIntervalSince1970 + 60)
    }

    @Test func anHCWebhookRequestWhoseAppClaims2099IsDatedByItsReceipt() throws {
        let phone = try HTTPFeedTests.phone()
        var body = PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)])
        body = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "2026-11-28T07:10:00Z", with: "2099-01-01T07:10:00Z").utf8)
        let answer = try phone.client.post(HTTPFeedTests.hcw, token: phone.token, json: body)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json?["added"]?.int64 == 1)
        let stream = try #require(try phone.daemon.directory.store().streams().first)
        #expect(try #require(stream.asOf).epochSeconds < Date().timeIntervalSince1970 + 60)
    }
}
