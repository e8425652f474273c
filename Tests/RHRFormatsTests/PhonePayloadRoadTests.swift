import Foundation
import RHRCore
import RHRFormats
import RHRTestSupport
import Testing

/// One payload, two roads: what a Health Auto Export or HC Webhook payload becomes is decided by the road it came by
/// (`PhonePayload.imported(on:)`), from the same contents (docs/design.md sections 2 and 4b).
@Suite("Phone payloads: a file import and a phone feed from the same contents")
struct PhonePayloadRoadTests {
    static let options = ImportOptions(machineZone: TimeZone(identifier: "Europe/Berlin")!)
    static let received = Timestamp(date: Date(timeIntervalSince1970: 1_704_441_600), offsetSeconds: 0)   // 2024-01-05T08:00Z

    @Test("Health Auto Export: a file is a snapshot of its period as of its newest window; a request replaces the days it carries, as of its receipt")
    func healthAutoExportRoads() throws {
        let payload = try HealthAutoExportReader.payload(bytes: Array(HealthAutoExportReaderTests.resting.utf8),
                                                         label: "body", options: Self.options)
        let file = try #require(try payload.imported(on: .file(stream: "health-auto-export", readAt: Date())).batches.first)
        let feed = try #require(try payload.imported(on: .phoneFeed(stream: "http-phone", receivedAt: Self.received)).batches.first)

        #expect(file.stream == "health-auto-export")
        #expect(file.asOf == Timestamp.parse("2024-01-04T23:59:59+01:00"))
        #expect(file.asOf.offsetSeconds == 3600)
        #expect(file.snapshot?.from == Timestamp.parse("2024-01-02T00:00:00+01:00"))
        #expect(file.snapshot?.coversResting == true)
        #expect(file.snapshot?.coversHeartRate == false)
        #expect(file.dayFeed == nil)
        #expect(file.origin == "Health Auto Export")

        #expect(feed.stream == "http-phone")
        #expect(feed.snapshot == nil)
        #expect(feed.dayFeed == .replacesDays)
        // The time of receipt, in the offset the phone wrote its last point in.
        #expect(feed.asOf.date == Self.received.date)
        #expect(feed.asOf.offsetSeconds == 3600)
        #expect(feed.origin == "Health Auto Export over HTTP")

        #expect(file.resting == feed.resting)
        #expect(feed.resting.map(\.value) == [55, 56.5, 61, 54])
    }

    @Test("HC Webhook: a file is as of the app's timestamp and removes nothing; a request is as of its receipt and adds records")
    func hcWebhookRoads() throws {
        let bytes = PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)])
        let file = try #require(try HCWebhookReader.payload(bytes: bytes, label: "request", options: Self.options)
            .imported(on: .file(stream: "hc-webhook", readAt: Date())).batches.first)
        let received = try #require(Timestamp.parse("2026-11-28T09:00:00+01:00"))
        let feed = try #require(try HCWebhookReader.payload(bytes: bytes, label: "request", receivedAt: received, options: Self.options)
            .imported(on: .phoneFeed(stream: "http-pixel", receivedAt: received)).batches.first)

        #expect(file.asOf == Timestamp.parse("2026-11-28T07:10:00Z"))
        #expect(file.origin == "HC Webhook of 28 Nov")
        #expect(file.dayFeed == nil)
        #expect(feed.asOf == received)
        #expect(feed.stream == "http-pixel")
        #expect(feed.origin == "HC Webhook over HTTP")
        #expect(feed.dayFeed == .addsRecords)
        #expect(file.resting == feed.resting)
        #expect(feed.resting.map(\.value) == [57])
    }

    @Test("HC Webhook: a payload of no heart data is no batch from a file, and one request still dated for the store over HTTP")
    func emptyHCWebhookPayload() throws {
        let body = Array(#"{"app_version":"2.4.0","steps":[]}"#.utf8)
        let payload = try HCWebhookReader.payload(bytes: body, label: "request", receivedAt: Self.received, options: Self.options)
        let fromFile = try HCWebhookReader.payload(bytes: body, label: "request", options: Self.options)
        #expect(try fromFile.imported(on: .file(stream: "hc-webhook", readAt: Date())).batches.isEmpty)
        let feed = try payload.imported(on: .phoneFeed(stream: "http-pixel", receivedAt: Self.received)).batches
        #expect(feed.count == 1)
        #expect(feed.first?.asOf == Self.received)
        #expect(feed.first?.resting.isEmpty == true)
    }

    /// A body with none of the app's record keys is no HC Webhook payload (docs/design.md section 4b), from a file or a
    /// request alike.
    @Test("HC Webhook: JSON with none of its record keys is refused", arguments: [
        #"{"hello":"world"}"#, #"{"app_version":"2.4.0"}"#, #"{"timestamp":"2026-11-28T07:10:00Z","app_version":"2.4.0"}"#,
        #"{"data":{"metrics":[]}}"#,
    ])
    func notAnHCWebhookPayload(_ json: String) throws {
        let error = try #require(throws: InputError.self) {
            try HCWebhookReader.payload(bytes: Array(json.utf8), label: "request", options: Self.options)
        }
        #expect(error.description.hasPrefix("request: not an HC Webhook payload: it holds none of the app's record keys"),
                "\(error)")
        #expect(!error.isSyntaxError)
    }
}
