// A phone feed's request of which not one record could be used is answered so, not with a healthy 200.
import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRJSON
import RHRTestSupport
import Testing

/// R14, the account, over HTTP (docs/design.md section 4b): a Health Auto Export or HC Webhook request whose records were
/// all passed over gets 422 `nothing_usable` saying why, keeps its passed-over records (the store's list of them), and
/// dates no road: a phone whose app writes what rhr cannot read does not look healthy.
@Suite("phone feeds: nothing could be used")
struct HTTPNothingUsableTests {
    static let haeBody = Array("""
        {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
        {"date":"2026-11-27 00:00:00 +0100","qty":"abc","source":"Watch"},{"date":"2026-11-28 00:00:00 +0100","qty":"x","source":"Watch"}]}]}}
        """.utf8)
    static let webhookBody = Array("""
        {"timestamp":"2026-11-28T07:10:00Z","app_version":"2.4.0","resting_heart_rate":[{"bpm":"x","time":"2026-11-27T05:58:00Z",
        "metadata":{"data_origin":"com.ouraring.oura"}},{"bpm":"y","time":"2026-11-28T05:58:00Z","metadata":{"data_origin":"com.ouraring.oura"}}]}
        """.utf8)

    /// Posts `body` to `path`: 422 `nothing_usable` naming the passed-over records, which are kept; no road.
    static func expectNothingUsable(_ path: String, _ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let answer = try client.post(path, token: token, json: body)
        #expect(answer.status == 422, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == "nothing_usable", "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorMessage.hasPrefix("nothing in the request could be used: 2 records passed over, kept in the store "
            + "(rhr status lists them): 2 "), "\(answer.errorMessage)", sourceLocation: sourceLocation)
        let store = try daemon.directory.store()
        #expect(try store.passedOver().total == 2, sourceLocation: sourceLocation)
        #expect(try store.streams().isEmpty, sourceLocation: sourceLocation)
        #expect(try HTTPFeedTests.revision(daemon) == 0, sourceLocation: sourceLocation)
        let status = try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).json
        #expect(status?["streams"]?.array?.isEmpty == true, sourceLocation: sourceLocation)
        #expect(status?["requests"]?["refused"]?.int64 == 1, "\(String(describing: status))", sourceLocation: sourceLocation)
    }

    @Test func aHealthAutoExportRequestOfWhichNothingCouldBeUsed() throws {
        try Self.expectNothingUsable(HTTPFeedTests.hae, Self.haeBody)
    }

    @Test func anHCWebhookRequestOfWhichNothingCouldBeUsed() throws {
        try Self.expectNothingUsable(HTTPFeedTests.hcw, Self.webhookBody)
    }
}
