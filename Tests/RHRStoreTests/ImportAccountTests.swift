import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// The account of a delivery (docs/design.md R14): each resting sample it holds is counted once, under the outcome
/// that says what became of it, so the counts add up to what it held; and R13's last clause, no delivery dates a road
/// into the future.
@Suite("Every delivery's account adds up; no delivery dates a road into the future")
struct ImportAccountTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    /// Four days of the watch, 60 + the day, as an Apple export read at `asOf` would hold them (days 1–4 March 2026).
    func exportOfFourDays(_ asOf: String, change: [Int: Double] = [:]) -> SyncBatch {
        export(asOf, (1...4).map { d in
            hk(String(format: "2026-03-%02d 00:00:00 +0100", d), String(format: "2026-03-%02d 23:00:00 +0100", d),
               change[d] ?? Double(60 + d))
        })
    }

    @Test func anOlderExportAfterANewerOneSaysWhatBecameOfEachValue() throws {
        let s = try dir.store()
        let newer = try s.apply(exportOfFourDays("2026-03-10 08:00:00 +0100"))
        #expect(newer.added == 4 && newer.samples.accounted == 4)
        // The older export holds two values the newer one has, and two it had otherwise: the newer one speaks.
        let older = try s.apply(exportOfFourDays("2026-03-06 08:00:00 +0100", change: [2: 70, 3: 71]))
        #expect(older.added == 0 && older.replaced == 0 && older.deleted == 0)
        #expect(older.unchanged == 2 && older.setAside == 2, "\(older.samples)")
        #expect(older.samples.accounted == 4)
        #expect(older.samples.words == "0 added, 0 replaced, 0 deleted, 2 unchanged, 2 set aside (a newer export covers their days)")
    }

    @Test func aLiveRoadOlderThanTheExportThatDecidesIsOverruled() throws {
        let s = try dir.store()
        _ = try s.apply(exportOfFourDays("2026-03-10 08:00:00 +0100"))
        // A bridge read before the export: another window of 2 March with another value, and 3 March as the export has
        // it. The export decides both days (R12): the one is overruled, the other unchanged.
        let bridge = SyncBatch(store: .healthKit, stream: "bridge", asOf: ts("2026-03-05T08:00:00+01:00"),
                               cursor: .init(previous: nil, next: "b1"),
                               resting: [hk("2026-03-02T00:05:00+01:00", "2026-03-02T22:00:00+01:00", 66, uuid: "B2"),
                                         hk("2026-03-03 00:00:00 +0100", "2026-03-03 23:00:00 +0100", 63),
                                         hk("2026-03-09T00:05:00+01:00", "2026-03-09T07:00:00+01:00", 58, uuid: "B9")],
                               origin: "bridge")
        let outcome = try s.apply(bridge)
        #expect(outcome.overruled == 1 && outcome.unchanged == 1 && outcome.added == 1, "\(outcome.samples)")
        #expect(outcome.samples.accounted == 3)
        #expect(outcome.samples.words.contains("1 overruled (a fresher delivery decides their days, R12)"))
    }

    @Test func aValueADeletionSeenLaterTookIsOverruled() throws {
        let s = try dir.store()
        _ = try s.apply(live("2026-03-10T08:00:00+01:00", previous: nil, next: "a1", deleted: ["GONE"]))
        // An export read before the deletion brings the value back to nobody (R4).
        var older = export("2026-03-08 08:00:00 +0100", [])
        older.stream = "bridge-export"
        older.resting = [hk("2026-03-07T00:05:00+01:00", "2026-03-07T22:00:00+01:00", 61, uuid: "GONE")]
        let outcome = try s.apply(older)
        #expect(outcome.overruledByDeletion == 1 && outcome.samples.accounted == 1, "\(outcome.samples)")
    }

    @Test func aSampleTwiceInOneDeliveryAndABatchAppliedBeforeAreUnchanged() throws {
        let s = try dir.store()
        let sample = hk("2026-03-07T00:05:00+01:00", "2026-03-07T22:00:00+01:00", 61, uuid: "S")
        let first = try s.apply(live("2026-03-08T08:00:00+01:00", previous: nil, next: "a1", [sample, sample]))
        #expect(first.added == 1 && first.unchanged == 1 && first.samples.accounted == 2)
        let again = try s.apply(live("2026-03-08T08:00:00+01:00", previous: nil, next: "a1", [sample, sample]))
        #expect(again.duplicate && again.unchanged == 2 && again.samples.accounted == 2)
    }

    // MARK: - R13: no delivery dates a road into the future

    /// A store whose clock reads 5 Dec 2026 20:00 UTC.
    func storeAtFifthOfDecember() throws -> HealthDatabase {
        let s = try dir.store()
        s.clock = { date("2026-12-05T20:00:00Z") }
        return s
    }

    @Test func anExportFromTheFutureIsDatedByWhenItWasReadAndWedgesNothing() throws {
        let s = try storeAtFifthOfDecember()
        let future = export("2099-01-01 09:00:00 +0100", [
            hk("2026-12-03 00:00:00 +0100", "2026-12-03 23:00:00 +0100", 61),
            hk("2098-12-30 00:00:00 +0100", "2098-12-30 23:00:00 +0100", 40),
        ])
        let outcome = try s.apply(future)
        #expect(outcome.futureDated == [FutureDelivery(claim: .asOf, what: "export", claimed: ts("2099-01-01T09:00:00+01:00"),
                                                       readAt: ts("2026-12-05T20:00:00Z"))])
        #expect(outcome.futureDated.first?.words
            == "export dated 1 Jan 2099, later than this machine's clock: dated by when it was read (5 Dec 20:00 +00:00)")
        // The road is as of when it was read; the value dated 2098 is kept, flagged, and in no aggregate.
        #expect(try s.streams().first?.asOf == ts("2026-12-05T20:00:00Z"))
        let values = try s.days(aggregation: .latest)
        #expect(values.map { "\($0.day) \($0.bpmText) \($0.implausibleDate)" } == ["2026-12-03 61 0", "2098-12-30  1"])
        // A genuine export a day later decides: it is not wedged behind 2099.
        let genuine = try s.apply(export("2026-12-06 08:00:00 +0100", [hk("2026-12-03 00:00:00 +0100", "2026-12-03 23:00:00 +0100", 59)]))
        #expect(genuine.futureDated.isEmpty && genuine.replaced == 1, "\(genuine.samples)")
        #expect(try s.days(aggregation: .latest).first?.bpmText == "59")
        #expect(try s.streams().first?.asOf == ts("2026-12-06T08:00:00+01:00"))
    }

    @Test func aBatchFromTheFutureIsDatedByWhenItWasReadAndTheNextContinues() throws {
        let s = try storeAtFifthOfDecember()
        let first = try s.apply(live("2099-01-01T08:00:00+01:00", previous: nil, next: "a1",
                                     [hk("2026-12-04T00:05:00+01:00", "2026-12-04T22:00:00+01:00", 61, uuid: "A")]))
        #expect(first.futureDated.map(\.what) == ["batch"] && first.added == 1)
        s.clock = { date("2026-12-06T20:00:00Z") }
        let next = try s.apply(live("2026-12-06T08:00:00+01:00", previous: "a1", next: "a2",
                                    [hk("2026-12-04T00:05:00+01:00", "2026-12-04T22:00:00+01:00", 59, uuid: "A")]))
        #expect(next.futureDated.isEmpty && next.replaced == 1)
        #expect(try s.streams().first?.asOf == ts("2026-12-06T08:00:00+01:00"))
        #expect(try s.days(aggregation: .latest).map(\.bpmText) == ["59"])
    }

    /// A batch applied twice changes nothing, also when its time could not be right: the same export from 2099 imported
    /// again an hour later is the road it was, read when it was first read; a file made in 2099 is no later the
    /// second time.
    @Test func theSameDeliveryFromTheFutureAgainChangesNothing() throws {
        let s = try storeAtFifthOfDecember()
        var future = export("2099-01-01 09:00:00 +0100", [hk("2026-12-03 00:00:00 +0100", "2026-12-03 23:00:00 +0100", 61)])
        future.file = DeliveredFile(name: "export.zip", madeAt: ts("2099-01-01T09:00:00+01:00"))
        _ = try s.apply(future)
        let before = try s.dump()
        s.clock = { date("2026-12-05T21:00:00Z") }
        let again = try s.apply(future)
        #expect(!again.changedSomething && again.unchanged == 1, "\(again.samples)")
        #expect(again.futureDated.first?.readAt == ts("2026-12-05T20:00:00Z"))
        #expect(try s.dump() == before)
    }

    @Test func aTimeWithinADayOfTheClockIsBelieved() throws {
        let s = try storeAtFifthOfDecember()
        let outcome = try s.apply(export("2026-12-06 20:00:00 +0000", [hk("2026-12-03 00:00:00 +0100", "2026-12-03 23:00:00 +0100", 61)]))
        #expect(outcome.futureDated.isEmpty)
        #expect(try s.streams().first?.asOf == ts("2026-12-06T20:00:00Z"))
    }

    @Test func aFileMadeInTheFutureHasNoTime() throws {
        let s = try storeAtFifthOfDecember()
        var batch = export("2026-12-05 08:00:00 +0100", [hk("2026-12-03 00:00:00 +0100", "2026-12-03 23:00:00 +0100", 61)])
        batch.file = DeliveredFile(name: "HealthAutoExport.json", madeAt: ts("2099-01-01T00:00:00Z"))
        let outcome = try s.apply(batch)
        #expect(outcome.futureDated.map(\.claim) == [.madeAt])
        #expect(outcome.futureDated.first?.words == "file dated 1 Jan 2099, later than this machine's clock: its time is not used")
    }
}
