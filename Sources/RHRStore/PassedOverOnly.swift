// R14, the account: a delivery of which not one record could be used keeps what it passed over, and nothing else.
import RHRCore

/// What `HealthDatabase.apply(from:each:)` made of the batches it was handed.
public enum SourceApplication: Sendable, Equatable {
    /// Applied, each as `each` was told.
    case applied
    /// Records were passed over and not one could be used: the store kept the passed-over records and nothing else (no
    /// road, no "as of"); what `each` was told of was undone.
    case passedOverOnly
}

/// Decides, at the end of a delivery applied a batch at a time, whether anything in it could be used (docs/design.md
/// R14, the account); if not, undoes what its batches did and keeps only what they passed over. The batches are applied
/// inside a savepoint until the first that holds something usable, which releases it before it is applied: a delivery
/// that begins with something usable (nearly all) is applied as if there were no savepoint.
struct PassedOverOnly {
    private static let savepoint = "passed_over_only"
    private let db: SQLiteConnection
    private var usable = false
    private var passedOver = 0
    /// The batches so far, as the store took them, with only their passed-over records, at most
    /// `PassedOverLog.keptBytes` of text in all (as one input's log keeps): what is kept when the rest is undone.
    private var kept: [SyncBatch] = []
    private var keptBytes = 0

    init(_ db: SQLiteConnection) throws(StoreError) {
        self.db = db
        try db.execute("SAVEPOINT \(Self.savepoint)")
    }

    /// Told of each batch before it is applied.
    mutating func note(_ batch: SyncBatch) throws(StoreError) {
        guard !usable else { return }
        if batch.holdsUsable {
            usable = true
            kept = []
            try db.execute("RELEASE \(Self.savepoint)")
            return
        }
        passedOver += batch.passedOver.total
        var log = PassedOverLog(source: batch.passedOver.source)
        for record in batch.passedOver.records {
            let size = record.raw.utf8.count + record.reason.utf8.count + record.place.utf8.count
            guard keptBytes + size <= PassedOverLog.keptBytes else { break }
            keptBytes += size
            log.add(record)
        }
        guard !log.isEmpty else { return }
        kept.append(SyncBatch(store: batch.store, stream: batch.stream, asOf: batch.asOf, passedOver: log))
    }

    /// At the end of the delivery: when records were passed over and none could be used, rolls back to the savepoint
    /// and keeps the passed-over records; true then. Otherwise lets the batches stand.
    mutating func undo(in database: HealthDatabase) throws(StoreError) -> Bool {
        guard !usable else { return false }
        guard passedOver > 0 else {
            try db.execute("RELEASE \(Self.savepoint)")
            return false
        }
        db.resetAll()
        try db.execute("ROLLBACK TO \(Self.savepoint); RELEASE \(Self.savepoint)")
        for batch in kept { try database.keepPassedOver(of: batch) }
        return true
    }
}
