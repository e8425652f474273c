import RHRCore
import RHRStore

/// A change subscribers hear of: the store's revision after it and the days whose values changed.
struct Change: Sendable {
    var revision: Int64
    var days: [LocalDay]
}

/// What subscribers must hear of after the daemon wrote the store, or looked at it: the change (nil when nothing
/// changed, or the batches were seen before), and the store's revision when another process had moved it (they
/// reload). The event loop tells them, in one place (`DaemonServer.notify`).
struct StoreNotice: Sendable {
    var change: Change?
    var externalRevision: Int64?

    var isEmpty: Bool { change == nil && externalRevision == nil }
}

extension HealthDatabase {
    /// The one way the socket's pushes, the phone feeds and the folder watch write the store, on its thread: `batches`
    /// applied in one transaction (whole or not at all), and what subscribers must hear of it, noted with `tracker`.
    /// Each caller hands the notice to the event loop with its own message, so a push's reply goes out before the
    /// event it caused and a folder import's `imported` event before its `changed`.
    func apply(_ batches: [SyncBatch], noting tracker: RevisionTracker) throws(StoreError) -> (outcomes: [BatchOutcome], notice: StoreNotice) {
        let outcomes = try apply(batches)
        return (outcomes, tracker.noteApplied(BatchTally(batches, outcomes)))
    }

    /// The same for batches read as they are applied (a folder import's file of sync batches): what they did, added up;
    /// nothing, when nothing in them could be used (`SourceApplication.passedOverOnly`).
    func apply(from source: some BatchSource, noting tracker: RevisionTracker) throws
        -> (tally: BatchTally, notice: StoreNotice, applied: SourceApplication) {
        var tally = BatchTally()
        let applied = try apply(from: source) { batch, outcome in tally.add(outcome, of: batch.store) }
        if applied == .passedOverOnly { tally = BatchTally() }
        return (tally, tracker.noteApplied(tally), applied)
    }
}
