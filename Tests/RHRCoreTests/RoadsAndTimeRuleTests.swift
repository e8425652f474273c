import Foundation
@testable import RHRCore
import RHRTestSupport
import Testing

/// R12 (which road's samples stand) and R13 (plausible time) on day samples, before any store.
@Suite("R12 and R13 on samples")
struct RoadsAndTimeRuleTests {
    func placed(_ s: RestingSample, stream: String, asOf: String, snapshot: Bool = false) -> DaySample {
        DaySample(sample: s, day: LocalDayRule.day(of: s, machineZone: utc).day, asOf: ts(asOf), stream: stream,
                  snapshot: snapshot)
    }

    @Test func theFreshestRoadDecidesAndTheOthersStandAside() {
        let bridge = placed(hkSample("2026-02-10 00:01:00 +0100", "2026-02-10 22:50:00 +0100", 60), stream: "bridge",
                            asOf: "2026-02-10T23:00:00+01:00")
        let export = placed(hkSample("2026-02-10 00:00:00 +0100", "2026-02-10 23:40:00 +0100", 59),
                            stream: "apple-health-export", asOf: "2026-02-12T21:00:00+01:00", snapshot: true)
        for order in [[bridge, export], [export, bridge]] {
            let mean = DaySeries.aggregate(order, by: .mean)
            // Never 59.5: the superseded draft leaves every aggregate and the count.
            #expect(mean?.bpm == 59 && mean?.samples == 1)
            #expect(DaySeries.decidingRoad(order[...]) == export.road)
        }
        // A road read at the same instant is told apart by its name, not by arrival.
        let twin = placed(hkSample("2026-02-10 00:00:00 +0100", "2026-02-10 23:40:00 +0100", 61), stream: "apple-health-export",
                          asOf: "2026-02-12T21:00:00+01:00")
        #expect(DaySeries.aggregate([export, twin], by: .latest) == DaySeries.aggregate([twin, export], by: .latest))
        #expect(DaySeries.aggregate([export, twin], by: .latest)?.bpm == 61)   // the live stream before the snapshot
    }

    /// The one decision of R12 (`Road.deciding`), which DaySeries and the store both ask, on a table of roads.
    @Test func theDecidingRoadIsTheFreshestAsItSpeaksForTheDay() {
        let phone = Road(stream: "http-phone", asOf: ts("2026-11-29T09:00:00+01:00"), snapshot: false)
        let newExport = Road(stream: "apple-health-export", asOf: ts("2026-11-28T20:00:00+01:00"), snapshot: true)
        let oldExport = Road(stream: "apple-health-export", asOf: ts("2026-11-27T12:00:00+01:00"), snapshot: true)
        let bridge = Road(stream: "bridge", asOf: ts("2026-11-28T12:00:00+01:00"), snapshot: false)
        // The phone's word about the 27th is the request of the 28th at 08:00, not its road's newest (the 29th).
        let phoneOn27 = phone.speaking(forDayAsOf: ts("2026-11-28T08:00:00+01:00").epochSeconds, byDay: true)
        #expect(phoneOn27.asOf == ts("2026-11-28T08:00:00+01:00") && !phoneOn27.snapshot)
        #expect(phone.speaking(forDayAsOf: nil, byDay: true) == phone)
        #expect(newExport.speaking(forDayAsOf: 0, byDay: false) == newExport)
        let table: [([Road], Road?)] = [
            ([], nil),
            ([phoneOn27], phoneOn27),
            ([phoneOn27, oldExport], phoneOn27),
            ([oldExport, phoneOn27, bridge], bridge),
            ([newExport, oldExport], newExport),
            ([oldExport, newExport, phoneOn27, bridge], newExport),
            ([phone, newExport], phone),
            // Read at the same instant: the earlier name, then the live stream before the snapshot.
            ([Road(stream: "b", asOf: bridge.asOf, snapshot: false), Road(stream: "a", asOf: bridge.asOf, snapshot: false)],
             Road(stream: "a", asOf: bridge.asOf, snapshot: false)),
            ([Road(stream: "a", asOf: bridge.asOf, snapshot: true), Road(stream: "a", asOf: bridge.asOf, snapshot: false)],
             Road(stream: "a", asOf: bridge.asOf, snapshot: false)),
            // Never read counts as oldest.
            ([Road(stream: "a", asOf: nil, snapshot: false), oldExport], oldExport),
        ]
        for (roads, expected) in table {
            #expect(Road.deciding(roads, road: { $0 }) == expected, "\(roads)")
            #expect(Road.deciding(roads.reversed(), road: { $0 }) == expected, "\(roads) reversed")
        }
        // Equal roads: the first holder.
        #expect(Road.deciding([(1, bridge), (2, bridge)], road: \.1)?.0 == 1)
    }

    @Test func implausibleTimesAreFlaggedAndLeftOut() {
        let asOf = ts("2026-03-14T08:00:00+01:00")
        #expect(PlausibleTimeRule.isPlausible(start: date("2026-03-13T00:00:00Z"), end: date("2026-03-13T23:00:00Z"), asOf: asOf))
        // Before 2000.
        #expect(PlausibleTimeRule.problem(start: date("1999-12-31T23:00:00Z"), end: date("1999-12-31T23:00:00Z"), asOf: asOf)
                == "dated before 2000")
        #expect(PlausibleTimeRule.problem(start: date("0001-01-01T00:00:00Z"), end: date("0001-01-01T00:00:00Z"), asOf: nil) != nil)
        // More than a day after it was read; a day is allowed for clocks and zones.
        #expect(PlausibleTimeRule.isPlausible(start: date("2026-03-15T06:00:00Z"), end: date("2026-03-15T06:00:00Z"), asOf: asOf))
        #expect(PlausibleTimeRule.problem(start: date("2026-03-15T08:00:00Z"), end: date("2026-03-15T08:00:00Z"), asOf: asOf)
                == "dated more than a day after it was read")
        // A window over 48 hours.
        #expect(PlausibleTimeRule.isPlausible(start: date("2026-03-10T00:00:00Z"), end: date("2026-03-12T00:00:00Z"), asOf: asOf))
        #expect(PlausibleTimeRule.problem(start: date("2026-03-10T00:00:00Z"), end: date("2026-03-12T00:00:01Z"), asOf: asOf)
                == "a window longer than 48 hours")

        let good = placed(hkSample("2026-03-13 00:00:00 +0000", "2026-03-13 20:00:00 +0000", 58), stream: "s",
                          asOf: "2026-03-14T08:00:00+01:00")
        // On the same road: a sample dated more than a day after the road read it.
        let late = placed(hkSample("2026-03-15 10:00:00 +0000", "2026-03-15 10:00:00 +0000", 40), stream: "s",
                          asOf: "2026-03-14T08:00:00+01:00")
        #expect(!good.implausibleDate && late.implausibleDate)
        for aggregation in Aggregation.allCases {
            let value = DaySeries.aggregate([good, late], by: aggregation)
            #expect(value?.bpm == 58 && value?.samples == 1 && value?.implausibleDate == 1 && value?.outOfRange == 0)
        }
        // Alone, it is still a day with a flag and no value.
        let only = DaySeries.aggregate([late], by: .mean)
        #expect(only?.bpm == nil && only?.implausibleDate == 1 && only?.samples == 0)
    }

    @Test func datesShowTheYearWhenItIsNotThisOne() {
        let t = ts("2019-07-19T10:36:11-07:00")
        #expect(t.text(thisYear: 2019) == "19 Jul 10:36 -07:00")
        #expect(t.text(thisYear: 2026) == "19 Jul 2019 10:36 -07:00")
        #expect(day("2019-07-19").text(thisYear: 2026) == "19 Jul 2019")
        #expect(day("2026-07-19").text(thisYear: 2026) == "19 Jul")
    }

    @Test func aCombinedWriterIsNamedSoAndIsNeitherAlone() {
        #expect(Writer.combinedName(["Jane’s Apple Watch", " Oura"]) == "Jane’s Apple Watch + Oura (combined)")
        #expect(Writer.combinedName(["Oura"]) == "Oura")
        #expect(Writer.combinedName(["Oura", ""]) == "Oura")
    }

    @Test func importsWithoutHeartDataAreNotTheFirstRun() {
        let empty = HealthStore.allCases.map { StoreContents(store: $0) }
        #expect(DataDiagnosis(empty) == .noData)
        let imported = StreamState(store: .healthKit, stream: "apple-health-export", asOf: ts("2019-07-19T10:36:11-07:00"),
                                   origin: "Apple Health export")
        #expect(DataDiagnosis(empty, streams: [imported]) == .noHeartData(imported: [imported]))
        #expect(DataDiagnosis.explanation(imported: [imported], thisYear: 2026, zone: TimeZone(secondsFromGMT: -7 * 3600)!).last
                == "HealthKit: Apple Health export as of 19 Jul 2019 10:36 -07:00 (apple-health-export), with no resting or heart-rate records.")
        // In the machine's clock, whatever offset the phone wrote.
        #expect(DataDiagnosis.explanation(imported: [imported], thisYear: 2026, zone: TimeZone(identifier: "UTC")!).last
                == "HealthKit: Apple Health export as of 19 Jul 2019 17:36 +00:00 (apple-health-export), with no resting or heart-rate records.")
    }
}
