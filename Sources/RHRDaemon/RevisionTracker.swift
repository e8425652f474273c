import RHRCore
import Synchronization

/// The store revision the daemon itself last saw, kept on the store's thread: when the store's revision
/// moves past it without the daemon's doing, another process (`rhr import`) changed the store.
final class RevisionTracker: Sendable {
    private let known: Mutex<Int64>

    init(_ revision: Int64) { known = Mutex(revision) }

    /// After an apply whose batches moved the revision `increments` times: returns the revision when the
    /// store moved by more than that.
    private func noteApplied(revision: Int64, increments: Int) -> Int64? {
        known.withLock { known in
            let expected = known + Int64(increments)
            known = max(known, revision)
            return revision > expected ? revision : nil
        }
    }

    /// What applied batches changed, for subscribers (nil when nothing did; a batch seen before changes nothing), and
    /// the store's revision when it moved by more than they account for (`HealthDatabase.apply(_:noting:)`).
    func noteApplied(_ tally: BatchTally) -> StoreNotice {
        let external = noteApplied(revision: tally.revision, increments: tally.changedBatches)
        let change = tally.changedBatches == 0 ? nil : Change(revision: tally.revision, days: tally.changedDays.sorted())
        return StoreNotice(change: change, externalRevision: external)
    }

    /// On a look at the store's revision: returns it when it moved since.
    func noteRead(revision: Int64) -> Int64? {
        known.withLock { known in
            guard revision > known else { return nil }
            known = revision
            return revision
        }
    }
}
