import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// Health Auto Export points without `source` over HTTP (docs/design.md section 2): beside the one watch a
/// request names they are that watch's, one line; in a request naming none they are a writer Health Auto Export did
/// not name, which is no possible watch, so none of its days stays provisional (R3).
@Suite("phone feeds over HTTP: points without a source")
struct HTTPUnnamedWriterTests {
    @Test func sourcelessPointsAreTheNamedWatchsOrAnUnnamedWritersNeverAPhantomWatch() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        // Days near the daemon's clock, which dates each request (R3 is judged against it).
        let today = Timestamp(date: Date(), offsetSeconds: 3600).localDay
        let yesterday = today.adding(days: -1)
        let named = try client.post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(
            resting: [.init("\(yesterday) 00:00:00 +0100", 55, source: nil)],
            heartRate: [.init("\(yesterday) 09:00:00 +0100", 70)]))
        #expect(named.status == 200, "\(named.text)")
        let bare = try client.postResting([.init("\(today) 00:00:00 +0100", 57, source: nil)], token: token)
        #expect(bare.status == 200, "\(bare.text)")
        let days = try daemon.directory.store().days(aggregation: .latest)
        #expect(days.map { "\($0.day == today ? "today" : "yesterday") \($0.writer.name) \($0.bpmText) \($0.provisional)" } == [
            "yesterday Jane’s Apple Watch 55 true",
            "today Health Auto Export 57 false",
        ])
        #expect(try daemon.directory.store().writers().filter(\.isAppleWatch).map(\.writer.name) == ["Jane’s Apple Watch"])
    }
}
