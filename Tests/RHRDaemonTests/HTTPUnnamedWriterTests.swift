import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// Health Auto Export points without `source` over HTTP (docs/design.md section 2): beside the one watch a
/// request names they are that watch's, one line; in a request naming none they are a writer Health Auto Export did
/// not name, a possible watch (R3): the day before the request and later are provisional, older days are not.
@Suite("phone feeds over HTTP: points without a source")
struct HTTPUnnamedWriterTests {
    @Test func sourcelessPointsAreTheNamedWatchsOrAnUnnamedPossibleWatchs() throws {
        let (daemon, token, client) = try HTTPFeedTests.phone()
        // Days near the daemon's clock, which dates each request (R3 is judged against it).
        let today = Timestamp(date: Date(), offsetSeconds: 3600).localDay
        let yesterday = today.adding(days: -1)
        let named = try client.post(HTTPFeedTests.hae, token: token, json: PhonePayloads.healthAutoExport(
            resting: [.init("\(yesterday) 00:00:00 +0100", 55, source: nil)],
            heartRate: [.init("\(yesterday) 09:00:00 +0100", 70)]))
        #expect(named.status == 200, "\(named.text)")
        let earlier = today.adding(days: -3)
        let bare = try client.postResting([.init("\(earlier) 00:00:00 +0100", 53, source: nil),
                                           .init("\(today) 00:00:00 +0100", 57, source: nil)], token: token)
        #expect(bare.status == 200, "\(bare.text)")
        let days = try daemon.directory.store().days(aggregation: .latest)
        let names = [earlier: "3 days ago", yesterday: "yesterday", today: "today"]
        #expect(days.map { "\(names[$0.day] ?? "\($0.day)") \($0.writer.name) \($0.bpmText) \($0.provisional)" } == [
            "3 days ago Health Auto Export 53 false",
            "yesterday Jane’s Apple Watch 55 true",
            "today Health Auto Export 57 true",
        ])
        #expect(try daemon.directory.store().writers().filter(\.isAppleWatch).map(\.writer.name) == ["Jane’s Apple Watch"])
    }
}
