import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRStore
import RHRTestSupport
import Testing

/// A live update patches the prepared index with the days it changed; the result must be what a full read of
/// the store gives. Each step applies a batch to a real store, reads the days the store says changed, patches
/// the index the step before left (as the dashboard does, one patch on another), and compares it with a full read.
@Suite("Patch: a live update's days patched in equal a full read")
struct PatchTests {
    /// The dashboard's index and the store it follows.
    final class Follower {
        let database: HealthDatabase
        var index: DashboardIndex
        var lastChanged: Set<LocalDay> = []
        /// Where the store lives, when the follower made it: it goes with the follower.
        private let directory: TemporaryDirectory?

        init(_ database: HealthDatabase, directory: TemporaryDirectory? = nil) throws {
            self.database = database
            self.directory = directory
            index = DashboardIndex(try fullData(database))
        }

        /// The history's store, fresh, followed from the bridge's first push: its draft for `today`, 61.
        static func afterTodaysDraft(_ today: LocalDay) throws -> Follower {
            let dir = try TemporaryDirectory()
            let follower = try Follower(try History.build(at: dir.storePath), directory: dir)
            try follower.apply(History.bridge(1, asOf: "2026-03-13T08:00:00+01:00",
                                              [History.watchSample(today, 61, uuid: "D1", minutes: 600)]))
            return follower
        }

        /// Applies `batch`, patches the index with the days it changed, and checks it against a full read.
        /// Returns whether a patch was possible (else the dashboard reads everything, as this then does too).
        @discardableResult
        func apply(_ batch: SyncBatch, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
            let outcome = try database.apply(batch)
            #expect(outcome.changedSomething, "the batch changed nothing", sourceLocation: sourceLocation)
            let delta = try DashboardDeltaReader.read(database, days: outcome.changedDays)
            #expect(delta.days.isSuperset(of: outcome.changedDays), sourceLocation: sourceLocation)
            let full = DashboardIndex(try fullData(database))
            guard let patch = index.patched(with: delta, revision: outcome.revision) else {
                index = full
                lastChanged = []
                return false
            }
            expectSame(patch.index, full, sourceLocation: sourceLocation)
            #expect(patch.changedDays.isSubset(of: delta.days), sourceLocation: sourceLocation)
            // The marks are the days whose values differ, whichever way the new index was made.
            #expect(patch.changedDays == full.changedDays(comparedTo: index), sourceLocation: sourceLocation)
            index = patch.index
            lastChanged = patch.changedDays
            return true
        }
    }

    let watch = History.watch
    let today = day("2026-03-13")

    @Test("A push of an older day the export holds too: the bridge decides it, and the export's copy leaves the count")
    func olderDayCountsOnlyWhatStands() throws {
        let follower = try Follower.afterTodaysDraft(today)
        let older = History.lastDay.adding(days: -40)
        #expect(try follower.apply(History.bridge(2, asOf: "2026-03-13T09:00:00+01:00",
                                                  [History.watchSample(older, 66, uuid: "P1")])))
        // 90 days of the watch's export, the bridge's draft for 13 Mar; on the older day one value, the bridge's.
        #expect(follower.index.data.contents.first { $0.store == .healthKit }?.restingSamples == 91 + 30)
    }

    @Test("A bridge's pushes during a day: a new draft, its replacement, a deletion, and the next morning")
    func bridgeDay() throws {
        let dir = try TemporaryDirectory()
        let follower = try Follower(try History.build(at: dir.storePath))
        // The first batch of a new stream: which road last delivered a sample may change anywhere: a full read.
        #expect(try !follower.apply(History.bridge(1, asOf: "2026-03-13T08:00:00+01:00",
                                                   [History.watchSample(today, 61, uuid: "D1", minutes: 600)])))
        // The draft replaced by a later estimate (same sample, another value), then a second sample of the day.
        #expect(try follower.apply(History.bridge(2, asOf: "2026-03-13T12:00:00+01:00",
                                                  [History.watchSample(today, 59, uuid: "D1", minutes: 600)])))
        #expect(follower.lastChanged == [today])
        let w = try #require(follower.index.writers.firstIndex(of: watch))
        #expect(follower.index.value(writer: w, day: today, aggregation: .latest)?.bpm == 59)
        #expect(follower.index.revisions(on: today).contains { $0.oldBPM == 61 && $0.reason == .replaced })
        #expect(try follower.apply(History.bridge(3, asOf: "2026-03-13T18:00:00+01:00",
                                                  [History.watchSample(today, 57, uuid: "D2", minutes: 300)])))
        #expect(follower.index.samples(on: today).count == 2)
        // The first draft deleted by the platform.
        #expect(try follower.apply(History.bridge(4, asOf: "2026-03-13T19:00:00+01:00", deleted: ["D1"])))
        #expect(follower.index.samples(on: today).count == 1)
        #expect(follower.lastChanged == [today])
        // The next morning: the bridge's read moves past midnight, so yesterday's provisional state changes too.
        #expect(try follower.apply(History.bridge(5, asOf: "2026-03-14T07:30:00+01:00",
                                                  [History.watchSample(today.adding(days: 1), 58, uuid: "D3", minutes: 900)])))
        #expect(follower.lastChanged.contains(today.adding(days: 1)))
    }

    @Test("A bridge that delivered the whole history moves on: every day's samples take its new read time")
    func bridgeHistory() throws {
        let dir = try TemporaryDirectory()
        let follower = try Follower(try History.build(at: dir.storePath))
        // The bridge's first sync delivers the same samples the export had (same natural keys) and today's.
        var history = (0..<90).map { i -> RestingSample in
            let d = History.lastDay.adding(days: i - 89)
            return History.watchSample(d, Double(55 + (i * 7) % 9))
        }
        history.append(History.watchSample(today, 60, uuid: "T1", minutes: 600))
        // 13 Mar 22:00 is after the export (12 Mar 21:00): the bridge is the newest road of every watch sample.
        follower.index = DashboardIndex(try fullData(follower.database))
        _ = try follower.apply(History.bridge(1, asOf: "2026-03-13T22:00:00+01:00", history))
        // Each later push moves the bridge's read time on: a patch refreshes every day it delivered.
        for (n, value) in [(2, 59.0), (3, 58), (4, 57)] {
            #expect(try follower.apply(History.bridge(n, asOf: "2026-03-13T22:\(n)0:00+01:00",
                                                      [History.watchSample(today, value, uuid: "T1", minutes: 600)])))
            #expect(follower.lastChanged == [today])
        }
        // The export's copy stays beside it; the bridge, the fresher road, decides the day (R12).
        let day = follower.index.samples(on: History.lastDay.adding(days: -30)).filter { $0.sample.writer == watch }
        let read = DaySeries.standing(day[...]).first
        #expect(read?.asOf == ts("2026-03-13T22:40:00+01:00") && read?.stream == "iphone")
    }

    @Test("A writer that appears takes the next number, after the others of its store; gone, the rest keep theirs; exact")
    func writersComeAndGo() throws {
        let follower = try Follower.afterTodaysDraft(today)
        let polar = Writer(store: .healthKit, name: "Polar Flow")
        let t = Date(timeIntervalSince1970: today.startEpochSeconds + 3600)
        let sample = RestingSample(store: .healthKit, uuid: "P1", writer: polar, start: t, end: t, offsetSeconds: 3600,
                                   value: 49, created: t)
        #expect(try follower.apply(History.bridge(2, asOf: "2026-03-13T09:00:00+01:00", [sample])))
        // Polar sorts before Withings, and comes after it: writer 4.
        #expect(follower.index.writers.map(\.name) == ["com.ouraring.oura", "Jane’s Apple Watch", "Withings", "Polar Flow"])
        #expect(follower.index.slots == [0, 1, 2, 3])
        #expect(try follower.apply(History.bridge(3, asOf: "2026-03-13T10:00:00+01:00", deleted: ["P1"])))
        #expect(follower.index.writers.map(\.name) == ["com.ouraring.oura", "Jane’s Apple Watch", "Withings"])
        #expect(follower.index.slots == [0, 1, 2])
    }

    @Test("Heart rate on a live day patches the sedentary context series")
    func heartRateContext() throws {
        let follower = try Follower.afterTodaysDraft(today)
        var summary = History.heartRate(today, sedentary: [47, 52, 58])
        summary.recordKey = "HR-0313"
        #expect(try follower.apply(History.bridge(2, asOf: "2026-03-13T09:00:00+01:00", heartRate: [summary])))
        #expect(follower.lastChanged == [today])
        #expect(follower.index.sedentaryMinima(contextWriter: 0).last.map { [$0.day == today, $0.bpm == 47] } == [true, true])
    }

    @Test("Cannot patch: a partial index, or streams that change their order; the dashboard then reads everything")
    func fallBack() throws {
        let follower = try Follower.afterTodaysDraft(today)
        // A newer export overtakes the bridge: the newest road of the samples both delivered changes.
        let asOf = ts("2026-03-14T21:00:00+01:00")
        let samples = (0..<91).map { History.watchSample(History.lastDay.adding(days: $0 - 89), 58) }
        #expect(try !follower.apply(SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: asOf,
                                              snapshot: .init(from: nil, to: asOf), resting: samples,
                                              watchWriters: [watch.name], origin: "export of 14 Mar")))

        var partial = try fullData(follower.database)
        partial.isPartial = true
        let delta = try DashboardDeltaReader.read(follower.database, days: [today])
        #expect(DashboardIndex(partial).patched(with: delta, revision: 99) == nil)
    }

    @Test("Close days are read as one range; the days between are read too")
    func ranges() {
        let days: Set<LocalDay> = [day("2026-03-01"), day("2026-03-05"), day("2026-03-20"), day("2026-03-02")]
        #expect(DashboardDelta.ranges(days) == [day("2026-03-01")...day("2026-03-05"), day("2026-03-20")...day("2026-03-20")])
        #expect(DashboardDelta.ranges([]) == [])
    }
}

@Suite("Patch: a store without resting values")
struct HeartRateOnlyPatchTests {
    @Test("Heart rate only, then more heart rate, then the first resting value: each step equals a full read")
    func firstRestingValue() throws {
        let dir = try TemporaryDirectory()
        let database = try dir.store()
        let today = day("2026-03-13")
        _ = try database.apply(History.bridge(1, asOf: "2026-03-13T08:00:00+01:00",
                                              heartRate: [History.heartRate(today.adding(days: -1), sedentary: [55, 60])]))
        let follower = try PatchTests.Follower(database)
        if case .noRestingWriter = follower.index.diagnosis {} else { Issue.record("expected no resting writer") }
        #expect(try follower.apply(History.bridge(2, asOf: "2026-03-13T09:00:00+01:00",
                                                  heartRate: [History.heartRate(today, sedentary: [52, 58])])))
        #expect(try follower.apply(History.bridge(3, asOf: "2026-03-13T10:00:00+01:00",
                                                  [History.watchSample(today, 61, uuid: "D1", minutes: 600)])))
        if case .resting = follower.index.diagnosis {} else { Issue.record("expected the resting case") }
    }
}

@Suite("Patch: writers' details")
struct WriterDetailsPatchTests {
    @Test("A writer whose details change (a bridge names the watch's bundle) is read in full, since every day shows them")
    func detailsChange() throws {
        let dir = try TemporaryDirectory()
        let follower = try PatchTests.Follower(try History.build(at: dir.storePath))
        let today = day("2026-03-13")
        _ = try follower.apply(History.bridge(1, asOf: "2026-03-13T08:00:00+01:00",
                                             [History.watchSample(today, 61, uuid: "D1", minutes: 600)]))
        var named = History.watchSample(today, 59, uuid: "D1", minutes: 600)
        named.writer.bundleIdentifier = "com.apple.health.7A1B"
        // (Without `watchWriters`: the store takes a writer's details from the first mention in a batch.)
        var batch = History.bridge(2, asOf: "2026-03-13T09:00:00+01:00", [named])
        batch.watchWriters = []
        #expect(try !follower.apply(batch))
        #expect(follower.index.writers.first { $0.key == History.watch.key }?.bundleIdentifier == "com.apple.health.7A1B")
    }
}
