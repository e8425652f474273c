import Foundation
import RHRCore

extension HealthDatabase {
    /// Applies one batch in one transaction: whole or not at all.
    public func apply(_ batch: SyncBatch) throws(StoreError) -> BatchOutcome {
        try apply([batch])[0]
    }

    /// Applies batches in order, all in one transaction: if any is refused, none is applied.
    public func apply(_ batches: [SyncBatch]) throws(StoreError) -> [BatchOutcome] {
        for (i, batch) in batches.enumerated() {
            do {
                try batch.validate()
            } catch {
                let place = batches.count > 1 ? "batch \(i + 1): " : ""
                throw StoreError(.invalidBatch, place + error.description)
            }
        }
        let now = receiptTime()
        return try db.transaction { () throws(StoreError) -> [BatchOutcome] in
            let book = DeliveryBook(machineZone: machineZone)
            let outcomes = try batches.map { (batch) throws(StoreError) in try applyInTransaction(batch, book: book, now: now) }
            try numberNewWriters(Set(batches.flatMap { $0.resting.map(\.writer.key) }))
            return outcomes
        }
    }

    /// Applies the batches `source` hands over, in order, all in one transaction, holding one at a time: a file of sync
    /// batches of any size is read as it is applied (docs/design.md section 8). `each` sees every batch with its
    /// outcome. Whatever fails, the source (a line that does not read) or the store (a batch refused, named by its
    /// place), nothing of them is applied, and the error is thrown as it was.
    ///
    /// R14, the account: when the source held records and not one could be used (`SyncBatch.holdsUsable`), decided at
    /// its end, before the commit, what the batches did is undone and the store keeps their passed-over records and
    /// nothing else: no road, no "as of" (`PassedOverOnly`). What `each` saw is then void: `.passedOverOnly` says so.
    public func apply(from source: some BatchSource, each: (SyncBatch, BatchOutcome) -> Void) throws -> SourceApplication {
        let now = receiptTime()
        return try db.transaction(failing: { () throws -> SourceApplication in
            var writers = Set<WriterKey>()
            let book = DeliveryBook(machineZone: machineZone)
            var passedOverOnly = try PassedOverOnly(db)
            while let batch = try source.nextBatch() {
                let outcome: BatchOutcome
                do throws(StoreError) {
                    do throws(BatchError) { try batch.validate() } catch { throw StoreError(.invalidBatch, error.description) }
                    outcome = try applyInTransaction(batch, book: book, now: now, applied: { (batch) throws(StoreError) in try passedOverOnly.note(batch) })
                } catch {
                    // A refusal of this batch says where it is; the store's own failures are the store's.
                    guard error.code.refusesContent, let place = source.place else { throw error }
                    throw StoreError(error.code, "\(place): \(error.message)", detail: error.detail)
                }
                writers.formUnion(batch.resting.map(\.writer.key))
                each(batch, outcome)
            }
            if try passedOverOnly.undo(in: self) { return .passedOverOnly }
            try numberNewWriters(writers)
            return .applied
        })
    }

    /// R13: the machine's clock, in its zone, when batches arrive: a time of a batch's own later than it by more than a
    /// day dates no road.
    private func receiptTime() -> Timestamp { Timestamp(date: clock(), offsetSeconds: 0).at(machineZone) }

    /// One batch, inside the caller's transaction, dated by its receipt at `now` where its own time cannot be right
    /// (R13), with what it passed over (R14) and its writers' spellings (R2); `book` keeps the deliveries of the call's
    /// batches. `applied` is shown the batch as the store took it.
    private func applyInTransaction(_ given: SyncBatch, book: DeliveryBook, now: Timestamp,
                                    applied: (SyncBatch) throws(StoreError) -> Void = { _ in }) throws(StoreError) -> BatchOutcome {
        // The same export from the future again is read when it was first read.
        let receipt = FutureDeliveryRule.isBelievable(given.asOf, now: now) ? now : try firstReceipt(of: given) ?? now
        let (batch, futureDated) = given.datedByReceipt(now: receipt)
        try applied(batch)
        var application = BatchApplication(database: self, batch: batch, book: book)
        application.claimedAsOf = futureDated.first { $0.claim == .asOf }?.claimed
        var outcome = try application.run()
        // A batch applied before brought its passed-over records then (R14).
        if !outcome.duplicate {
            outcome.futureDated = futureDated
            try keepPassedOver(of: batch)
            try notePassedOver(of: batch, delivery: application.delivery, layer: application.deliveryLayer)
            try keepSpellings(of: batch)
            outcome.passedOver = batch.passedOver.total
        }
        return outcome
    }
}

/// The stored state of a stream, as a batch finds it.
struct StreamRow {
    var id: Int64
    var cursor: String?
    var asOf: Timestamp?
}

/// The road a batch writes into (docs/design.md R12): its stream's live state, or the snapshot its export is.
struct LayerRow {
    var id: Int64
    var snapshot: Bool
    /// A phone feed's road: it knows each day as of the last request that carried it (`SyncBatch.DayFeed`).
    var byDay: Bool
    /// The road's `asOf` before this batch: when it last read what it holds (nil for a new road).
    var previousAsOf: Timestamp?
    /// The snapshot was imported before (the same export again).
    var existed: Bool
}

/// One batch being applied, inside the caller's transaction.
///
/// Each road keeps what it says (R12): the batch changes only its own road's copies, in its own order, and records
/// its own replacements and deletions in the revision history. What crosses roads is time-ordered and so does not
/// depend on the order batches arrive in: a deletion leaves a tombstone that takes every copy delivered before it
/// (R4), and a snapshot takes what older snapshots of its stream said about its period. Which road decides a
/// writer's day, and what that supersedes, is worked out when reading.
///
/// Each concern is an extension in its own file: `BatchWriters`, `BatchSamples`, `BatchDeletions` (R4),
/// `BatchSnapshots`, `BatchLiveRoad` (R3, R12), `BatchRevisions`, `BatchHeartRate` (R8, R9) and `BatchDeliveries`
/// (which delivery brought what, and what it took from others: `rhr imports`).
struct BatchApplication {
    let database: HealthDatabase
    let batch: SyncBatch
    var db: SQLiteConnection { database.db }
    var outcome = BatchOutcome()
    var writerIDs: [WriterKey: Int64] = [:]
    /// The details each writer was last stored with in this batch: a later sample may name more of them.
    var writerDetails: [WriterKey: WriterDetails] = [:]
    var watchWriterIDs: Set<Int64> = []
    /// Own deletions whose replacement on this road is looked up at the end: (revision row, layer, writer, day).
    var pendingReplacements: [(Int64, Int64, Int64, Int64)] = []
    /// Identities whose copies this batch changed, and whether one of them stood before; those that may have
    /// stopped standing (a copy removed or taken) are checked at the end: the ones standing nowhere then are the
    /// batch's deletions.
    var touched: [String: Bool] = [:]
    var maybeGone: Set<String> = []
    /// Facts looked up once per batch that spare a query per sample on the common paths (a first import, a road
    /// with no newer snapshot, a store without deletions).
    var facts = Facts()
    /// A phone feed's words about writer-days delivered again as they were, only later: whether a reader sees such a
    /// day differently (R3, R12, R13) is checked at the end. By table, writer and day: the word's previous `asOf`.
    var movedWords: [MovedWord: Double] = [:]
    /// R13: the time the batch claimed, when it could not be right and it was dated by its receipt instead.
    var claimedAsOf: Timestamp?
    /// The writers' local days of the batch's resting samples.
    var carriedDays: Set<StoreSnapshot.WriterDay> = []
    /// The call's deliveries, the batch's delivery and its road (`BatchDeliveries`).
    let book: DeliveryBook
    var delivery: Int64 = 0
    var deliveryLayer: Int64 = 0
    /// By writer's day, the samples that stand in this road and change it: added or replaced, unless a fresher road
    /// decides the day (`countOverruled`).
    var standingChanges: [StoreSnapshot.WriterDay: (added: Int, replaced: Int)] = [:]

    struct Facts {
        var storeHasSamples = true
        var storeHasTombstones = true
        /// The snapshots of this batch's stream read after it (an older export imported late): they speak over it.
        var newerSnapshots: [Int64: StoreSnapshot.LayerEntry] = [:]
    }

    init(database: HealthDatabase, batch: SyncBatch, book: DeliveryBook) {
        self.database = database
        self.batch = batch
        self.book = book
    }

    var asOf: Double { batch.asOf.epochSeconds }
    var origin: String { batch.origin.isEmpty ? batch.stream : batch.origin }

    mutating func run() throws(StoreError) -> BatchOutcome {
        let stream = try streamRow()
        if let next = batch.cursor?.next, try wasApplied(next, stream: stream) {
            // Applied already (section 4): answered ok, nothing changes; its samples are as they were.
            outcome.duplicate = true
            outcome.unchanged = batch.resting.count
            outcome.revision = try database.currentRevision()
            return outcome
        }
        if let cursor = batch.cursor, !batch.fullResync, cursor.previous != stream.cursor {
            throw StoreError(.cursorMismatch, "stream \(batch.store.rawValue)/\(batch.stream) is at cursor "
                + "\(stream.cursor.map { "\"\($0)\"" } ?? "(none)"), but the batch continues from "
                + "\(cursor.previous.map { "\"\($0)\"" } ?? "(none)"); send a full resync or the missing batches")
        }

        let layer = try layerRow(stream)
        try noteDelivery(layer)
        try markWatchWriters()
        facts = try lookUpFacts(stream: stream, layer: layer)
        var delivered = Set<String>()
        // R14: a sample delivered twice is one; one window's different values are each kept. The second of two is
        // unchanged by the first (the account, docs/design.md R14).
        let folded = DuplicateRule.folded(batch.resting)
        outcome.unchanged += batch.resting.count - folded.count
        for sample in folded {
            delivered.insert(sample.identity.key)
            try upsert(sample, layer: layer)
        }
        // A full resync replaces what the stream said. A snapshot of the same instant again (the same export, or another
        // file of that instant) adds to the road and takes nothing from it (`SnapshotTie`).
        if batch.fullResync { try removeUndelivered(layer: layer, delivered: delivered) }
        if layer.existed, layer.snapshot, let snapshot = batch.snapshot { try database.widenSnapshot(layer: layer.id, snapshot) }
        if batch.dayFeed == .replacesDays { try replaceCarriedDays(layer: layer, delivered: delivered) }
        for id in batch.deleted { try delete(id: id, layer: layer) }
        try upsertHeartRate(layer: layer)
        if let snapshot = batch.snapshot {
            try coverOlderSnapshots(stream: stream, layer: layer, snapshot)
            try dropDisplacedAgain(stream: stream, snapshot)
        }
        try fillReplacements()
        try moveLiveRoad(layer)
        try checkMovedWords(layer)
        try countDeletions()
        try countOverruled(layer)

        var revision = try database.currentRevision()
        if outcome.changedSomething {
            revision += 1
            try db.statement("UPDATE meta SET value = ? WHERE key = 'revision'").bind(.text(String(revision))).run()
        }
        outcome.revision = revision
        try updateStream(stream, revisionChanged: outcome.changedSomething, revision: revision)
        try database.keepAppPriority(batch, streamID: stream.id)
        try recordDeliveryOutcome()
        return outcome
    }

    // MARK: - Streams and roads

    func streamRow() throws(StoreError) -> StreamRow {
        let select = try db.statement("SELECT id, cursor, as_of, as_of_offset FROM stream WHERE store = ? AND name = ?")
        select.bind(.text(batch.store.rawValue), .text(batch.stream))
        if try select.step() {
            var asOf: Timestamp?
            if let at = select.optionalDouble(try select.column("as_of")) {
                asOf = Timestamp(epochSeconds: at, offsetSeconds: Int(select.optionalInt(try select.column("as_of_offset")) ?? 0))
            }
            return StreamRow(id: select.int(try select.column("id")), cursor: select.optionalText(try select.column("cursor")),
                             asOf: asOf)
        }
        try db.statement("INSERT INTO stream(store, name) VALUES (?, ?)")
            .bind(.text(batch.store.rawValue), .text(batch.stream)).run()
        return StreamRow(id: db.lastInsertRowID, cursor: nil, asOf: nil)
    }

    /// The road this batch writes into: the stream's live state, or the snapshot of this export (one per stream
    /// and `asOf`: the same export imported again is the same road).
    func layerRow(_ stream: StreamRow) throws(StoreError) -> LayerRow {
        let isSnapshot = batch.snapshot != nil, byDay = batch.dayFeed != nil
        let select = try db.statement("""
            SELECT id, as_of, as_of_offset FROM layer
            WHERE stream_id = ?1 AND snapshot = ?2 AND by_day = ?4 AND (?2 = 0 OR as_of = ?3)
            """)
        select.bind(.integer(stream.id), .bool(isSnapshot), .real(asOf), .bool(byDay))
        if try select.step() {
            let previous = Timestamp(epochSeconds: select.double(try select.column("as_of")),
                                     offsetSeconds: Int(select.int(try select.column("as_of_offset"))))
            return LayerRow(id: select.int(try select.column("id")), snapshot: isSnapshot,
                            byDay: byDay, previousAsOf: previous, existed: true)
        }
        let snapshot = batch.snapshot
        try db.statement("""
            INSERT INTO layer(stream_id, snapshot, as_of, as_of_offset, from_at, to_at, from_day, to_day,
                              covers_resting, covers_heart_rate, origin, by_day, claimed_as_of)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
            .bind(.integer(stream.id), .bool(isSnapshot), .real(asOf), .integer(Int64(batch.asOf.offsetSeconds)),
                  .double(snapshot?.from?.epochSeconds), .double(snapshot?.to?.epochSeconds),
                  .int64(snapshot?.from.map { Int64($0.localDay.daysSinceEpoch) }),
                  .int64(snapshot?.to.map { Int64($0.localDay.daysSinceEpoch) }),
                  .bool(snapshot?.coversResting ?? true), .bool(snapshot?.coversHeartRate ?? true), .text(origin),
                  .bool(byDay), .double(claimedAsOf?.epochSeconds))
            .run()
        return LayerRow(id: db.lastInsertRowID, snapshot: isSnapshot, byDay: byDay, previousAsOf: nil,
                        existed: false)
    }

    func lookUpFacts(stream: StreamRow, layer: LayerRow) throws(StoreError) -> Facts {
        func exists(_ sql: String, _ values: SQLValue...) throws(StoreError) -> Bool {
            let select = try db.statement(sql)
            select.bind(values)
            return try select.step()
        }
        let newer = layer.snapshot
            ? try StoreSnapshot(db: db).loadLayers().filter { $0.value.isNewerSnapshot(of: stream.id, than: asOf) } : [:]
        return Facts(
            storeHasSamples: try exists("SELECT 1 FROM sample WHERE store = ? LIMIT 1", .text(batch.store.rawValue)),
            storeHasTombstones: try exists("SELECT 1 FROM tombstone WHERE store = ? LIMIT 1", .text(batch.store.rawValue)),
            newerSnapshots: newer)
    }

    /// The stored cursor, or one the stream moved to earlier since its last full resync.
    func wasApplied(_ cursor: String, stream: StreamRow) throws(StoreError) -> Bool {
        if cursor == stream.cursor { return true }
        if batch.fullResync { return false }
        let select = try db.statement("SELECT 1 FROM stream_cursor WHERE stream_id = ? AND cursor = ?")
        select.bind(.integer(stream.id), .text(cursor))
        return try select.step()
    }

    /// The stream's `asOf` and origin follow its freshest road, whatever order its exports came in.
    func updateStream(_ stream: StreamRow, revisionChanged: Bool, revision: Int64) throws(StoreError) {
        let fresher = stream.asOf.map { self.asOf >= $0.epochSeconds } ?? true, asOf = fresher ? batch.asOf : (stream.asOf ?? batch.asOf)
        let cursor = batch.cursor.map { $0.next } ?? stream.cursor
        let permissions = batch.grantedPermissions.map { $0.joined(separator: "\n") }
        if batch.fullResync {
            try db.statement("DELETE FROM stream_cursor WHERE stream_id = ?").bind(.integer(stream.id)).run()
        }
        if let next = batch.cursor?.next {
            try db.statement("INSERT OR IGNORE INTO stream_cursor(stream_id, cursor) VALUES (?, ?)")
                .bind(.integer(stream.id), .text(next)).run()
        }
        try db.statement("""
            UPDATE stream SET cursor = ?, as_of = ?, as_of_offset = ?,
                origin = CASE WHEN ? THEN ? ELSE origin END,
                permissions = coalesce(?, permissions),
                revision = CASE WHEN ? THEN ? ELSE revision END
            WHERE id = ?
            """)
            .bind(.string(cursor), .real(asOf.epochSeconds), .integer(Int64(asOf.offsetSeconds)),
                  .bool(fresher), .text(origin),
                  .string(permissions), .bool(revisionChanged), .integer(revision), .integer(stream.id))
            .run()
    }
}
