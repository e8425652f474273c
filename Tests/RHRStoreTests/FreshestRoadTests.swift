import Foundation
import RHRCore
import RHRFormats
import RHRTestSupport
import Testing
@testable import RHRStore

/// R12: one truth per store, writer and day, whatever the road; the same batches in any order give the same store.
@Suite("One truth per writer and day (R12)")
struct FreshestRoadTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    /// A bridge batch of the watch (a live road of its own).
    func bridge(_ asOf: String, previous: String?, next: String, _ samples: [RestingSample] = [],
                deleted: [String] = []) -> SyncBatch {
        SyncBatch(store: .healthKit, stream: "bridge", asOf: ts(asOf), cursor: .init(previous: previous, next: next),
                  resting: samples, deleted: deleted, origin: "bridge")
    }

    /// What every reader of the store sees, in words: values under each aggregation with their flags, heart rate,
    /// and the history.
    func everything(_ store: HealthDatabase) throws -> [String] {
        var lines: [String] = []
        for aggregation in Aggregation.allCases {
            for v in try store.days(aggregation: aggregation) {
                lines.append("\(v.day) \(v.writer.name) \(aggregation) \(v.bpmText) n=\(v.samples) p=\(v.provisional) x=\(v.outOfRange)")
            }
        }
        for h in try store.heartRateDays() { lines.append("hr \(h.day) \(h.writer.name) \(h.total) \(h.histogramText)") }
        for r in try store.revisions() { lines.append("rev \(r.day) \(r.writer.name) \(r.reason) \(r.text(thisYear: 2026))") }
        let contents = try store.contents()
        for c in contents { lines.append("contents \(c.store) \(c.restingSamples) \(c.heartRateSamples)") }
        // The dashboard and the summary tally the samples they read instead of asking the store again: the same.
        #expect(StoreContents.tally(samples: try store.samples(), heartRate: try store.heartRateDays()) == contents)
        return lines
    }

    // One watch, two roads: the bridge replaced the day's draft twice (63 → 61 → 60); two days later the Apple export
    // holds the day's final 59, and 9 Feb at 58 as the bridge had it (another window, the same value).
    var bridgeDay: [SyncBatch] {
        [
            bridge("2026-02-10T08:00:00+01:00", previous: nil, next: "b1", [
                hk("2026-02-09T00:01:00+01:00", "2026-02-09T23:50:00+01:00", 58, uuid: "D9"),
                hk("2026-02-10T00:01:00+01:00", "2026-02-10T07:50:00+01:00", 63, uuid: "A"),
            ]),
            bridge("2026-02-10T13:00:00+01:00", previous: "b1", next: "b2",
                   [hk("2026-02-10T00:01:00+01:00", "2026-02-10T12:50:00+01:00", 61, uuid: "B")], deleted: ["A"]),
            bridge("2026-02-10T23:00:00+01:00", previous: "b2", next: "b3",
                   [hk("2026-02-10T00:01:00+01:00", "2026-02-10T22:50:00+01:00", 60, uuid: "C")], deleted: ["B"]),
        ]
    }
    var laterExport: SyncBatch {
        export("2026-02-12 21:00:00 +0100", [
            hk("2026-02-09 00:00:00 +0100", "2026-02-09 23:40:00 +0100", 58),
            hk("2026-02-10 00:00:00 +0100", "2026-02-10 23:40:00 +0100", 59),
        ], watchWriters: [watch.name])
    }

    @Test func oneWatchOverTwoRoadsGivesOneValueADayWhicheverCameFirst() throws {
        let bridgeFirst = try dir.store("a.sqlite")
        _ = try bridgeFirst.apply(bridgeDay)
        _ = try bridgeFirst.apply(laterExport)
        let exportFirst = try dir.store("b.sqlite")
        _ = try exportFirst.apply(laterExport)
        _ = try exportFirst.apply(bridgeDay)

        for s in [bridgeFirst, exportFirst] {
            let mean = try s.days(aggregation: .mean).first { $0.day == day("2026-02-10") }
            // Not 59.5, the export's final 59 with the bridge's superseded 60; one live sample; final.
            #expect(mean?.bpm == 59 && mean?.samples == 1 && mean?.provisional == false)
            #expect(try s.days(aggregation: .lowest).first { $0.day == day("2026-02-10") }?.bpm == 59)
            // The whole history: 9 Feb, 58 on both roads, is no revision.
            let history = try s.revisions().map { $0.text(thisYear: 2026) }
            #expect(history == [
                "draft 63 → 61 (bridge, 10 Feb 13:00 +01:00)",
                "draft 61 → 60 (bridge, 10 Feb 23:00 +01:00)",
                "draft 60 → 59 (Apple Health export, 12 Feb 21:00 +01:00)",
            ])
        }
        #expect(try everything(bridgeFirst) == everything(exportFirst))
    }

    @Test func provisionalFollowsTheRoadThatDecides() throws {
        let s = try dir.store()
        _ = try s.apply(bridgeDay)
        // The bridge read 10 Feb on 10 Feb: its values of 9 and 10 Feb are drafts.
        #expect(try s.days(aggregation: .latest).map(\.provisional) == [true, true])
        _ = try s.apply(laterExport)
        // The export, read on 12 Feb, decides both days: final.
        #expect(try s.days(aggregation: .latest).map(\.provisional) == [false, false])
        // A bridge read after the export decides again, with its own asOf: 10 Feb is final to it by then.
        _ = try s.apply(bridge("2026-02-13T09:00:00+01:00", previous: "b3", next: "b4"))
        let values = try s.days(aggregation: .latest)
        #expect(values.map(\.bpm) == [58, 60])
        #expect(values.map(\.provisional) == [false, false])
        #expect(values.map(\.asOf) == [ts("2026-02-13T09:00:00+01:00"), ts("2026-02-13T09:00:00+01:00")])
        // Dated by the later of the two words (the export's 59, the bridge's 60), not by the bridge's newest read,
        // which moves on with every batch.
        #expect(try s.revisions().last?.text(thisYear: 2026) == "59 → 60 (bridge, 12 Feb 21:00 +01:00)")
    }

    @Test func aDeletionSeenLaterWinsWhateverTheImportOrder() throws {
        let exportBatch = SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-29T08:00:00+01:00"),
                                    snapshot: .init(), resting: [hc("aa11", "2026-11-28T06:00:00Z", offset: 3600, 60),
                                                                 hc("bb22", "2026-11-27T06:00:00Z", offset: 3600, 57)],
                                    origin: "Health Connect export")
        let deletion = live("2026-11-29T10:00:00+01:00", previous: nil, next: "t1", deleted: ["AA11"], store: .healthConnect)
        let a = try dir.store("a.sqlite"), b = try dir.store("b.sqlite")
        _ = try a.apply(exportBatch)
        let taken = try a.apply(deletion)
        #expect(taken.deleted == 1)
        _ = try b.apply(deletion)
        let late = try b.apply(exportBatch)
        // An export read before the deletion does not bring the record back (R4).
        #expect(late.added == 1)
        for s in [a, b] {
            #expect(try s.days(aggregation: .latest).map(\.bpm) == [57])
            #expect(try s.revisions().map { $0.text(thisYear: 2026) } == ["60, deleted (iphone, 29 Nov 10:00 +01:00)"])
        }
        #expect(try everything(a) == everything(b))
        // An export read after the deletion holds the record again: it stands again.
        var newer = exportBatch
        newer.asOf = ts("2026-11-30T08:00:00+01:00")
        _ = try a.apply(newer)
        #expect(try a.days(aggregation: .latest).map(\.bpm) == [57, 60])
    }

    @Test func aRecordUpdatedAfterTheExportKeepsItsNewValueInEitherOrder() throws {
        let exportBatch = SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-29T08:00:00+01:00"),
                                    snapshot: .init(), resting: [hc("aa11", "2026-11-28T06:00:00Z", offset: 3600, 60)],
                                    origin: "Health Connect export")
        let update = live("2026-11-29T10:00:00+01:00", previous: nil, next: "t1",
                          [hc("AA11", "2026-11-28T06:00:00Z", offset: 3600, 62)], store: .healthConnect)
        let a = try dir.store("a.sqlite"), b = try dir.store("b.sqlite")
        _ = try a.apply([exportBatch, update])
        _ = try b.apply([update, exportBatch])
        for s in [a, b] {
            #expect(try s.days(aggregation: .mean).map(\.bpm) == [62])
            #expect(try s.days(aggregation: .mean).map(\.samples) == [1])
            #expect(try s.revisions().map { $0.text(thisYear: 2026) } == ["60 → 62 (iphone, 29 Nov 10:00 +01:00)"])
        }
        #expect(try everything(a) == everything(b))
    }

    /// Two exports of one stream that hold a sample at the same bpm in other units: the older copy is not kept, and
    /// the store is the same whichever came first (one rule, `SampleRow.sameValue`, for both orders).
    @Test func anEqualValueInOtherUnitsIsTheSameValueInEitherOrder() throws {
        let older = export("2026-11-29 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 1,
                                                            uuid: "A", unit: "count/s")])
        let newer = export("2026-11-30 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 60,
                                                            uuid: "A")])
        let a = try dir.store("a.sqlite"), b = try dir.store("b.sqlite")
        _ = try a.apply([older, newer])
        _ = try b.apply([newer, older])
        #expect(try everything(a) == everything(b))
        // Every copy kept, standing or not: the older one says nothing the newer does not.
        for store in [a, b] { #expect(try store.db.integer("SELECT count(*) AS n FROM sample", column: "n") == 1) }
    }

    @Test func heartRateComesFromTheRoadThatDecidesTheRestingDay() throws {
        var exportDay = HeartRateDaySummary(writer: watch, day: day("2026-02-10"))
        for bpm in [52.0, 55, 58, 61] { exportDay.add(bpm: bpm, context: .sedentary) }
        var withHeartRate = laterExport
        withHeartRate.heartRate = [exportDay]
        var bridgeBatches = bridgeDay
        var one = HeartRateDaySummary(writer: watch, day: day("2026-02-10"), recordKey: "HR-1")
        one.add(bpm: 50, context: .sedentary)
        bridgeBatches[2].heartRate = [one]
        let a = try dir.store("a.sqlite"), b = try dir.store("b.sqlite")
        _ = try a.apply(bridgeBatches + [withHeartRate])
        _ = try b.apply([withHeartRate] + bridgeBatches)
        for s in [a, b] {
            // The export decides 10 Feb's resting value, so its heart rate speaks for the day, never the sum.
            let days = try s.heartRateDays()
            #expect(days.map(\.total) == [4])
            #expect(days.first?.sedentaryMin == 52)
        }
        #expect(try everything(a) == everything(b))
    }

    /// The issue's own example: the Apple export of 17 Mar, the Health Auto Export file and the bridge's day.
    @Test func theIssuesThreeFilesInEveryOrder() throws {
        let options = ImportOptions(machineZone: utc)
        let files = try ["apple-health/export-2.xml", "health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json",
                         "bridge/watch-draft-replaced.jsonl"].map { try FileImporter.read(path: SourceTree.samples + "/" + $0, options: options) }
        var results: [[String]] = []
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let s = try dir.store("order-\(order.map(String.init).joined()).sqlite")
            for i in order { _ = try s.apply(files[i].batches) }
            results.append(try everything(s))
            let watchHistory = try s.revisions().filter { $0.writer.name == "Jane’s Apple Watch" && $0.day == day("2026-03-14") }
                .map { $0.text(thisYear: 2026) }
            // The bridge's own chain, each value replaced by the one that replaced it on the bridge, then the
            // bridge's last word against the export that decides the day. Never "x → x".
            #expect(watchHistory == [
                "draft 61 → 59 (watch-draft-replaced.jsonl, 14 Mar 12:15 +01:00)",
                "draft 59 → 58 (watch-draft-replaced.jsonl, 14 Mar 23:58 +01:00)",
                "draft 58 → 57 (watch-draft-replaced.jsonl, 15 Mar 07:35 +01:00)",
                "draft 57 → 58 (Apple Health export, 17 Mar 21:10 +01:00)",
            ])
            let mean = try s.days(aggregation: .mean).first { $0.day == day("2026-03-14") && $0.writer.name == "Jane’s Apple Watch" }
            #expect(mean?.bpm == 58 && mean?.samples == 1 && mean?.provisional == false)
        }
        #expect(Set(results.map { $0.joined(separator: "\n") }).count == 1)
    }
}
