import Foundation
@testable import RHRCore
import RHRTestSupport
import Testing

/// The one pipeline from samples to per-day values (R7): grouping by day and writer, the series' order, the
/// counts of what the stores hold, and the one bpm formatter.
@Suite("DaySeries")
struct DaySeriesTests {
    func placed(_ s: RestingSample, provisional: Bool = false) -> DaySample {
        DaySample(sample: s, day: LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "UTC")!).day, provisional: provisional)
    }

    let withings = Writer(store: .healthKit, name: "Withings")
    var samples: [DaySample] {
        [
            placed(hkSample("2026-11-28 00:10:00 +0000", "2026-11-28 21:00:00 +0000", 59)),
            placed(hcSample("b", "2026-11-27T06:00:00Z", offset: 0, 53)),
            placed(hkSample("2026-11-28 00:10:00 +0000", "2026-11-28 09:00:00 +0000", 62)),
            placed(hkSample("2026-11-28 00:20:00 +0000", "2026-11-28 20:00:00 +0000", 61, writer: withings)),
            placed(hcSample("a", "2026-11-28T06:00:00Z", offset: 0, 52)),
            placed(hkSample("2026-11-27 00:10:00 +0000", "2026-11-27 21:00:00 +0000", 0)),
        ]
    }

    @Test func groupsByDayAndWriterInOneOrder() {
        let series = DaySeries(samples)
        #expect(series.writers.map(\.name) == ["com.ouraring.oura", "Jane’s Apple Watch", "Withings"])
        #expect(series.groups.map { "\($0.day) \(series.writers[$0.writer].name) \($0.range.count)" } == [
            "2026-11-27 com.ouraring.oura 1", "2026-11-27 Jane’s Apple Watch 1",
            "2026-11-28 com.ouraring.oura 1", "2026-11-28 Jane’s Apple Watch 2", "2026-11-28 Withings 1",
        ])
        // Within a group, by time: the watch's 09:00 sample before its 21:00 one.
        let watch28 = series.groups[3]
        #expect(series.samples(in: watch28).map(\.sample.value) == [62, 59])
        // The same samples in any order make the same series.
        let reversed = DaySeries(samples.reversed())
        #expect(reversed.samples.map(\.sample.identity) == series.samples.map(\.sample.identity))
        #expect(reversed.groups == series.groups)
    }

    @Test func valuesUnderEachAggregation() {
        let series = DaySeries(samples)
        #expect(series.values(by: .latest).map(\.bpmText) == ["53", "", "52", "59", "61"])
        #expect(series.values(by: .lowest).map(\.bpmText) == ["53", "", "52", "59", "61"])
        #expect(series.values(by: .mean).map(\.bpmText) == ["53.0", "", "52.0", "60.5", "61.0"])
        let zeroDay = series.values(by: .latest)[1]
        #expect(zeroDay.samples == 0 && zeroDay.outOfRange == 1)
        // Each value is its group's, aggregated by the same rule on its own.
        for group in series.groups {
            #expect(series.value(of: group, by: .mean) == DaySeries.aggregate(Array(series.samples(in: group)), by: .mean))
        }
    }

    @Test func latestIsOneRuleOnSamples() {
        let early = hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 20:00:00 +0000", 61, created: "2026-11-28 20:05:00 +0000")
        let late = hkSample("2026-11-28 01:00:00 +0000", "2026-11-28 20:00:00 +0000", 58, created: "2026-11-28 22:00:00 +0000")
        #expect(DaySeries.isEarlier(early, late) && !DaySeries.isEarlier(late, early))
        #expect([late, early].max(by: DaySeries.isEarlier) == late)
        #expect(DaySeries.aggregate([placed(late), placed(early)], by: .latest)?.bpm == 58)
    }

    @Test func whatEachStoreHoldsIsTalliedOnce() {
        let heartRate = [HeartRateDaySummary(writer: withings, day: day("2026-11-28"), notSet: 3, sedentary: 2),
                         HeartRateDaySummary(writer: withings, day: day("2026-11-29"), active: 1),
                         HeartRateDaySummary(writer: oura, day: day("2026-11-28"))]
        let contents = StoreContents.tally(samples: samples, heartRate: heartRate)
        #expect(contents.map(\.store) == [.healthKit, .healthConnect])
        #expect(contents[0].restingSamples == 4 && contents[0].restingWriters.map(\.name) == ["Jane’s Apple Watch", "Withings"])
        #expect(contents[0].heartRateSamples == 6 && contents[0].heartRateWriters.map(\.name) == ["Withings"])
        // A writer whose summaries count nothing is not a heart-rate writer.
        #expect(contents[1].restingSamples == 2 && contents[1].heartRateWriters.isEmpty)
        #expect(StoreContents.tally(resting: [], heartRate: []).allSatisfy { $0.isEmpty })
    }

    @Test("R6: one formatter; integral values whole, others and means with one decimal")
    func bpmText() {
        #expect(RestingValue.format(58) == "58")
        #expect(RestingValue.format(58.5) == "58.5")
        #expect(RestingValue.format(58, isMean: true) == "58.0")
        // A tie is written as the nearest decimal of the value held: 57.25 is exact in binary, and rounds to even.
        #expect(RestingValue.format(57.25, isMean: true) == "57.2")
        #expect(RestingValue.format(57.35, isMean: true) == "57.4")
    }
}
