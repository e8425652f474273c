import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// R12's one rule, `Road.deciding`, asked by the core (`DaySeries.standing`) and by every store query that decides a
/// writer's day (heart rate, contents, history): on every mix of roads, they name the same road.
@Suite("The store decides a writer's day as the core does (R12)")
struct DecidingRoadAgreementTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func heartRate(_ count: Int, recordKey: String = "") -> HeartRateDaySummary {
        var summary = HeartRateDaySummary(writer: watch, day: day("2026-11-27"), recordKey: recordKey)
        for i in 0..<count { summary.add(bpm: 60 + Double(i), context: .sedentary) }
        return summary
    }

    /// One road each, each with its own value of 27 Nov and its own number of heart-rate samples that day.
    struct Road12 {
        var name: String
        var stream: String
        var bpm: Double
        var heartRate: Int
        var origin: String
        var batches: [SyncBatch]
    }

    /// The phone's road is read last on the 29th, but its word about the 27th is of the 28th at 08:00: older than
    /// the bridge's and the newer export's, newer than the old export's (imported late).
    var roads: [Road12] {
        let phone = [
            SyncBatch(store: .healthKit, stream: "http-phone", asOf: ts("2026-11-28T08:00:00+01:00"),
                      resting: [hk("2026-11-27 00:00:00 +0100", "2026-11-27 23:59:00 +0100", 55)], heartRate: [heartRate(2)],
                      watchWriters: [watch.name], origin: "Health Auto Export over HTTP", dayFeed: .replacesDays),
            SyncBatch(store: .healthKit, stream: "http-phone", asOf: ts("2026-11-29T09:00:00+01:00"),
                      resting: [hk("2026-11-28 00:00:00 +0100", "2026-11-28 21:00:00 +0100", 57)],
                      watchWriters: [watch.name], origin: "Health Auto Export over HTTP", dayFeed: .replacesDays),
        ]
        let bridge = SyncBatch(store: .healthKit, stream: "bridge", asOf: ts("2026-11-28T12:00:00+01:00"),
                               cursor: .init(previous: nil, next: "b1"),
                               resting: [hk("2026-11-27 00:02:00 +0100", "2026-11-27 23:30:00 +0100", 56)],
                               heartRate: [heartRate(1, recordKey: "HR-1")], origin: "bridge")
        return [
            Road12(name: "phone", stream: "http-phone", bpm: 55, heartRate: 2, origin: "Health Auto Export over HTTP",
                   batches: phone),
            Road12(name: "bridge", stream: "bridge", bpm: 56, heartRate: 1, origin: "bridge", batches: [bridge]),
            Road12(name: "new export", stream: "apple-health-export", bpm: 58, heartRate: 4, origin: "Apple Health export",
                   batches: [export("2026-11-28 20:00:00 +0100",
                                    [hk("2026-11-27 00:05:00 +0100", "2026-11-27 23:50:00 +0100", 58)],
                                    heartRate: [heartRate(4)], watchWriters: [watch.name])]),
            Road12(name: "old export", stream: "apple-health-export", bpm: 54, heartRate: 3, origin: "Apple Health export",
                   batches: [export("2026-11-27 12:00:00 +0100",
                                    [hk("2026-11-27 00:03:00 +0100", "2026-11-27 11:40:00 +0100", 54)],
                                    heartRate: [heartRate(3)], watchWriters: [watch.name])]),
        ]
    }

    @Test func everyMixOfRoadsIsDecidedByTheOneRule() throws {
        let all = roads
        // Which road decides 27 Nov, for each mix; the old export is imported late, then the mix comes in reverse.
        let table: [([String], String)] = [
            (["phone"], "phone"),
            (["phone", "old export"], "phone"),
            (["phone", "bridge"], "bridge"),
            (["phone", "new export"], "new export"),
            (["bridge", "old export"], "bridge"),
            (["new export", "old export"], "new export"),
            (["phone", "bridge", "old export"], "bridge"),
            (["phone", "bridge", "new export", "old export"], "new export"),
        ]
        for (index, (names, expected)) in table.enumerated() {
            let mix = names.map { name in all.first { $0.name == name }! }
            let decider = all.first { $0.name == expected }!
            var seen: [String] = []
            for (order, batches) in [("forward", mix.flatMap(\.batches)), ("reversed", mix.reversed().flatMap(\.batches))] {
                let store = try dir.store("mix-\(index)-\(order).sqlite")
                for batch in batches { _ = try store.apply(batch) }
                let samples = try store.samples().filter { $0.day == day("2026-11-27") }
                // The core's answer.
                let core = DaySeries.decidingRoad(samples[...])
                #expect(core != nil && core == samples.first { $0.bpm == decider.bpm }?.road, "\(names) \(order)")
                // The store's: the value, the heart rate, the counts and the history all follow the same road.
                let value = try store.days(aggregation: .mean).first { $0.day == day("2026-11-27") }
                #expect(value?.bpm == decider.bpm, "\(names) \(order)")
                #expect(try store.heartRateDays().first { $0.day == day("2026-11-27") }?.total == decider.heartRate,
                        "\(names) \(order)")
                let contents = try store.contents()
                #expect(StoreContents.tally(samples: try store.samples(), heartRate: try store.heartRateDays()) == contents)
                let history = try store.revisions().filter { $0.day == day("2026-11-27") && $0.reason != .deleted }
                #expect(Set(history.map(\.oldBPM)) == Set(mix.filter { $0.name != decider.name }.map(\.bpm)), "\(names) \(order)")
                #expect(history.allSatisfy { $0.origin == decider.origin && $0.replacedByBPM == decider.bpm },
                        "\(names) \(order)")
                // What a reader sees, never the order the rows were stored in.
                var lines = try Aggregation.allCases.flatMap { aggregation in
                    try store.days(aggregation: aggregation).map { "\($0.day) \(aggregation) \($0.bpmText) p=\($0.provisional) \($0.asOf?.iso8601 ?? "-")" }
                }
                lines += try store.heartRateDays().map { "hr \($0.day) \($0.total)" }
                lines += try store.revisions().map { "rev \($0.text(thisYear: 2026))" }
                lines += contents.map { "contents \($0.store) \($0.restingSamples) \($0.heartRateSamples)" }
                seen.append(lines.joined(separator: "\n"))
            }
            #expect(seen[0] == seen[1], "\(names): import order")
        }
    }
}
