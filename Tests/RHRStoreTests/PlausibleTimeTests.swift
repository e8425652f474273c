import Foundation
import RHRCore
@testable import RHRStore
import RHRTestSupport
import Testing

/// R13: garbage dates are stored, flagged, shown, and kept out of every aggregate.
@Suite("Plausible time (R13)")
struct PlausibleTimeTests {
    @Test func implausibleDatesAreKeptFlaggedAndLeftOutOfEveryAggregate() throws {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        var batch = live("2026-03-14T08:00:00+01:00", previous: nil, next: "a1", [
            hk("2026-03-13T00:05:00+01:00", "2026-03-13T23:40:00+01:00", 57, uuid: "GOOD"),
            hk("0001-01-01T00:00:00+00:00", "0001-01-01T12:00:00+00:00", 50, uuid: "YEAR1"),
            hk("2026-03-18T00:05:00+01:00", "2026-03-18T09:00:00+01:00", 52, uuid: "FUTURE"),
            hk("2026-03-10T00:00:00+01:00", "2026-03-13T12:00:00+01:00", 54, uuid: "LONG"),
        ])
        var year1 = HeartRateDaySummary(writer: watch, day: day("0001-01-01"), recordKey: "HR-OLD")
        year1.add(bpm: 60, context: .sedentary)
        var fine = HeartRateDaySummary(writer: watch, day: day("2026-03-13"), recordKey: "HR-OK")
        fine.add(bpm: 55, context: .sedentary)
        batch.heartRate = [year1, fine]
        let outcome = try store.apply(batch)
        #expect(outcome.added == 4)
        // Kept and flagged.
        let samples = try store.samples()
        #expect(samples.count == 4)
        #expect(samples.filter(\.implausibleDate).compactMap(\.sample.uuid).sorted() == ["FUTURE", "LONG", "YEAR1"])
        // Out of every aggregate: each of their days holds a count and no value.
        for aggregation in Aggregation.allCases {
            let values = try store.days(aggregation: aggregation)
            #expect(values.map(\.day.description) == ["0001-01-01", "2026-03-11", "2026-03-13", "2026-03-18"])
            #expect(values.map(\.bpm) == [nil, nil, 57, nil])
            #expect(values.map(\.implausibleDate) == [1, 1, 0, 1])
            #expect(values.map(\.samples) == [0, 0, 1, 0])
        }
        // Heart rate of an implausible day is kept but not shown.
        #expect(try store.heartRateDays().map(\.day) == [day("2026-03-13")])
        // A bridge that reads on later does not make the sample that ended after its first read plausible: it
        // is judged against the read that delivered it.
        _ = try store.apply(live("2026-03-20T08:00:00+01:00", previous: "a1", next: "a2"))
        #expect(try store.samples().filter(\.implausibleDate).count == 3)
    }
}
