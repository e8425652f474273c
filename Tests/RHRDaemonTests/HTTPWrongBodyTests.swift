// Each phone feed refuses a body that is not its own, over real HTTP: a phone pointed at the wrong URL is told so.
import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRJSON
import RHRTestSupport
import Testing

/// docs/design.md section 4b: `POST /v1/health-connect-webhook` with a body that holds none of HC Webhook's record keys,
/// and any feed given another feed's body, gets 400 `invalid_payload` naming what was expected (and where the body
/// belongs); nothing is recorded: no stream, no revision, no delivery in `GET /v1/status`, the request counted refused.
@Suite("phone feeds refuse another feed's body")
struct HTTPWrongBodyTests {
    static let batches = "/v1/batches"
    static let healthAutoExport = PhonePayloads.healthAutoExport(resting: [.init("2026-11-27 00:00:00 +0100", 55)])
    static let hcWebhook = PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)])
    static let batch = Array((batchLine(liveBatch(stream: "bridge", previous: nil, next: "a1",
                                                  samples: [restingSample(day: "2026-11-27", value: 58, uuid: "U1")])) + "\n").utf8)

    /// Posts `body` to `path` and checks it was refused as another feed's, leaving nothing behind.
    static func expectRefused(_ path: String, _ body: [UInt8], saying expected: String, advice: String?,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let answer = try client.post(path, token: token, json: body)
        #expect(answer.status == 400, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == "invalid_payload", "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorMessage.contains(expected), "\(answer.errorMessage)", sourceLocation: sourceLocation)
        if let advice {
            #expect(answer.errorMessage.hasSuffix(advice), "\(answer.errorMessage)", sourceLocation: sourceLocation)
        }
        // No delivery recorded: nothing in the store, nothing for the token's stream, the request counted refused.
        #expect(try HTTPFeedTests.revision(daemon) == 0, sourceLocation: sourceLocation)
        #expect(try daemon.directory.store().streams().isEmpty, sourceLocation: sourceLocation)
        let status = try daemon.http().request("GET", "/v1/status", headers: [("api-key", token)]).json
        #expect(status?["streams"]?.array?.isEmpty == true, sourceLocation: sourceLocation)
        #expect(status?["requests"]?["refused"]?.int64 == 1, "\(String(describing: status))", sourceLocation: sourceLocation)
        #expect(status?["requests"]?["accepted"]?.int64 == 0, sourceLocation: sourceLocation)
    }

    static let webhookExpected = "not an HC Webhook payload: it holds none of the app's record keys (resting_heart_rate, heart_rate"

    @Test func theWebhookRefusesJSONWithNoneOfItsRecordKeys() throws {
        try Self.expectRefused(HTTPFeedTests.hcw, Array(#"{"hello":"world"}"#.utf8), saying: Self.webhookExpected, advice: nil)
        try Self.expectRefused(HTTPFeedTests.hcw, Array(#"{"timestamp":"2026-11-28T07:10:00Z"}"#.utf8),
                               saying: Self.webhookExpected, advice: nil)
    }

    @Test func theWebhookRefusesHealthAutoExportAndSyncBatches() throws {
        try Self.expectRefused(HTTPFeedTests.hcw, Self.healthAutoExport, saying: Self.webhookExpected,
                               advice: "this body is Health Auto Export JSON: POST it to /v1/health-auto-export")
        try Self.expectRefused(HTTPFeedTests.hcw, Self.batch, saying: Self.webhookExpected,
                               advice: "this body is sync batches (one JSON object per line): POST it to /v1/batches")
    }

    @Test func healthAutoExportRefusesTheWebhooksBodyAndSyncBatches() throws {
        try Self.expectRefused(HTTPFeedTests.hae, Self.hcWebhook, saying: "data.metrics: missing; not Health Auto Export JSON",
                               advice: "this body is HC Webhook JSON: POST it to /v1/health-connect-webhook")
        try Self.expectRefused(HTTPFeedTests.hae, Self.batch, saying: "data.metrics: missing; not Health Auto Export JSON",
                               advice: "this body is sync batches (one JSON object per line): POST it to /v1/batches")
    }

    @Test func batchesRefuseTheOtherFeedsBodies() throws {
        let expected = "expected sync batches (one JSON object per line), each with its store, stream and asOf"
        try Self.expectRefused(Self.batches, Self.hcWebhook, saying: expected,
                               advice: "this body is HC Webhook JSON: POST it to /v1/health-connect-webhook")
        // Health Auto Export's JSON as the app writes it, on several lines.
        let pretty = Array(String(decoding: Self.healthAutoExport, as: UTF8.self).replacingOccurrences(of: ",", with: ",\n").utf8)
        try Self.expectRefused(Self.batches, pretty, saying: expected,
                               advice: "this body is Health Auto Export JSON: POST it to /v1/health-auto-export")
    }

    /// What the app really sends still reads: a payload of another type only, and the app's own body.
    @Test func theWebhooksOwnBodiesAreTaken() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let steps = try client.post(HTTPFeedTests.hcw, token: token, json: PhonePayloads.hcWebhook(extra: [
            "steps": [["count": 120, "start_time": "2026-11-27T05:00:00Z", "end_time": "2026-11-27T05:10:00Z"]]]))
        #expect(steps.status == 200, "\(steps.text)")
        // A type of a later version of the app, beside its app_version.
        let later = try client.post(HTTPFeedTests.hcw, token: token, json: PhonePayloads.hcWebhook(extra: ["floors_climbed": [[:]]]))
        #expect(later.status == 200, "\(later.text)")
        let resting = try client.post(HTTPFeedTests.hcw, token: token, json: Self.hcWebhook)
        #expect(resting.status == 200, "\(resting.text)")
        #expect(try daemon.directory.store().samples().count == 1)
    }
}
