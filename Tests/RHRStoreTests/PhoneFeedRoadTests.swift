import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// A phone feed's road (docs/design.md section 4b, R12): one road per token's stream that knows each day as of the
/// last request that carried it. Requests as `PhonePayload.imported(on: .phoneFeed(…))` makes them: Health Auto Export replaces the days it
/// carries, HC Webhook adds records.
@Suite("Phone feed roads (R12, section 4b)")
struct PhoneFeedRoadTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    /// A Health Auto Export request received at `asOf`.
    func request(_ asOf: String, _ resting: [RestingSample] = [], heartRate: [HeartRateDaySummary] = []) -> SyncBatch {
        SyncBatch(store: .healthKit, stream: "http-phone", asOf: ts(asOf), resting: resting, heartRate: heartRate,
                  watchWriters: [watch.name], origin: "Health Auto Export over HTTP", dayFeed: .replacesDays)
    }

    /// An HC Webhook request received at `asOf`: records identified by writer, type and time.
    func webhook(_ asOf: String, _ resting: [RestingSample] = [], heartRate: [HeartRateDaySummary] = []) -> SyncBatch {
        SyncBatch(store: .healthConnect, stream: "http-pixel", asOf: ts(asOf), resting: resting, heartRate: heartRate,
                  origin: "HC Webhook over HTTP", dayFeed: .addsRecords)
    }

    func heartRate(_ writer: Writer, _ text: String, _ bpms: [Double], record: String = "") -> HeartRateDaySummary {
        var summary = HeartRateDaySummary(writer: writer, day: day(text), recordKey: record)
        for bpm in bpms { summary.add(bpm: bpm, context: .notSet) }
        return summary
    }

    /// How many rows each table holds: what a request costs in storage.
    func rows(_ store: HealthDatabase) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for table in ["layer", "sample", "heart_rate", "revision", "tombstone", "stream_cursor"] {
            result[table] = try store.db.integer("SELECT count(*) AS n FROM \(table)", column: "n")
        }
        return result
    }

    /// What a reader sees: values under each aggregation with flags and as-of, heart rate, history, contents.
    func seen(_ store: HealthDatabase) throws -> [String] {
        var lines: [String] = []
        for aggregation in Aggregation.allCases {
            for v in try store.days(aggregation: aggregation) {
                lines.append("\(v.day) \(v.writer.name) \(aggregation) \(v.bpmText) n=\(v.samples) p=\(v.provisional) "
                    + "asOf=\(v.asOf?.iso8601 ?? "-")")
            }
        }
        for h in try store.heartRateDays() { lines.append("hr \(h.day) \(h.writer.name) \(h.total)") }
        for r in try store.revisions() { lines.append("rev \(r.text(thisYear: 2026))") }
        for c in try store.contents() { lines.append("contents \(c.store) \(c.restingSamples) \(c.heartRateSamples)") }
        return lines
    }

    var day27: RestingSample { hk("2026-11-27 00:00:00 +0100", "2026-11-27 23:59:00 +0100", 55) }
    var day28: RestingSample { hk("2026-11-28 00:00:00 +0100", "2026-11-28 21:00:00 +0100", 57) }

    // MARK: - A repeat changes nothing and stores nothing

    /// A phone posting the same period every 15 minutes: one road, nothing new stored, no change reported; only the
    /// stream's last delivery moves.
    @Test func aRepeatedRequestChangesNothingAndStoresNothingNew() throws {
        let s = try dir.store()
        let first = try s.apply(request("2026-11-28T22:00:00+01:00", [day27, day28],
                                        heartRate: [heartRate(watch, "2026-11-28", [71, 73])]))
        #expect(first.added == 2 && first.changedDays == [day("2026-11-27"), day("2026-11-28")])
        let revision = try s.revision(), stored = try rows(s), before = try seen(s)
        var minute = 15
        while minute <= 105 {
            let at = String(format: "2026-11-28T%02d:%02d:00+01:00", 22 + minute / 60, minute % 60)
            let again = try s.apply(request(at, [day27, day28], heartRate: [heartRate(watch, "2026-11-28", [71, 73])]))
            #expect(again.unchanged == 2 && again.added + again.replaced + again.deleted == 0)
            #expect(again.changedDays.isEmpty && !again.changedSomething, "\(at): \(again.changedDays)")
            minute += 15
        }
        #expect(try s.revision() == revision)
        #expect(try rows(s) == stored)
        #expect(try rows(s)["layer"] == 1)
        // Only when it last delivered moved: the stream's as-of, and the days' as-of (the phone read them again).
        #expect(try s.streams().first?.asOf == ts("2026-11-28T23:45:00+01:00"))
        #expect(try seen(s).map { $0.replacingOccurrences(of: "2026-11-28T23:45:00+01:00", with: "2026-11-28T22:00:00+01:00") }
                == before)

        // One more heart-rate sample of the 28th: the day's summary is replaced in place.
        let more = try s.apply(request("2026-11-29T00:00:00+01:00", [day27, day28],
                                       heartRate: [heartRate(watch, "2026-11-28", [71, 73, 75])]))
        #expect(more.changedDays.contains(day("2026-11-28")))
        #expect(try s.heartRateDays().map(\.total) == [3])
        #expect(try rows(s) == stored)
    }

    // MARK: - A day is as fresh as the last request that carried it

    /// The issue-13 trap: a request that carries heart rate only (or other days) must not make the phone's old word
    /// about a day fresher than a newer road's. The Apple export, read on 28 Nov at 20:00, holds 27 Nov's final 58;
    /// the phone said 55 for the 27th at 08:00 that morning and, the next day, only heart rate and the 28th.
    @Test func aRequestMakesOnlyTheDaysItCarriesFresher() throws {
        let phone = [
            request("2026-11-28T08:00:00+01:00", [day27], heartRate: [heartRate(watch, "2026-11-27", [60, 62])]),
            request("2026-11-29T09:00:00+01:00", [day28], heartRate: [heartRate(watch, "2026-11-29", [70])]),
            request("2026-11-29T09:15:00+01:00", heartRate: [heartRate(watch, "2026-11-29", [70, 71])]),
        ]
        var heartRate27 = heartRate(watch, "2026-11-27", [58, 59, 61, 63])
        heartRate27.recordKey = ""
        let exportBatch = export("2026-11-28 20:00:00 +0100",
                                 [hk("2026-11-27 00:05:00 +0100", "2026-11-27 23:50:00 +0100", 58)],
                                 heartRate: [heartRate27], watchWriters: [watch.name])
        let phoneFirst = try dir.store("a.sqlite"), exportFirst = try dir.store("b.sqlite")
        _ = try phoneFirst.apply(phone[0])
        _ = try phoneFirst.apply(exportBatch)
        _ = try phoneFirst.apply(phone[1])
        _ = try phoneFirst.apply(phone[2])
        _ = try exportFirst.apply(exportBatch)
        for batch in phone { _ = try exportFirst.apply(batch) }
        for s in [phoneFirst, exportFirst] {
            let latest = try s.days(aggregation: .latest)
            #expect(latest.map { "\($0.day) \($0.bpmText)" } == ["2026-11-27 58", "2026-11-28 57"])
            // 27 Nov: the export's word, read the next day; 28 Nov: the phone's, read on the 29th at 09:00. Both
            // drafts (R3), by the road that decides each.
            #expect(latest.map(\.provisional) == [true, true])
            #expect(latest.map(\.asOf) == [ts("2026-11-28T20:00:00+01:00"), ts("2026-11-29T09:00:00+01:00")])
            // Heart rate of the 27th comes from the road deciding its resting value: the export's four samples.
            #expect(try s.heartRateDays().map(\.total) == [4, 2])
            #expect(try s.revisions().map { $0.text(thisYear: 2026) } == ["draft 55 → 58 (Apple Health export, 28 Nov 20:00 +01:00)"])
        }
        #expect(try seen(phoneFirst) == seen(exportFirst))

        // The phone says the 27th again after the export: now its word is the freshest, and the day changed.
        let again = try phoneFirst.apply(request("2026-11-29T10:00:00+01:00", [day27]))
        #expect(again.changedDays == [day("2026-11-27")])
        #expect(try phoneFirst.days(aggregation: .latest).first?.bpm == 55)
    }

    /// The same for HC Webhook, whose requests add records: heart rate alone leaves the Health Connect export's
    /// newer value of the 27th standing.
    @Test func anHCWebhookRequestMakesOnlyTheDaysItCarriesFresher() throws {
        let record = RestingSample(store: .healthConnect, writer: oura, start: date("2026-11-27T05:58:00Z"),
                                   end: date("2026-11-27T05:58:00Z"), offsetSeconds: nil, value: 57)
        let exportBatch = SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-28T12:00:00Z"),
                                    snapshot: .init(), resting: [hc("aa11", "2026-11-27T06:10:00Z", offset: 0, 56)],
                                    origin: "Health Connect export")
        let s = try dir.store()
        _ = try s.apply(webhook("2026-11-28T06:00:00Z", [record]))
        let repeated = try s.apply(webhook("2026-11-28T06:15:00Z", [record]))
        #expect(repeated.changedDays.isEmpty && repeated.unchanged == 1)
        _ = try s.apply(exportBatch)
        let heartRateOnly = try s.apply(webhook("2026-11-29T06:00:00Z", heartRate: [heartRate(oura, "2026-11-29", [70], record: "r1")]))
        #expect(heartRateOnly.changedDays == [day("2026-11-29")])
        #expect(try s.days(aggregation: .latest).map(\.bpm) == [56])
        // Sent again in the look-back, after the export: the webhook's record decides the 27th.
        let lookBack = try s.apply(webhook("2026-11-29T06:15:00Z", [record]))
        #expect(lookBack.changedDays == [day("2026-11-27")])
        #expect(try s.days(aggregation: .latest).map(\.bpm) == [57])
        #expect(try rows(s)["layer"] == 2)
    }

    // MARK: - Replaced values and words that move

    /// Apple replaced the draft: the later request no longer has it. It leaves the road, kept in the history as
    /// replaced by the day's new value; the road stores the new sample and one revision, not a second copy.
    @Test func aValueTheRequestNoLongerCarriesLeavesWithItsHistory() throws {
        let s = try dir.store()
        let draft = hk("2026-11-28 00:00:00 +0100", "2026-11-28 09:00:00 +0100", 61)
        let final = hk("2026-11-28 00:00:00 +0100", "2026-11-28 21:00:00 +0100", 58)
        _ = try s.apply(request("2026-11-28T09:30:00+01:00", [day27, draft]))
        let replaced = try s.apply(request("2026-11-28T22:00:00+01:00", [final]))
        #expect(replaced.added == 1 && replaced.deleted == 1 && replaced.changedDays == [day("2026-11-28")])
        #expect(try s.days(aggregation: .mean).map { "\($0.day) \($0.bpmText) n=\($0.samples)" }
                == ["2026-11-27 55.0 n=1", "2026-11-28 58.0 n=1"])
        #expect(try s.revisions().map { $0.text(thisYear: 2026) } == ["draft 61 → 58 (Health Auto Export over HTTP, 28 Nov 22:00 +01:00)"])
        #expect(try rows(s)["sample"] == 2 && rows(s)["revision"] == 1)
        // The 27th, which the request did not carry, keeps its value and its word of 09:30.
        #expect(try s.days(aggregation: .latest).first?.asOf == ts("2026-11-28T09:30:00+01:00"))
    }

    /// A request replaces the days of the writers it carries: one that carries only the scale's value of the 28th (one
    /// source's points, or a window that starts after the watch's estimate) leaves the watch's value of that day.
    @Test func aRequestReplacesOnlyTheWritersDaysItCarries() throws {
        let s = try dir.store()
        let scale28 = hk("2026-11-28 07:00:00 +0100", "2026-11-28 07:00:00 +0100", 60, writer: scale)
        _ = try s.apply(request("2026-11-28T22:00:00+01:00", [day28, scale28],
                                heartRate: [heartRate(watch, "2026-11-28", [70]), heartRate(scale, "2026-11-28", [66])]))
        let scaleOnly = try s.apply(request("2026-11-28T23:00:00+01:00",
                                            [hk("2026-11-28 07:05:00 +0100", "2026-11-28 07:05:00 +0100", 61, writer: scale)],
                                            heartRate: [heartRate(scale, "2026-11-28", [66, 67])]))
        #expect(scaleOnly.added == 1 && scaleOnly.deleted == 1)
        #expect(try s.days(aggregation: .latest).map { "\($0.writer.name) \($0.bpmText)" } == ["Jane’s Apple Watch 57", "Withings 61"])
        #expect(try s.heartRateDays().map { "\($0.writer.name) \($0.total)" } == ["Jane’s Apple Watch 1", "Withings 2"])
        #expect(try s.revisions().map { $0.text(thisYear: 2026) } == ["60 → 61 (Health Auto Export over HTTP, 28 Nov 23:00 +01:00)"])
    }

    /// A repeat is a change when a reader sees the day differently: read two days later the draft is final (R3); read
    /// after another road's word about the day, the phone's decides again (R12).
    @Test func aRepeatThatEndsADraftOrPassesAnotherRoadIsAChange() throws {
        let s = try dir.store()
        _ = try s.apply(request("2026-11-28T22:00:00+01:00", [day28]))
        #expect(try s.days(aggregation: .latest).map(\.provisional) == [true])
        let sameDay = try s.apply(request("2026-11-28T23:00:00+01:00", [day28]))
        #expect(sameDay.changedDays.isEmpty)
        let later = try s.apply(request("2026-11-30T08:00:00+01:00", [day28]))
        #expect(later.changedDays == [day("2026-11-28")])
        #expect(try s.days(aggregation: .latest).map(\.provisional) == [false])

        _ = try s.apply(export("2026-11-30 12:00:00 +0100", [hk("2026-11-28 00:05:00 +0100", "2026-11-28 23:50:00 +0100", 59)],
                               watchWriters: [watch.name]))
        #expect(try s.days(aggregation: .latest).map(\.bpm) == [59])
        let passes = try s.apply(request("2026-11-30T12:15:00+01:00", [day28]))
        #expect(passes.unchanged == 1 && passes.changedDays == [day("2026-11-28")])
        #expect(try s.days(aggregation: .latest).map(\.bpm) == [57])
    }

    // MARK: - Freshness

    /// `rhr status` and `GET /v1/status` read what the feed's road holds: the newest resting and heart-rate days,
    /// and counts that a repeated request does not grow. A heart-rate day after the day following the request (a
    /// clock far ahead, R13) does not count as heart rate still arriving.
    @Test func freshnessReadsWhatTheFeedsRoadHolds() throws {
        let s = try dir.store()
        _ = try s.apply(request("2026-11-26T22:00:00+01:00", [hk("2026-11-26 00:00:00 +0100", "2026-11-26 23:00:00 +0100", 55)],
                                heartRate: [heartRate(watch, "2026-11-26", [70])]))
        for _ in 0..<2 {
            _ = try s.apply(request("2026-11-28T09:00:00+01:00", heartRate: [heartRate(watch, "2026-11-28", [70, 72]),
                                                                            heartRate(watch, "2027-05-01", [80])]))
        }
        let stream = try #require(try s.streams().first)
        #expect(stream.newestRestingDay == day("2026-11-26"))
        #expect(stream.newestHeartRateDay == day("2026-11-28"))
        #expect(FeedFreshness(stream)?.restingStopped == true)
        let deliveries = try s.deliveries(stream: "http-phone")
        #expect(deliveries.map(\.restingSamples) == [1])
        #expect(deliveries.map(\.heartRateSamples) == [4])
    }

    /// The freshness queries walk indexes, never a whole table.
    @Test func freshnessQueriesUseIndexes() throws {
        let s = try dir.store()
        for sql in [StreamFreshnessQuery.roads, StreamFreshnessQuery.newestResting, StreamFreshnessQuery.newestHeartRate,
                    StreamFreshnessQuery.counts] {
            let plan = try s.db.statement("EXPLAIN QUERY PLAN " + sql)
            let detail = try plan.column("detail")
            var steps: [String] = []
            while try plan.step() { steps.append(plan.text(detail)) }
            let scans = steps.filter { $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN w") }
            #expect(scans.isEmpty, "\(sql): \(steps)")
            #expect(steps.contains { $0.contains("USING") }, "\(sql): \(steps)")
        }
    }
}
