import Foundation
import RHRCore
import Testing
@testable import RHRStore
import RHRTestSupport

@Suite("Applying batches")
struct BatchApplicationTests {
    let dir: TemporaryDirectory

    init() throws { dir = try TemporaryDirectory() }

    @Test func upsertsBecomeDaysPerWriter() throws {
        let store = try dir.store()
        let outcome = try store.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1", [
            hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 57, uuid: "U1"),
            hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58.5, writer: scale, uuid: "U2"),
        ]))
        #expect(outcome.added == 2 && outcome.deleted == 0 && outcome.revision == 1)
        #expect(outcome.changedDays == [day("2026-11-27"), day("2026-11-28")])
        let days = try store.days(aggregation: .latest)
        #expect(days.map { "\($0.day) \($0.writer.name) \($0.bpmText)" } == [
            "2026-11-27 Jane’s Apple Watch 57", "2026-11-28 Withings 58.5",
        ])
    }

    @Test func theSameBatchTwiceChangesNothing() throws {
        let store = try dir.store()
        let batch = export("2026-11-29 08:00:00 +0100", [
            hk("2026-11-28 00:05:00 +0100", "2026-11-28 23:40:00 +0100", 58),
            hk("2026-11-27 00:05:00 +0100", "2026-11-27 23:40:00 +0100", 0),
        ], heartRate: [HeartRateDaySummary(writer: watch, day: day("2026-11-28"), notSet: 3, sedentary: 1, active: 2,
                                           sedentaryMin: 61, sedentaryHistogram: [61: 1])])
        let first = try store.apply(batch)
        #expect(first.added == 2 && first.outOfRange == 1 && first.heartRateSummaries == 1)
        let before = try store.dump()
        let second = try store.apply(batch)
        #expect(second.added == 0 && second.replaced == 0 && second.deleted == 0 && second.unchanged == 2)
        #expect(!second.changedSomething)
        #expect(second.revision == first.revision)
        #expect(try store.dump() == before)

        let liveBatch = live("2026-11-29T09:00:00+01:00", previous: nil, next: "c1",
                             [hk("2026-11-29T00:05:00+01:00", "2026-11-29T08:40:00+01:00", 60, uuid: "X")])
        _ = try store.apply(liveBatch)
        let afterLive = try store.dump()
        let duplicate = try store.apply(liveBatch)
        #expect(duplicate.duplicate && !duplicate.changedSomething)
        #expect(try store.dump() == afterLive)
    }

    @Test func aSequenceAppliedAgainIsAnsweredAsDuplicates() throws {
        let store = try dir.store()
        let sequence = [
            live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1", [hk("2026-11-28T00:05:00+01:00", "2026-11-28T08:40:00+01:00", 62, uuid: "D")]),
            live("2026-11-29T22:00:00+01:00", previous: "a1", next: "a2", [hk("2026-11-28T00:05:00+01:00", "2026-11-28T21:40:00+01:00", 59, uuid: "F")], deleted: ["D"]),
        ]
        _ = try store.apply(sequence)
        let before = try store.dump()
        let again = try store.apply(sequence)
        #expect(again.map(\.duplicate) == [true, true])
        #expect(try store.dump() == before)
        // After a full resync the old lineage is forgotten: its first batch is a gap, not a duplicate.
        _ = try store.apply(live("2026-11-30T08:00:00+01:00", previous: nil, next: "r1", fullResync: true))
        #expect(throws: StoreError.self) { try store.apply(sequence[1]) }
    }

    @Test func cursorMismatchIsRefusedAndChangesNothing() throws {
        let store = try dir.store()
        _ = try store.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1",
                                 [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U1")]))
        let before = try store.dump()
        #expect { try store.apply(live("2026-11-29T09:00:00+01:00", previous: "zz", next: "a3",
                                       [hk("2026-11-29T00:05:00+01:00", "2026-11-29T08:00:00+01:00", 59, uuid: "U2")])) }
            throws: { ($0 as? StoreError)?.code == .cursorMismatch }
        // A stream that has a cursor refuses a batch that claims to start from nothing.
        #expect { try store.apply(live("2026-11-29T09:00:00+01:00", previous: nil, next: "a3")) }
            throws: { ($0 as? StoreError)?.code == .cursorMismatch }
        #expect(try store.dump() == before)
        let next = try store.apply(live("2026-11-29T09:00:00+01:00", previous: "a1", next: "a2",
                                        [hk("2026-11-29T00:05:00+01:00", "2026-11-29T08:00:00+01:00", 59, uuid: "U2")]))
        #expect(next.added == 1)
        #expect(try store.streams().first?.cursor == "a2")
    }

    @Test func fullResyncReplacesWhatTheStreamDelivered() throws {
        let store = try dir.store()
        _ = try store.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1", [
            hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 57, uuid: "U1"),
            hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U2"),
        ]))
        let outcome = try store.apply(live("2026-11-29T10:00:00+01:00", previous: "lost", next: "b1",
                                           [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U2")],
                                           fullResync: true))
        #expect(outcome.deleted == 1 && outcome.unchanged == 1)
        #expect(try store.days(aggregation: .latest).map(\.day) == [day("2026-11-28")])
        #expect(try store.revisions().map(\.reason) == [.fullResync])
        #expect(try store.streams().first?.cursor == "b1")
    }

    @Test func deletionsAreHonouredAndKeptInTheHistory() throws {
        let store = try dir.store()
        _ = try store.apply(live("2026-11-28T09:00:00+01:00", previous: nil, next: "a1",
                                 [hk("2026-11-28T00:05:00+01:00", "2026-11-28T08:40:00+01:00", 62, uuid: "DRAFT")]))
        #expect(try store.samples().first?.provisional == true)
        // Apple replaces the watch's draft: the anchored query reports the deletion and the new sample.
        let outcome = try store.apply(live("2026-11-28T23:55:00+01:00", previous: "a1", next: "a2",
                                           [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 59, uuid: "FINAL")],
                                           deleted: ["DRAFT"]))
        #expect(outcome.added == 1 && outcome.deleted == 1)
        #expect(try store.days(aggregation: .latest).map(\.bpm) == [59])
        let history = try store.revisions()
        #expect(history.count == 1)
        #expect(history[0].reason == .deleted)
        #expect(history[0].wasProvisional)
        #expect(history[0].replacedByBPM == 59)
        #expect(history[0].text(thisYear: 2026) == "draft 62 → 59 (iphone, 28 Nov 23:55 +01:00)")
        // Deleting what is already gone changes nothing.
        let again = try store.apply(live("2026-11-28T23:56:00+01:00", previous: "a2", next: "a3", deleted: ["DRAFT"]))
        #expect(again.deleted == 0)
    }

    @Test func aNewerExportReplacesTheDraftAndAnOlderOneImportedLateIsAnOlderRoad() throws {
        let store = try dir.store()
        let older = export("2026-03-14 09:00:00 +0100", [
            hk("2026-03-13 00:03:00 +0100", "2026-03-13 23:50:00 +0100", 57),
            hk("2026-03-14 00:03:00 +0100", "2026-03-14 08:30:00 +0100", 62),   // today's draft
        ])
        _ = try store.apply(older)
        #expect(try store.samples().map(\.provisional) == [true, true])
        let newer = export("2026-03-14 21:00:00 +0100", [
            hk("2026-03-13 00:03:00 +0100", "2026-03-13 23:50:00 +0100", 57),
            hk("2026-03-14 00:03:00 +0100", "2026-03-14 20:45:00 +0100", 59),   // the better estimate
        ])
        let outcome = try store.apply(newer)
        #expect(outcome.added == 1 && outcome.deleted == 1 && outcome.unchanged == 1)
        #expect(try store.days(aggregation: .latest).map(\.bpm) == [57, 59])
        #expect(try store.days(aggregation: .mean).map(\.samples) == [1, 1])
        let history = try store.revisions()
        #expect(history.map { $0.text(thisYear: 2026) } == ["draft 62 → 59 (Apple Health export, 14 Mar 21:00 +01:00)"])

        // The older export again is the same road again: nothing changes, nothing is refused.
        let before = try store.dump()
        let again = try store.apply(older)
        #expect(!again.changedSomething && again.added == 0 && again.replaced == 0 && again.deleted == 0)
        #expect(try store.dump() == before)
        // The other order ends in the same store: the older export, imported late, is an older road (R12).
        let other = try dir.store("other.sqlite")
        _ = try other.apply(newer)
        let late = try other.apply(older)
        #expect(late.added == 0 && late.deleted == 0 && late.changedSomething)
        #expect(try other.dump() == before)
        #expect(try other.streams().first?.asOf == ts("2026-03-14 21:00:00 +0100"))
    }

    @Test func aSnapshotOnlyRemovesWhatItsOwnStreamSaid() throws {
        let store = try dir.store()
        let sample = hk("2026-03-10 00:03:00 +0100", "2026-03-10 23:50:00 +0100", 57, uuid: "LIVE-1")
        _ = try store.apply(live("2026-03-11T08:00:00+01:00", previous: nil, next: "a1", [sample]))
        _ = try store.apply(export("2026-03-12 09:00:00 +0100", [sample]))
        // One sample by two roads: one value, one sample behind it (R12).
        #expect(try store.days(aggregation: .mean).map(\.samples) == [1])
        _ = try store.apply(export("2026-03-13 09:00:00 +0100", []))
        // The live road still speaks for it.
        #expect(try store.days(aggregation: .mean).map(\.samples) == [1])
        #expect(try store.samples().map(\.stream) == ["iphone"])
        _ = try store.apply(live("2026-03-13T10:00:00+01:00", previous: "a1", next: "a2", deleted: ["LIVE-1"]))
        #expect(try store.samples().isEmpty)
    }

    @Test func healthConnectIdsMatchAcrossRoads() throws {
        let store = try dir.store()
        _ = try store.apply(SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-29T08:00:00+01:00"),
                                      snapshot: .init(), resting: [hc("6f1cab12cd3e4f5061728394a5b6c7d8", "2026-11-28T06:00:00Z", offset: 3600, 55)]))
        let outcome = try store.apply(live("2026-11-29T09:00:00+01:00", previous: nil, next: "t1",
                                           [hc("6F1CAB12-CD3E-4F50-6172-8394A5B6C7D8", "2026-11-28T06:00:00Z", offset: 3600, 54)],
                                           store: .healthConnect))
        #expect(outcome.replaced == 1 && outcome.added == 0)
        #expect(try store.days(aggregation: .latest).map(\.bpm) == [54])
        #expect(try store.revisions().first?.reason == .replaced)
        _ = try store.apply(live("2026-11-29T10:00:00+01:00", previous: "t1", next: "t2",
                                 deleted: ["6F1CAB12-CD3E-4F50-6172-8394A5B6C7D8"], store: .healthConnect))
        #expect(try store.samples().isEmpty)
    }

    @Test func healthKitNaturalKeyJoinsAnExportAndALiveFeed() throws {
        let store = try dir.store()
        _ = try store.apply(export("2026-03-12 09:00:00 +0100", [hk("2026-03-10 00:03:00 +0100", "2026-03-10 23:50:00 +0100", 57)]))
        let outcome = try store.apply(live("2026-03-12T10:00:00+01:00", previous: nil, next: "a1",
                                           [hk("2026-03-10T00:03:00+01:00", "2026-03-10T23:50:00+01:00", 57, uuid: "U-7")]))
        #expect(outcome.added == 0 && outcome.unchanged == 1)
        #expect(try store.days(aggregation: .mean).map(\.samples) == [1])
        _ = try store.apply(live("2026-03-12T11:00:00+01:00", previous: "a1", next: "a2", deleted: ["U-7"]))
        #expect(try store.samples().isEmpty)
    }

    @Test func outOfRangeValuesAreKeptFlaggedAndExcluded() throws {
        let store = try dir.store()
        let outcome = try store.apply(SyncBatch(
            store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-29T08:00:00+01:00"), snapshot: .init(),
            resting: [hc("a", "2026-11-28T06:00:00Z", offset: 3600, 0), hc("b", "2026-11-28T07:00:00Z", offset: 3600, 301),
                      hc("c", "2026-11-28T05:00:00Z", offset: 3600, 52)]))
        #expect(outcome.outOfRange == 2 && outcome.added == 3)
        let values = try store.days(aggregation: .mean)
        #expect(values.count == 1 && values[0].bpm == 52 && values[0].outOfRange == 2 && values[0].samples == 1)
        #expect(try store.samples().filter { !$0.isInRange }.map(\.sample.value).sorted() == [0, 301])
    }

    @Test func nullOffsetIsAssumedFromTheMachineAndFlagged() throws {
        let store = try HealthDatabase(path: dir.file("tokyo.sqlite"), machineZone: TimeZone(identifier: "Asia/Tokyo")!)
        _ = try store.apply(SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-11-29T08:00:00+09:00"),
                                      snapshot: .init(), resting: [hc("n", "2026-11-28T20:00:00Z", offset: nil, 52)]))
        let value = try store.days(aggregation: .latest)
        #expect(value.map(\.day) == [day("2026-11-29")])
        #expect(value.first?.offsetAssumed == true)
    }

    @Test func provisionalEndsWhenTheStreamReadsLater() throws {
        let store = try dir.store()
        _ = try store.apply(live("2026-11-28T09:00:00+01:00", previous: nil, next: "a1",
                                 [hk("2026-11-28T00:05:00+01:00", "2026-11-28T08:40:00+01:00", 58, uuid: "U1"),
                                  hk("2026-11-28T00:05:00+01:00", "2026-11-28T08:40:00+01:00", 61, writer: scale, uuid: "U2")]))
        #expect(try store.samples().map(\.provisional) == [true, false])
        let later = try store.apply(live("2026-11-30T09:00:00+01:00", previous: "a1", next: "a2"))
        #expect(later.changedSomething)
        #expect(try store.samples().map(\.provisional) == [false, false])
        #expect(try store.days(aggregation: .latest).first?.asOf == ts("2026-11-30T09:00:00+01:00"))
    }

    @Test func watchWritersFromTheExportMarkProvisional() throws {
        let store = try dir.store()
        let tim = Writer(store: .healthKit, name: "🕛🕐🕑🕒")
        _ = try store.apply(export("2026-11-28 22:00:00 +0100",
                                   [hk("2026-11-28 00:05:00 +0100", "2026-11-28 21:40:00 +0100", 58, writer: tim)],
                                   watchWriters: [tim.name]))
        #expect(try store.samples().first?.provisional == true)
        #expect(try store.writers().first?.isAppleWatch == true)
    }

    @Test func writerDetailsAreKeptWhenTheBatchNamedTheWriterFirst() throws {
        let store = try dir.store()
        let described = Writer(store: .healthKit, name: watch.name, bundleIdentifier: "com.apple.health.7A1B", productType: "Watch7,1")
        var sample = hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, writer: described)
        sample.writer = described
        _ = try store.apply(export("2026-11-29 08:00:00 +0100", [sample], watchWriters: [watch.name]))
        let stored = try store.writers().first
        #expect(stored?.writer.productType == "Watch7,1")
        #expect(stored?.writer.bundleIdentifier == "com.apple.health.7A1B")
        #expect(stored?.isAppleWatch == true)
    }

    @Test func aFailingBatchLeavesTheStoreExactlyAsItWas() throws {
        let store = try dir.store()
        _ = try store.apply(export("2026-03-12 09:00:00 +0100", [hk("2026-03-10 00:03:00 +0100", "2026-03-10 23:50:00 +0100", 57)]))
        let before = try store.dump()
        // Fault injection in the real database: the 500th sample of the next batch makes SQLite abort.
        try store.db.execute("""
            CREATE TEMP TRIGGER fail_half_way BEFORE INSERT ON sample WHEN NEW.value = 99
            BEGIN SELECT RAISE(ABORT, 'injected failure'); END
            """)
        var samples: [RestingSample] = []
        for i in 0..<1000 {
            let d = LocalDay(daysSinceEpoch: day("2020-01-01").daysSinceEpoch + i)
            samples.append(hk("\(d)T00:03:00+01:00", "\(d)T23:50:00+01:00", i == 499 ? 99 : 55, uuid: "U\(i)"))
        }
        #expect { try store.apply(live("2026-03-13T09:00:00+01:00", previous: nil, next: "x", samples)) }
            // In rhr's words (a trigger's abort is a refused rule to SQLite), not SQLite's.
            throws: { ($0 as? StoreError)?.message.contains("nothing of this import or request was applied") == true }
        #expect(try store.dump() == before)
        // Several batches in one call are one transaction: a refused second batch undoes the first.
        try store.db.execute("DROP TRIGGER fail_half_way")
        let good = live("2026-03-13T09:00:00+01:00", previous: nil, next: "g1",
                        [hk("2026-03-12T00:03:00+01:00", "2026-03-12T23:50:00+01:00", 56, uuid: "G")])
        let bad = live("2026-03-13T10:00:00+01:00", previous: "wrong", next: "g2")
        #expect(throws: StoreError.self) { try store.apply([good, bad]) }
        #expect(try store.dump() == before)
    }

    @Test func invalidBatchIsRefusedBeforeAnything() throws {
        let store = try dir.store()
        let before = try store.dump()
        #expect { try store.apply(live("2026-03-13T09:00:00+01:00", previous: nil, next: "x",
                                       [hk("2026-03-12T00:03:00+01:00", "2026-03-12T23:50:00+01:00", 5, unit: "kg")])) }
            throws: { error in
                let e = error as? StoreError
                return e?.code == .invalidBatch && e?.message.hasPrefix("resting[0].unit") == true
            }
        #expect(try store.dump() == before)
    }

    @Test func heartRateSummariesAndEmptyStateContents() throws {
        let store = try dir.store()
        let fitbit = Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile")
        var summary = HeartRateDaySummary(writer: fitbit, day: day("2026-11-28"), recordKey: "rec1")
        for bpm in [70.0, 72, 75] { summary.add(bpm: bpm, context: .notSet) }
        _ = try store.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "h1", store: .healthConnect))
        var batch = live("2026-11-29T09:00:00+01:00", previous: "h1", next: "h2", store: .healthConnect)
        batch.heartRate = [summary]
        let outcome = try store.apply(batch)
        #expect(outcome.heartRateSummaries == 1 && outcome.changedDays == [day("2026-11-28")])
        let contents = try store.contents()
        #expect(contents.map(\.store) == [.healthKit, .healthConnect])
        #expect(contents[1].heartRateSamples == 3 && contents[1].restingSamples == 0)
        #expect(contents[1].heartRateWriters.map(\.name) == ["com.fitbit.FitbitMobile"])
        #expect(DataDiagnosis(contents) == .noRestingWriter([contents[1]]))
        // Deleting the HeartRate record removes its counts.
        _ = try store.apply(live("2026-11-29T10:00:00+01:00", previous: "h2", next: "h3", deleted: ["REC1"], store: .healthConnect))
        #expect(try store.contents()[1].heartRateSamples == 0)
    }

    @Test func aDeletionLeavesTheOtherStoresHeartRateAlone() throws {
        // R1: a HealthKit deletion names a HealthKit sample, even when a Health Connect record has the same id.
        let store = try dir.store()
        let fitbit = Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile")
        var batch = live("2026-11-29T08:00:00+01:00", previous: nil, next: "h1", store: .healthConnect)
        var summary = HeartRateDaySummary(writer: fitbit, day: day("2026-11-28"), recordKey: "6f1cab12")
        summary.add(bpm: 70, context: .notSet)
        batch.heartRate = [summary]
        _ = try store.apply(batch)
        let outcome = try store.apply(live("2026-11-29T09:00:00+01:00", previous: nil, next: "k1", deleted: ["6f1cab12"]))
        #expect(outcome.changedDays.isEmpty)
        #expect(try store.contents()[1].heartRateSamples == 1)
    }

    @Test func sedentaryContextFromTwoRoadsIsNotCountedTwice() throws {
        let store = try dir.store()
        var day28 = HeartRateDaySummary(writer: watch, day: day("2026-11-28"))
        for bpm in [61.0, 63, 70] { day28.add(bpm: bpm, context: .sedentary) }
        day28.add(bpm: 120, context: .active)
        _ = try store.apply(export("2026-11-29 08:00:00 +0100", [], heartRate: [day28]))
        var liveCopy = live("2026-11-29T09:00:00+01:00", previous: nil, next: "a1")
        var one = HeartRateDaySummary(writer: watch, day: day("2026-11-28"), recordKey: "HR-1")
        one.add(bpm: 61, context: .sedentary)
        liveCopy.heartRate = [one]
        _ = try store.apply(liveCopy)
        // Never summed across roads: without resting values that day, the freshest road with heart rate speaks (R12).
        var days = try store.heartRateDays()
        #expect(days.count == 1)
        #expect(days[0].total == 1 && days[0].sedentaryMin == 61)
        // A newer export holding the day is fresher: its summary stands, whole.
        _ = try store.apply(export("2026-11-30 08:00:00 +0100", [], heartRate: [day28]))
        days = try store.heartRateDays()
        #expect(days.count == 1)
        #expect(days[0].total == 4 && days[0].sedentary == 3 && days[0].sedentaryMin == 61 && days[0].sedentaryMedian == 63)
        #expect(try store.contents().first { $0.store == .healthKit }?.heartRateSamples == 4)
        // A newer export without that day takes the exports' summaries; the live road's remains.
        _ = try store.apply(export("2026-12-01 08:00:00 +0100", []))
        #expect(try store.heartRateDays().map(\.total) == [1])
    }

    @Test func revisionGrowsOnlyWithChanges() throws {
        let store = try dir.store()
        #expect(try store.revision() == 0)
        let a = try store.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1",
                                     [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U1")]))
        let b = try store.apply(live("2026-11-29T08:00:00+01:00", previous: "a1", next: "a2",
                                     [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U1")]))
        #expect(a.revision == 1 && b.revision == 1)
        #expect(try store.streams().first?.revision == 1)
    }

    @Test func twoConnectionsSeeOneStore() throws {
        let writer = try dir.store()
        let reader = try dir.store()
        #expect(try reader.samples().isEmpty)
        _ = try writer.apply(live("2026-11-29T08:00:00+01:00", previous: nil, next: "a1",
                                  [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 58, uuid: "U1")]))
        #expect(try reader.samples().count == 1)
        #expect(try reader.revision() == 1)
    }
}
