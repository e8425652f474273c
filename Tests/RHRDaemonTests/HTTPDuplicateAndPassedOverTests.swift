import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// R14 over HTTP. A phone that re-sends its look-back window may put one point in a request twice, or one writer's
/// time with two values: neither is a 500, and the same request again changes nothing. A point or record rhr cannot
/// use is passed over and kept, the rest of the request applied.
@Suite("phone feeds over HTTP: duplicated points, records passed over")
struct HTTPDuplicateAndPassedOverTests {
    @Test func twoHealthAutoExportPointsOfOneWriterAndTimeAreAnswered200() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let same = try client.postResting(
            [.init("2026-11-27 00:00:00 +0100", 55), .init("2026-11-27 00:00:00 +0100", 55)], token: token)
        #expect(same.status == 200, "\(same.text)")
        #expect(try daemon.directory.store().samples().count == 1)
        let two = try client.postResting(
            [.init("2026-11-28 00:00:00 +0100", 55), .init("2026-11-28 00:00:00 +0100", 57)], token: token)
        #expect(two.status == 200, "\(two.text)")
        let day = try #require(LocalDay(year: 2026, month: 11, day: 28))
        let samples = try daemon.directory.store().samples(from: day, to: day)
        #expect(samples.map(\.sample.value).sorted() == [55, 57])
        #expect(samples.allSatisfy { $0.sample.isDuplicate })
        // Again: nothing changes.
        let revision = try HTTPFeedTests.revision(daemon)
        let again = try client.postResting(
            [.init("2026-11-28 00:00:00 +0100", 57), .init("2026-11-28 00:00:00 +0100", 55)], token: token)
        #expect(again.status == 200, "\(again.text)")
        #expect(try HTTPFeedTests.revision(daemon) == revision)
    }

    @Test func twoHCWebhookRecordsOfOneOriginAndTimeAreAnswered200() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let answer = try client.post(HTTPFeedTests.hcw, token: token, json: PhonePayloads.hcWebhook(
            resting: [("2026-11-27T05:58:00Z", 57), ("2026-11-27T05:58:00Z", 57), ("2026-11-27T05:58:00Z", 59)],
            heartRate: [("2026-11-27T06:00:00Z", 70), ("2026-11-27T06:00:00Z", 70)]))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(!answer.text.contains("UNIQUE"))
        #expect(try daemon.directory.store().samples().map(\.sample.value).sorted() == [57, 59])
    }

    @Test func aBadPointIsPassedOverAndTheRestApplied() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        let answer = try client.postResting(
            [.init("2026-11-27 00:00:00 +0100", 55), .init("yesterday", 54)], token: token)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json?["summary"]?.string?.contains("1 record passed over (kept in the store, rhr status lists them)") == true,
                "\(answer.text)")
        let store = try daemon.directory.store()
        #expect(try store.samples().map(\.sample.value) == [55])
        let kept = try store.passedOverRecords()
        #expect(kept.map(\.record.kind) == ["resting_heart_rate points whose date rhr cannot read"])
        #expect(kept.first?.stream == "http-phone")
    }

    @Test func aWriterNamedWithANULIsPassedOverNotCutAtIt() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        for bpm in [57, 58] {
            let body = PhonePayloads.hcWebhook(resting: [("2026-11-2\(bpm - 50)T05:58:00Z", bpm)],
                                               metadata: PhonePayloads.hcMetadata(origin: "com.ouraring.oura\u{0}evil"))
            // Nothing in the request could be used (R14): 422, its record kept.
            let answer = try client.post(HTTPFeedTests.hcw, token: token, json: body)
            #expect(answer.status == 422 && answer.errorCode == "nothing_usable", "\(answer.text)")
        }
        let store = try daemon.directory.store()
        #expect(try store.samples().isEmpty)
        #expect(try store.writers().isEmpty)
        // One row per endpoint, place and reason: a phone re-sending the same record does not grow the store.
        let kept = try store.passedOverRecords()
        #expect(kept.map(\.record.place) == ["resting_heart_rate[0]"])
        #expect(kept.first?.record.raw.contains("58") == true)
    }
}
