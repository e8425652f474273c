import RHRCore
import Testing

/// docs/design.md section 4b: a phone feed whose resting values stop arriving while its heart rate goes on.
@Suite("FeedFreshness")
struct FeedFreshnessTests {
    static func stream(_ name: String = "http-phone", origin: String = "Health Auto Export over HTTP", resting: String?,
                       heartRate: String?, store: HealthStore = .healthKit) -> StreamState {
        StreamState(store: store, stream: name, asOf: Timestamp.parse("2026-11-30T08:00:00+01:00"), origin: origin,
                    newestRestingDay: resting.flatMap(LocalDay.init), newestHeartRateDay: heartRate.flatMap(LocalDay.init))
    }

    @Test func onlyPhoneFeedsHaveAFreshness() {
        #expect(FeedFreshness(Self.stream("apple-health-export", origin: "export of 12 Mar", resting: nil, heartRate: "2026-11-30")) == nil)
        #expect(FeedFreshness(Self.stream("iphone", origin: "", resting: nil, heartRate: nil)) == nil)
        #expect(FeedFreshness(Self.stream("health-auto-export", origin: "Health Auto Export of 14 Mar", resting: nil, heartRate: nil))?.app
            == .healthAutoExport)
        #expect(FeedFreshness(Self.stream(origin: "HC Webhook over HTTP", resting: nil, heartRate: nil, store: .healthConnect))?.app
            == .hcWebhook)
        #expect(FeedFreshness(Self.stream(origin: "batches over HTTP", resting: nil, heartRate: nil))?.app == .other)
    }

    /// Today's estimate is written late: heart rate one day ahead is how a working feed looks.
    @Test func heartRateOneDayAheadIsFineTwoDaysIsAStop() throws {
        let working = try #require(FeedFreshness(Self.stream(resting: "2026-11-29", heartRate: "2026-11-30")))
        #expect(!working.restingStopped)
        #expect(working.stoppedWords == nil)
        let stopped = try #require(FeedFreshness(Self.stream(resting: "2026-11-27", heartRate: "2026-11-30")))
        #expect(stopped.restingStopped)
        #expect(stopped.throughWords(thisYear: 2026) == "resting values through 27 Nov, heart rate through 30 Nov")
        #expect(stopped.throughWords(thisYear: 2027) == "resting values through 27 Nov 2026, heart rate through 30 Nov 2026")
        #expect(stopped.stoppedWords == "http-phone (HealthKit): resting values stopped after 27 Nov, while heart rate arrives through 30 Nov; "
            + "in Health Auto Export, set the automation's period to Default (the previous day and today), not Since Last Sync, "
            + "and keep Resting Heart Rate among its metrics.")
        let never = try #require(FeedFreshness(Self.stream(origin: "HC Webhook over HTTP", resting: nil, heartRate: "2026-11-30",
                                                           store: .healthConnect)))
        #expect(never.restingStopped)
        #expect(never.stoppedWords?.hasPrefix("http-phone (Health Connect): no resting values arrive, while heart rate arrives through 30 Nov; "
            + "in HC Webhook, turn on the 48-hour look-back") == true)
        // Without heart rate there is nothing to compare with.
        #expect(FeedFreshness(Self.stream(resting: "2026-11-01", heartRate: nil))?.restingStopped == false)
    }
}
