// Batches applied as a source hands them over: one at a time, all in one transaction, whole or not at all.
import Foundation
import RHRCore
import Testing
@testable import RHRStore
import RHRTestSupport

/// `HealthDatabase.apply(from:each:)` (docs/design.md section 8): what streams a file of sync batches of any size into
/// the store holds one batch at a time, and applies whole or not at all.
@Suite("Applying batches as they are read")
struct StreamedApplicationTests {
    /// A chain of `count` live batches, made only when asked for; it notes what happened in which order.
    final class Chain: BatchSource {
        let count: Int
        var failAt: Int?
        var log: [String] = []
        private var index = 0

        init(count: Int, failAt: Int? = nil) {
            self.count = count
            self.failAt = failAt
        }

        func nextBatch() throws -> SyncBatch? {
            guard index < count else { return nil }
            index += 1
            if index == failAt { throw TestFailure("line \(index) does not read") }
            log.append("read \(index)")
            let day = String(format: "2026-10-%02d", index)
            return live("2026-11-29T08:00:00+01:00", previous: index == 1 ? nil : "c\(index - 1)", next: "c\(index)",
                        [hk("\(day)T00:05:00+01:00", "\(day)T23:40:00+01:00", Double(50 + index), uuid: "S\(index)")])
        }

        var place: String? { "line \(index)" }
    }

    @Test func eachBatchIsAppliedBeforeTheNextIsRead() throws {
        let store = try TemporaryDirectory().store()
        let chain = Chain(count: 5)
        var tally = BatchTally()
        let applied = try store.apply(from: chain) { batch, outcome in
            chain.log.append("applied \(chain.log.count / 2 + 1)")
            tally.add(outcome, of: batch.store)
        }
        #expect(applied == .applied)
        #expect(chain.log == (1...5).flatMap { ["read \($0)", "applied \($0)"] })
        #expect(tally.batches == 5 && tally.total.added == 5 && tally.changedBatches == 5 && tally.revision == 5)
        #expect(try store.days(aggregation: .latest).count == 5)
    }

    /// A line that does not read after two were applied: nothing of the file is in the store, and the error is the
    /// source's own.
    @Test func aFailureOfTheSourceHalfWayAppliesNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var other = live("2026-11-01T08:00:00+01:00", previous: nil, next: "other", [
            hk("2026-09-01T00:05:00+01:00", "2026-09-01T23:40:00+01:00", 60, uuid: "O"),
        ])
        other.stream = "other"
        _ = try store.apply(other)
        let before = try store.dump()
        let error = try #require(throws: TestFailure.self) { try store.apply(from: Chain(count: 5, failAt: 3)) { _, _ in } }
        #expect(error.description.contains("line 3 does not read"))
        #expect(try store.dump() == before)
        #expect(try store.revision() == 1)
    }

    /// A batch the store refuses is named by its place in the source, and nothing of the source is applied.
    @Test func aRefusedBatchIsNamedByItsPlace() throws {
        let store = try TemporaryDirectory().store()
        let chain = Chain(count: 3)
        _ = try chain.nextBatch()   // the first batch never comes: the second does not continue the stream's cursor
        let error = try #require(throws: StoreError.self) { try store.apply(from: chain) { _, _ in } }
        #expect(error.code == .cursorMismatch)
        #expect(error.message.hasPrefix("line 2: stream healthkit/"), "\(error.message)")
        #expect(try store.revision() == 0)
        #expect(try store.days(aggregation: .latest).isEmpty)
    }

    /// A batch whose only record was passed over (R14), on the stream `stream`.
    static func passedOverOnly(_ asOf: String, stream: String = "iphone") -> SyncBatch {
        var batch = SyncBatch(store: .healthKit, stream: stream, asOf: ts(asOf), origin: "odd.jsonl")
        batch.passedOver = PassedOverLog(source: "odd.jsonl")
        batch.passedOver.add(kind: "HealthKit upserts whose start rhr cannot read", reason: "upserted[0].start: not a date",
                             place: InputPlace(line: 1), raw: #"{"type":"restingHeartRate"}"#)
        return batch
    }

    /// R14, the account, decided at the end of the stream: when not one record could be used, what the batches did is
    /// undone and only their passed-over records are kept; `each` saw them, but nothing dates a road.
    @Test func aSourceOfWhichNothingCouldBeUsedKeepsOnlyWhatItPassedOver() throws {
        let store = try TemporaryDirectory().store()
        _ = try store.apply(live("2026-11-01T08:00:00+01:00", previous: nil, next: "a", [
            hk("2026-09-01T00:05:00+01:00", "2026-09-01T23:40:00+01:00", 60, uuid: "O"),
        ]))
        let before = try store.dump()
        var seen = 0
        let applied = try store.apply(from: BatchList([Self.passedOverOnly("2026-11-29T08:00:00+01:00"),
                                                       Self.passedOverOnly("2026-11-30T08:00:00+01:00", stream: "other")])) { _, _ in
            seen += 1
        }
        #expect(applied == .passedOverOnly && seen == 2)
        #expect(try store.dump() == before)
        #expect(try store.passedOver().total == 2)
        #expect(try store.streams().map(\.stream) == ["iphone"])
    }

    /// Batches that pass everything over before one that holds something usable are applied as they were.
    @Test func aUsableBatchAfterOthersThatPassedEverythingOverAppliesThemAll() throws {
        let store = try TemporaryDirectory().store()
        let usable = live("2026-11-29T09:00:00+01:00", previous: nil, next: "a", [
            hk("2026-10-01T00:05:00+01:00", "2026-10-01T23:40:00+01:00", 58, uuid: "U"),
        ])
        let applied = try store.apply(from: BatchList([Self.passedOverOnly("2026-11-29T08:00:00+01:00", stream: "other"), usable])) { _, _ in }
        #expect(applied == .applied)
        #expect(Set(try store.streams().map(\.stream)) == ["iphone", "other"])
        #expect(try store.passedOver().total == 1 && store.days(aggregation: .latest).count == 1)
    }

    /// R13 in the streamed apply: a batch whose `asOf` is later than the machine's clock by more than a day is dated by
    /// when it arrived, and its outcome says so.
    @Test func aBatchFromTheFutureIsDatedByItsReceiptWhenStreamed() throws {
        let store = try TemporaryDirectory().store()
        store.clock = { date("2026-12-05T20:00:00Z") }
        var notes: [FutureDelivery] = []
        _ = try store.apply(from: BatchList([live("2099-01-01T08:00:00+01:00", previous: nil, next: "a", [
            hk("2026-10-01T00:05:00+01:00", "2026-10-01T23:40:00+01:00", 58, uuid: "U"),
        ])])) { _, outcome in notes += outcome.futureDated }
        #expect(notes.map(\.claim) == [.asOf])
        #expect(try store.streams().first?.asOf?.epochSeconds == date("2026-12-05T20:00:00Z").timeIntervalSince1970)
    }
}
