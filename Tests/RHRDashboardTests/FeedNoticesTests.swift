import Foundation
import RHRCore
import RHRScreen
import Testing

/// The phone feeds under the header (docs/design.md section 4b).
@Suite("Render: phone feed notices")
struct FeedNoticesTests {
    @Test func eachHTTPFeedSaysWhenItLastDeliveredAndAStoppedOneWhatToChange() {
        var data = Fixture.standard()
        data.streams += [
            StreamState(store: .healthKit, stream: "http-phone", asOf: Timestamp.parse("2026-03-12T14:02:00+01:00"),
                        origin: "Health Auto Export over HTTP", newestRestingDay: LocalDay("2026-03-09"),
                        newestHeartRateDay: LocalDay("2026-03-12")),
            StreamState(store: .healthConnect, stream: "http-pixel", asOf: Timestamp.parse("2026-03-10T08:15:00+01:00"),
                        origin: "HC Webhook over HTTP", newestRestingDay: LocalDay("2026-03-10"),
                        newestHeartRateDay: LocalDay("2026-03-10")),
        ]
        let state = Fixture.state(data, size: TerminalSize(width: 200, height: 40))
        let notices = state.index.notices(today: Fixture.lastDay)
        #expect(notices.contains("Phone feeds, last delivered: http-phone 14:02 +01:00 (HealthKit) · http-pixel 10 Mar 08:15 +01:00 (Health Connect)"))
        #expect(notices.contains { $0.hasPrefix("http-phone (HealthKit): resting values stopped after 9 Mar, while heart rate arrives through 12 Mar; in Health Auto Export") })
        #expect(!notices.contains { $0.hasPrefix("http-pixel (") })
        let screen = Fixture.screen(state).joined(separator: "\n")
        #expect(screen.contains("Phone feeds, last delivered: http-phone 14:02 +01:00 (HealthKit)"))
        // A store without phone feeds has no such note.
        #expect(!Fixture.state().index.notices(today: Fixture.lastDay).contains { $0.hasPrefix("Phone feeds") })
    }

    @Test("Two phones delivering at one instant from different offsets read the same time, in the machine's clock")
    func oneClockForEveryPhone() {
        var data = Fixture.standard()
        data.machineZone = TimeZone(identifier: "Europe/Berlin")!
        // 22:02 UTC, once as an iPhone at +01:00 writes it and once as a Pixel at UTC does.
        data.streams += [
            StreamState(store: .healthKit, stream: "http-phone", asOf: Timestamp.parse("2026-03-12T23:02:00+01:00"),
                        origin: "Health Auto Export over HTTP"),
            StreamState(store: .healthConnect, stream: "http-pixel", asOf: Timestamp.parse("2026-03-12T22:02:00Z"),
                        origin: "HC Webhook over HTTP"),
        ]
        let state = Fixture.state(data, size: TerminalSize(width: 200, height: 40))
        #expect(state.index.notices(today: Fixture.lastDay).contains(
            "Phone feeds, last delivered: http-phone 23:02 +01:00 (HealthKit) · http-pixel 23:02 +01:00 (Health Connect)"))
        let header = Fixture.screen(state)[1]
        #expect(header.contains("Health Connect as of 12 Mar 23:02 +01:00  ·  HealthKit as of 12 Mar 23:02 +01:00"), "\(header)")
    }
}
