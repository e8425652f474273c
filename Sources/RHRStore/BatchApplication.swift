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
        return try db.transaction { () throws(StoreError) -> [BatchOutcome] in
            var outcomes: [BatchOutcome] = []
            for batch in batches {
                var application = BatchApplication(database: self, batch: batch)
                let outcome = try application.run()
                // A batch applied before brought its passed-over records then (R14).
                if !outcome.duplicate {
                    try keepPassedOver(of: batch)
                    try keepSpellings(of: batch)
                }
                outcomes.append(outcome)
            }
            try numberNewWriters(batches)
            return outcomes
        }
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
struct BatchApplication {
    let database: HealthDatabase
    let batch: SyncBatch
    var db: SQLiteConnection { database.db }
    var outcome = BatchOutcome()
    private var writerIDs: [WriterKey: Int64] = [:]
    /// The details each writer was last stored with in this batch: a later sample may name more of them.
    private var writerDetails: [WriterKey: WriterDetails] = [:]
    private var watchWriterIDs: Set<Int64> = []
    /// Own deletions whose replacement on this road is looked up at the end: (revision row, layer, writer, day).
    private var pendingReplacements: [(Int64, Int64, Int64, Int64)] = []
    /// Identities whose copies this batch changed, and whether one of them stood before; those that may have
    /// stopped standing (a copy removed or taken) are checked at the end: the ones standing nowhere then are the
    /// batch's deletions.
    private var touched: [String: Bool] = [:]
    private var maybeGone: Set<String> = []
    /// Facts looked up once per batch that spare a query per sample on the common paths (a first import, a road
    /// with no newer snapshot, a store without deletions).
    private var facts = Facts()
    /// A phone feed's words about writer-days delivered again as they were, only later: whether a reader sees such a
    /// day differently (R3, R12, R13) is checked at the end. By table, writer and day: the word's previous `asOf`.
    private var movedWords: [MovedWord: Double] = [:]
    /// The writers' local days of the batch's resting samples.
    private var carriedDays: Set<StoreSnapshot.WriterDay> = []

    private struct Facts {
        var storeHasSamples = true
        var storeHasTombstones = true
        /// The snapshots of this batch's stream read after it (an older export imported late): they speak over it.
        var newerSnapshots: [Int64: StoreSnapshot.LayerEntry] = [:]
    }

    init(database: HealthDatabase, batch: SyncBatch) {
        self.database = database
        self.batch = batch
    }

    private var asOf: Double { batch.asOf.epochSeconds }
    private var origin: String { batch.origin.isEmpty ? batch.stream : batch.origin }

    mutating func run() throws(StoreError) -> BatchOutcome {
        let stream = try streamRow()
        if let next = batch.cursor?.next, try wasApplied(next, stream: stream) {
            // Applied already (section 4): answered ok, nothing changes.
            outcome.duplicate = true
            outcome.revision = try database.currentRevision()
            return outcome
        }
        if let cursor = batch.cursor, !batch.fullResync, cursor.previous != stream.cursor {
            throw StoreError(.cursorMismatch, "stream \(batch.store.rawValue)/\(batch.stream) is at cursor "
                + "\(stream.cursor.map { "\"\($0)\"" } ?? "(none)"), but the batch continues from "
                + "\(cursor.previous.map { "\"\($0)\"" } ?? "(none)"); send a full resync or the missing batches")
        }

        try markWatchWriters()
        let layer = try layerRow(stream)
        facts = try lookUpFacts(stream: stream, layer: layer)
        var delivered = Set<String>()
        // R14: a sample delivered twice is one; one window's different values are each kept.
        for sample in DuplicateRule.folded(batch.resting) {
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
        if let snapshot = batch.snapshot { try coverOlderSnapshots(stream: stream, layer: layer, snapshot) }
        try fillReplacements()
        try moveLiveRoad(layer)
        try checkMovedWords(layer)
        try countDeletions()

        var revision = try database.currentRevision()
        if outcome.changedSomething {
            revision += 1
            try db.statement("UPDATE meta SET value = ? WHERE key = 'revision'").bind(.text(String(revision))).run()
        }
        outcome.revision = revision
        try updateStream(stream, revisionChanged: outcome.changedSomething, revision: revision)
        try database.keepAppPriority(batch, streamID: stream.id)
        return outcome
    }

    // MARK: - Streams, roads and writers

    private func streamRow() throws(StoreError) -> StreamRow {
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
    private func layerRow(_ stream: StreamRow) throws(StoreError) -> LayerRow {
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
                              covers_resting, covers_heart_rate, origin, by_day)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
            .bind(.integer(stream.id), .bool(isSnapshot), .real(asOf), .integer(Int64(batch.asOf.offsetSeconds)),
                  .double(snapshot?.from?.epochSeconds), .double(snapshot?.to?.epochSeconds),
                  .int64(snapshot?.from.map { Int64($0.localDay.daysSinceEpoch) }),
                  .int64(snapshot?.to.map { Int64($0.localDay.daysSinceEpoch) }),
                  .bool(snapshot?.coversResting ?? true), .bool(snapshot?.coversHeartRate ?? true), .text(origin),
                  .bool(byDay))
            .run()
        return LayerRow(id: db.lastInsertRowID, snapshot: isSnapshot, byDay: byDay, previousAsOf: nil,
                        existed: false)
    }

    private func lookUpFacts(stream: StreamRow, layer: LayerRow) throws(StoreError) -> Facts {
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
    private func wasApplied(_ cursor: String, stream: StreamRow) throws(StoreError) -> Bool {
        if cursor == stream.cursor { return true }
        if batch.fullResync { return false }
        let select = try db.statement("SELECT 1 FROM stream_cursor WHERE stream_id = ? AND cursor = ?")
        select.bind(.integer(stream.id), .text(cursor))
        return try select.step()
    }

    /// The stream's `asOf` and origin follow its freshest road, whatever order its exports came in.
    private func updateStream(_ stream: StreamRow, revisionChanged: Bool, revision: Int64) throws(StoreError) {
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

    private mutating func writerID(_ writer: Writer, isWatch: Bool) throws(StoreError) -> Int64 {
        let details = WriterDetails(writer)
        if let id = writerIDs[writer.key], details.adds(nothingTo: writerDetails[writer.key]) {
            if isWatch && !watchWriterIDs.contains(id) { try setWatch(id) }
            return id
        }
        writerDetails[writer.key] = details.merged(over: writerDetails[writer.key])
        // Each detail is the freshest road's that gave one (ties: the smaller text), so import order cannot
        // change which app name or product type a writer shows.
        func detail(_ column: String) -> String {
            """
            \(column) = CASE WHEN excluded.\(column) IS NOT NULL AND (\(column) IS NULL
                    OR excluded.\(column)_as_of > \(column)_as_of
                    OR (excluded.\(column)_as_of = \(column)_as_of AND excluded.\(column) < \(column)))
                THEN excluded.\(column) ELSE \(column) END,
            \(column)_as_of = CASE WHEN excluded.\(column) IS NOT NULL AND (\(column) IS NULL
                    OR excluded.\(column)_as_of > \(column)_as_of)
                THEN excluded.\(column)_as_of ELSE \(column)_as_of END
            """
        }
        try db.statement("""
            INSERT INTO writer(store, name, app_name, bundle_identifier, product_type, is_watch,
                               app_name_as_of, bundle_identifier_as_of, product_type_as_of, name_bytes)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN ?3 IS NOT NULL THEN ?7 END, CASE WHEN ?4 IS NOT NULL THEN ?7 END,
                    CASE WHEN ?5 IS NOT NULL THEN ?7 END, ?8)
            ON CONFLICT(store, name) DO UPDATE SET
                \(detail("app_name")), \(detail("bundle_identifier")), \(detail("product_type")),
                is_watch = max(is_watch, excluded.is_watch),
                -- Names alike up to the cut are one writer: the longest length seen, whatever the order.
                name_bytes = max(coalesce(name_bytes, 0), coalesce(excluded.name_bytes, 0))
            """)
            .bind(.text(writer.store.rawValue), .text(writer.name), .string(writer.appName),
                  .string(writer.bundleIdentifier), .string(writer.productType), .bool(isWatch), .real(asOf),
                  .int64(writer.nameBytes.map(Int64.init))).run()
        let select = try db.statement("SELECT id, is_watch FROM writer WHERE store = ? AND name = ?")
        select.bind(.text(writer.store.rawValue), .text(writer.name))
        guard try select.step() else { throw db.error("writer \(writer.name) vanished") }
        let id = select.int(try select.column("id"))
        writerIDs[writer.key] = id
        if select.int(try select.column("is_watch")) != 0 { watchWriterIDs.insert(id) }
        return id
    }

    /// What a batch may say about a writer beyond its name.
    private struct WriterDetails {
        var appName: String?
        var bundleIdentifier: String?
        var productType: String?
        var nameBytes: Int?

        init(_ writer: Writer) {
            appName = writer.appName
            bundleIdentifier = writer.bundleIdentifier
            productType = writer.productType
            nameBytes = writer.nameBytes
        }

        /// True when every detail given is already known.
        func adds(nothingTo known: WriterDetails?) -> Bool {
            guard let known else { return false }
            return (appName == nil || appName == known.appName)
                && (bundleIdentifier == nil || bundleIdentifier == known.bundleIdentifier)
                && (productType == nil || productType == known.productType)
                && (nameBytes ?? 0) <= (known.nameBytes ?? 0)
        }

        func merged(over known: WriterDetails?) -> WriterDetails {
            var merged = self
            merged.appName = appName ?? known?.appName
            merged.bundleIdentifier = bundleIdentifier ?? known?.bundleIdentifier
            merged.productType = productType ?? known?.productType
            let longest = max(nameBytes ?? 0, known?.nameBytes ?? 0)
            merged.nameBytes = longest > 0 ? longest : nil
            return merged
        }
    }

    private mutating func setWatch(_ id: Int64) throws(StoreError) {
        try db.statement("UPDATE writer SET is_watch = 1 WHERE id = ?").bind(.integer(id)).run()
        watchWriterIDs.insert(id)
    }

    /// R3: writers the reader saw on watch devices, even when their resting samples say nothing of it.
    private mutating func markWatchWriters() throws(StoreError) {
        guard batch.store == .healthKit else { return }
        for name in batch.watchWriters.sorted() {
            _ = try writerID(Writer(store: .healthKit, name: name), isWatch: true)
        }
    }

    private func isWatch(_ sample: RestingSample) -> Bool {
        batch.store == .healthKit && (batch.watchWriters.contains(sample.writer.name)
            || ProvisionalRule.isAppleWatch(sourceName: sample.writer.name, deviceModel: sample.device?.model,
                                            productType: sample.writer.productType,
                                            bundleIdentifier: sample.writer.bundleIdentifier))
    }

    // MARK: - Resting samples

    /// Every road's copy of an identity.
    private func copies(of identity: String) throws(StoreError) -> [StoredCopy] {
        let select = try db.statement(StoredCopy.selectByIdentity)
        select.bind(.text(batch.store.rawValue), .text(identity))
        let columns = try StoredCopy.Columns(select)
        var result: [StoredCopy] = []
        while try select.step() { result.append(StoredCopy(select, columns)) }
        return result
    }

    /// Notes, before it changes, whether an identity stood anywhere.
    private mutating func touch(_ identity: String, _ copies: [StoredCopy]) {
        if touched[identity] == nil { touched[identity] = copies.contains(where: \.current) }
    }

    private mutating func touch(_ identity: String) throws(StoreError) {
        if touched[identity] == nil { touch(identity, try copies(of: identity)) }
    }

    private mutating func upsert(_ sample: RestingSample, layer: LayerRow) throws(StoreError) {
        let writer = try writerID(sample.writer, isWatch: isWatch(sample))
        let row = SampleRow(sample, writerID: writer, machineZone: database.machineZone)
        carriedDays.insert(StoreSnapshot.WriterDay(writer: writer, day: row.day))
        if !row.inRange { outcome.outOfRange += 1 }
        let all = facts.storeHasSamples ? try copies(of: row.identity) : []
        touch(row.identity, all)
        // A deletion of its UUID seen before it arrived takes its identity too, on every road (R4).
        if facts.storeHasTombstones, let uuid = row.uuid, uuid != row.identity, let deletion = try tombstone(uuid) {
            try recordTombstone(row.identity, at: deletion.at, offset: deletion.offset, origin: deletion.origin)
        }
        // A newer snapshot of this stream holds the same value for it: this older export's copy adds nothing, to the
        // trend or to the history (the newer copy says the same), and is not kept.
        if all.contains(where: { facts.newerSnapshots[$0.layer]?.covers(row.start) == true && $0.row.sameValue(as: row) }) {
            if let own = all.first(where: { $0.layer == layer.id }) {
                try removeCopy(own.id, identity: own.row.identity, day: own.row.day)
            }
            return
        }
        let current = try stands(identity: row.identity, uuid: row.uuid, deliveredAt: asOf, start: row.start)
        if !current { maybeGone.insert(row.identity) }
        if let own = all.first(where: { $0.layer == layer.id }) {
            if own.row == row && own.asOf == asOf && own.current == current {
                outcome.unchanged += 1
                return
            }
            if own.row == row {
                // Delivered again, unchanged: only when the road last said it moves.
                outcome.unchanged += 1
                try db.statement("UPDATE sample SET as_of = ?, current = ?, \(SampleRow.keepFirst) WHERE id = ?")
                    .bind(.real(asOf), .bool(current), .integer(own.id)).run()
                if own.current != current || row.isValid(deliveredAt: own.asOf) != row.isValid(deliveredAt: asOf) {
                    outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
                }
                if layer.byDay { noteMovedWord(.resting, writer: row.writerID, day: row.day, from: own.asOf) }
                return
            } else if layer.snapshot && SnapshotTie.keeps(own.row, over: row) {
                // Another file of the same instant: its copy does not stand over this one (R14).
                outcome.unchanged += 1
                return
            } else {
                if !own.row.sameValue(as: row) && !layer.snapshot {
                    try recordRevision(of: own.row, reason: .replaced, replacedBy: row.inRange ? row.bpm : nil,
                                       oldAsOf: readAt(own, layer: layer), pending: nil)
                }
                outcome.replaced += 1
            }
            try db.statement(SampleRow.update)
                .bind([.real(asOf), .bool(current)] + row.bindings + [.integer(own.id)]).run()
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(own.row.day)))
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
            return
        }
        try db.statement(SampleRow.insert)
            .bind([.integer(layer.id), .text(batch.store.rawValue), .real(asOf), .bool(current)] + row.bindings).run()
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
        // Counted against what the store held of it: another road's copy of the same value is no addition, and a
        // copy that does not stand (an older export imported late, R12) changes no value.
        guard current else { return }
        if let standing = all.filter(\.current).max(by: { $0.asOf < $1.asOf }) {
            if standing.row.sameValue(as: row) { outcome.unchanged += 1 } else { outcome.replaced += 1 }
        } else {
            outcome.added += 1
        }
    }

    /// Whether a copy delivered at `deliveredAt` stands in its road: no later deletion took it (R4), and, in a
    /// snapshot, no newer snapshot of the same stream covers its start.
    private func stands(identity: String, uuid: String?, deliveredAt: Double, start: Double) throws(StoreError) -> Bool {
        if facts.storeHasTombstones {
            let deleted = try db.statement("""
                SELECT 1 FROM tombstone WHERE store = ?1 AND key IN (?2, ?3) AND at > ?4 LIMIT 1
                """)
            deleted.bind(.text(batch.store.rawValue), .text(identity), .string(uuid), .real(deliveredAt))
            if try deleted.step() { return false }
        }
        return !facts.newerSnapshots.values.contains { $0.covers(start) }
    }

    /// R4 for the same export again, or a full resync: what the road said before and no longer says leaves it.
    private mutating func removeUndelivered(layer: LayerRow, delivered: Set<String>) throws(StoreError) {
        let select = try db.statement("SELECT \(StoredCopy.columns()) FROM sample WHERE layer_id = ?")
        select.bind(.integer(layer.id))
        var gone: [StoredCopy] = []
        let columns = try StoredCopy.Columns(select)
        while try select.step() {
            let copy = StoredCopy(select, columns)
            if !delivered.contains(copy.row.identity) { gone.append(copy) }
        }
        for copy in gone {
            try touch(copy.row.identity)
            if batch.fullResync {
                try recordRevision(of: copy.row, reason: .fullResync, replacedBy: nil, oldAsOf: layer.previousAsOf,
                                   pending: layer.id)
            }
            try removeCopy(copy.id, identity: copy.row.identity, day: copy.row.day)
        }
    }

    /// A Health Auto Export request (`SyncBatch.DayFeed.replacesDays`): for each writer and local day its resting
    /// points fall on, what the road held and the request no longer carries leaves the road (Apple deleted or replaced
    /// it, R4), kept in its history; other writers' days, and other days, keep theirs (a request of one source's points,
    /// or a window that starts after a day's estimate, says nothing of them). A copy a deletion took already stays as
    /// it is, for the history.
    private mutating func replaceCarriedDays(layer: LayerRow, delivered: Set<String>) throws(StoreError) {
        let select = try db.statement("""
            SELECT \(StoredCopy.columns()) FROM sample WHERE layer_id = ? AND day = ? AND writer_id = ? AND current = 1
            """)
        let columns = try StoredCopy.Columns(select)
        for carried in carriedDays.sorted(by: { ($0.day, $0.writer) < ($1.day, $1.writer) }) {
            select.reset()
            select.bind(.integer(layer.id), .integer(carried.day), .integer(carried.writer))
            var gone: [StoredCopy] = []
            while try select.step() {
                let copy = StoredCopy(select, columns)
                if !delivered.contains(copy.row.identity) { gone.append(copy) }
            }
            for copy in gone {
                try touch(copy.row.identity)
                // A phone feed's road (`byDay`): when it delivered the copy.
                try recordRevision(of: copy.row, reason: .deleted, replacedBy: nil, oldAsOf: readAt(copy, layer: layer),
                                   pending: layer.id)
                try removeCopy(copy.id, identity: copy.row.identity, day: copy.row.day)
            }
        }
    }

    /// When the road last read a copy of its own (R3 says "draft" by it): a phone feed's, when it delivered it; a
    /// live stream's or a snapshot's, its `asOf` before this batch.
    private func readAt(_ copy: StoredCopy, layer: LayerRow) -> Timestamp? {
        guard layer.byDay else { return layer.previousAsOf }
        return Timestamp(epochSeconds: copy.asOf, offsetSeconds: layer.previousAsOf?.offsetSeconds ?? 0)
    }

    private mutating func removeCopy(_ rowID: Int64, identity: String, day: Int64) throws(StoreError) {
        maybeGone.insert(identity)
        try db.statement("DELETE FROM sample WHERE id = ?").bind(.integer(rowID)).run()
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(day)))
    }

    // MARK: - Deletions (R4)

    private struct Tombstone {
        var at: Double
        var offset: Int64
        var origin: String
    }

    private func tombstone(_ key: String) throws(StoreError) -> Tombstone? {
        let select = try db.statement("SELECT at, at_offset, origin FROM tombstone WHERE store = ? AND key = ?")
        select.bind(.text(batch.store.rawValue), .text(key))
        guard try select.step() else { return nil }
        return Tombstone(at: select.double(try select.column("at")), offset: select.int(try select.column("at_offset")),
                         origin: select.text(try select.column("origin")))
    }

    /// A deletion from the platform is authoritative across roads, ordered by time: it takes this road's copy
    /// (recorded in this road's history), and every other road's copy delivered before it.
    private mutating func delete(id: String, layer: LayerRow) throws(StoreError) {
        let key = batch.store == .healthConnect ? SampleIdentity.normalisedRecordId(id) : id
        // The identities the key names: itself, and the natural key of any copy carrying it as its UUID. Two
        // lookups, one per index: with `uuid = ? OR identity = ?` SQLite read every sample of the store.
        let select = try db.statement("""
            SELECT \(StoredCopy.columns()) FROM sample WHERE id IN (
                SELECT id FROM sample WHERE store = ?1 AND uuid = ?2
                UNION SELECT id FROM sample WHERE store = ?1 AND identity = ?2)
            """)
        select.bind(.text(batch.store.rawValue), .text(key))
        var identities: Set<String> = [key]
        var own: [StoredCopy] = []
        let columns = try StoredCopy.Columns(select)
        while try select.step() {
            let copy = StoredCopy(select, columns)
            identities.insert(copy.row.identity)
            if copy.layer == layer.id { own.append(copy) }
        }
        for identity in identities.sorted() { try touch(identity) }
        for copy in own {
            try recordRevision(of: copy.row, reason: .deleted, replacedBy: nil, oldAsOf: layer.previousAsOf, pending: layer.id)
            try removeCopy(copy.id, identity: copy.row.identity, day: copy.row.day)
        }
        for identity in identities.sorted() {
            try recordTombstone(identity, at: asOf, offset: Int64(batch.asOf.offsetSeconds), origin: origin)
        }
        // A deleted heart-rate sample or record leaves its summary too: this road's at once, another's when
        // delivered before the deletion; only its own store's (R1). `record_key <> ''` lets SQLite use the partial
        // index `heart_rate_by_record`; without it every deleted id scanned the whole table.
        let ofThisStore = """
            record_key = ?1 AND record_key <> '' AND (layer_id = ?2 OR as_of < ?3)
            AND writer_id IN (SELECT id FROM writer WHERE store = ?4)
            """
        let days = try db.statement("SELECT DISTINCT day FROM heart_rate WHERE \(ofThisStore)")
        days.bind(.text(key), .integer(layer.id), .real(asOf), .text(batch.store.rawValue))
        var hrDays: [Int64] = []
        let day = try days.column("day")
        while try days.step() { hrDays.append(days.int(day)) }
        if !hrDays.isEmpty {
            try db.statement("DELETE FROM heart_rate WHERE \(ofThisStore)")
                .bind(.text(key), .integer(layer.id), .real(asOf), .text(batch.store.rawValue)).run()
            for d in hrDays { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d))) }
        }
    }

    /// Remembers a deletion (the latest, when a key is deleted twice) and takes the copies delivered before it.
    private mutating func recordTombstone(_ key: String, at: Double, offset: Int64, origin: String) throws(StoreError) {
        try db.statement("""
            INSERT INTO tombstone(store, key, at, at_offset, origin) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(store, key) DO UPDATE SET at = excluded.at, at_offset = excluded.at_offset, origin = excluded.origin
            WHERE excluded.at > tombstone.at
            """)
            .bind(.text(batch.store.rawValue), .text(key), .real(at), .integer(offset), .text(origin)).run()
        let select = try db.statement("""
            SELECT id, identity, day FROM sample
            WHERE id IN (SELECT id FROM sample WHERE store = ?1 AND identity = ?2
                         UNION SELECT id FROM sample WHERE store = ?1 AND uuid = ?2)
              AND current = 1 AND as_of < ?3
            """)
        select.bind(.text(batch.store.rawValue), .text(key), .real(at))
        try stopStanding(select)
    }

    /// The copies a statement selects (`id`, `identity`, `day`) no longer stand in their roads: out of the trend,
    /// kept for the history.
    private mutating func stopStanding(_ select: SQLiteStatement) throws(StoreError) {
        var rows: [(Int64, String, Int64)] = []
        let id = try select.column("id"), identity = try select.column("identity"), day = try select.column("day")
        while try select.step() { rows.append((select.int(id), select.text(identity), select.int(day))) }
        for (rowID, identity, d) in rows {
            try touch(identity)
            maybeGone.insert(identity)
            try db.statement("UPDATE sample SET current = 0 WHERE id = ?").bind(.integer(rowID)).run()
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d)))
        }
    }

    /// How many values left the trend: identities that stood before the batch and stand nowhere after it.
    private mutating func countDeletions() throws(StoreError) {
        for identity in maybeGone where touched[identity] == true {
            let select = try db.statement("SELECT 1 FROM sample WHERE store = ? AND identity = ? AND current = 1 LIMIT 1")
            select.bind(.text(batch.store.rawValue), .text(identity))
            if try !select.step() { outcome.deleted += 1 }
        }
    }

    // MARK: - Snapshots (R4, R12)

    /// Within this snapshot's stream, what older snapshots said about its period no longer stands (it stays in
    /// the history). A snapshot older than one imported already was stored as not standing where that one covers it.
    private mutating func coverOlderSnapshots(stream: StreamRow, layer: LayerRow, _ snapshot: SyncBatch.Snapshot) throws(StoreError) {
        if snapshot.coversResting {
            let select = try db.statement("""
                SELECT s.id, s.identity, s.day FROM sample s JOIN layer l ON l.id = s.layer_id
                WHERE l.stream_id = ?1 AND l.snapshot = 1 AND l.as_of < ?2 AND s.current = 1
                  AND (?3 IS NULL OR s.start >= ?3) AND (?4 IS NULL OR s.start <= ?4)
                """)
            select.bind(.integer(stream.id), .real(asOf), .double(snapshot.from?.epochSeconds), .double(snapshot.to?.epochSeconds))
            try stopStanding(select)
            // Older copies this snapshot holds with the same value say nothing it does not: not kept. "The same" is
            // `SampleRow.sameValue`, as when the older export arrives second (`apply`), so either order keeps the same.
            let pairs = try db.statement("""
                SELECT o.id AS id, o.value AS old_value, o.unit AS old_unit, n.value AS new_value, n.unit AS new_unit
                FROM sample o JOIN layer l ON l.id = o.layer_id
                JOIN sample n ON n.store = o.store AND n.identity = o.identity AND n.layer_id = ?1
                WHERE l.stream_id = ?2 AND l.snapshot = 1 AND l.as_of < ?3
                  AND (?4 IS NULL OR o.start >= ?4) AND (?5 IS NULL OR o.start <= ?5)
                """)
            pairs.bind(.integer(layer.id), .integer(stream.id), .real(asOf), .double(snapshot.from?.epochSeconds),
                       .double(snapshot.to?.epochSeconds))
            let id = try pairs.column("id"), oldValue = try pairs.column("old_value"), oldUnit = try pairs.column("old_unit"),
                newValue = try pairs.column("new_value"), newUnit = try pairs.column("new_unit")
            var same: [Int64] = []
            while try pairs.step() {
                if SampleRow.sameValue((pairs.optionalDouble(oldValue), pairs.text(oldUnit)),
                                       (pairs.optionalDouble(newValue), pairs.text(newUnit))) {
                    same.append(pairs.int(id))
                }
            }
            let delete = try db.statement("DELETE FROM sample WHERE id = ?")
            for rowID in same {
                delete.reset()
                try delete.bind(.integer(rowID)).run()
            }
        }
        if snapshot.coversHeartRate {
            let fromDay = snapshot.from.map { Int64($0.localDay.daysSinceEpoch) }
            let toDay = snapshot.to.map { Int64($0.localDay.daysSinceEpoch) }
            // Heart rate has no history: what a newer snapshot covers is gone from the older ones.
            let select = try db.statement("""
                SELECT DISTINCT h.day FROM heart_rate h JOIN layer l ON l.id = h.layer_id
                WHERE l.stream_id = ?1 AND l.snapshot = 1 AND l.as_of < ?2
                  AND (?3 IS NULL OR h.day >= ?3) AND (?4 IS NULL OR h.day <= ?4)
                """)
            select.bind(.integer(stream.id), .real(asOf), .int64(fromDay), .int64(toDay))
            let day = try select.column("day")
            var days: [Int64] = []
            while try select.step() { days.append(select.int(day)) }
            guard !days.isEmpty else { return }
            try db.statement("""
                DELETE FROM heart_rate WHERE (?3 IS NULL OR day >= ?3) AND (?4 IS NULL OR day <= ?4)
                  AND layer_id IN (SELECT id FROM layer WHERE stream_id = ?1 AND snapshot = 1 AND as_of < ?2)
                """)
                .bind(.integer(stream.id), .real(asOf), .int64(fromDay), .int64(toDay)).run()
            for d in days { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d))) }
        }
    }

    // MARK: - A live road moving on (R3, R12)

    /// A live road's `asOf` follows its newest batch. When it moves on, R3 may end the provisional state of its
    /// recent days, and R12 may hand it writer-days another road decided: those days changed too.
    private mutating func moveLiveRoad(_ layer: LayerRow) throws(StoreError) {
        guard !layer.snapshot, let previous = layer.previousAsOf, asOf > previous.epochSeconds else { return }
        // The road's origin stays its first batch's: the history names a road one way.
        try db.statement("UPDATE layer SET as_of = ?, as_of_offset = ? WHERE id = ?")
            .bind(.real(asOf), .integer(Int64(batch.asOf.offsetSeconds)), .integer(layer.id)).run()
        // A phone feed's road says nothing new of the days this request did not carry (`checkMovedWords`).
        if layer.byDay { return }
        if batch.asOf.localDay > previous.localDay {
            let firstOld = ProvisionalRule.firstProvisionalDay(readOn: previous.localDay)
            if try roadHasWatchSamples(layer.id, since: firstOld) {
                for d in firstOld...min(batch.asOf.localDay, previous.localDay.adding(days: 60)) { outcome.changedDays.insert(d) }
            }
        }
        // Only roads of the same store read between the old and the new asOf can change places with this one (a phone
        // feed's road by the words it dated in between, all before its own asOf).
        let passed = try db.statement("""
            SELECT 1 FROM layer l JOIN stream st ON st.id = l.stream_id
            WHERE l.id <> ?1 AND st.store = ?2 AND l.as_of >= ?3 AND (l.by_day = 1 OR l.as_of <= ?4) LIMIT 1
            """)
        passed.bind(.integer(layer.id), .text(batch.store.rawValue), .real(previous.epochSeconds), .real(asOf))
        guard try passed.step() else { return }
        for (table, standing) in [("sample", "s.current = 1 AND o.current = 1"), ("heart_rate", "1")] {
            let select = try db.statement("""
                SELECT DISTINCT s.day FROM \(table) s WHERE s.layer_id = ?1 AND EXISTS (
                    SELECT 1 FROM \(table) o JOIN layer ol ON ol.id = o.layer_id
                    WHERE o.day = s.day AND o.writer_id = s.writer_id AND o.layer_id <> ?1 AND \(standing)
                      AND \(BatchApplication.wordAsOf("o", "ol")) BETWEEN ?2 AND ?3)
                """)
            select.bind(.integer(layer.id), .real(previous.epochSeconds), .real(asOf))
            let day = try select.column("day")
            while try select.step() { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(select.int(day)))) }
        }
    }

    /// When a road said what one of its rows says (R12): a phone feed's road, when it delivered the row; any other,
    /// when it was read. `row` and `layer` are the aliases of a `sample` or `heart_rate` row and its `layer`.
    static func wordAsOf(_ row: String, _ layer: String) -> String {
        "(CASE WHEN \(layer).by_day = 1 THEN \(row).as_of ELSE \(layer).as_of END)"
    }

    /// Where a word of a phone feed's road about a writer's day was delivered again as it was.
    private struct MovedWord: Hashable {
        enum Table: String { case resting = "sample", heartRate = "heart_rate" }
        var table: Table
        var writer: Int64
        var day: Int64
    }

    private mutating func noteMovedWord(_ table: MovedWord.Table, writer: Int64, day: Int64, from: Double) {
        guard from < asOf else { return }
        let key = MovedWord(table: table, writer: writer, day: day)
        movedWords[key] = max(movedWords[key] ?? from, from)
    }

    /// A phone feed's request that delivers a writer's day again as it was dates the road's word about that day
    /// anew. A reader sees the day differently only when that ends its provisional state (R3), makes its heart rate
    /// plausible (R13), or moves the word past another road's about the same writer's day (R12): those days changed;
    /// a repeated request changes nothing.
    private mutating func checkMovedWords(_ layer: LayerRow) throws(StoreError) {
        let offset = layer.previousAsOf?.offsetSeconds ?? batch.asOf.offsetSeconds
        for (word, from) in movedWords.sorted(by: { ($0.key.day, $0.key.writer) < ($1.key.day, $1.key.writer) }) {
            let day = LocalDay(daysSinceEpoch: Int(word.day))
            if outcome.changedDays.contains(day) { continue }
            let before = Timestamp(epochSeconds: from, offsetSeconds: offset)
            switch word.table {
            case .resting:
                let isWatch = watchWriterIDs.contains(word.writer)
                if ProvisionalRule.isProvisional(store: batch.store, writerIsWatch: isWatch, day: day, asOf: before)
                    != ProvisionalRule.isProvisional(store: batch.store, writerIsWatch: isWatch, day: day, asOf: batch.asOf) {
                    outcome.changedDays.insert(day)
                    continue
                }
            case .heartRate:
                if PlausibleTimeRule.isPlausible(day: day, asOf: before) != PlausibleTimeRule.isPlausible(day: day, asOf: batch.asOf) {
                    outcome.changedDays.insert(day)
                    continue
                }
            }
            let standing = word.table == .resting ? "o.current = 1" : "1"
            let passed = try db.statement("""
                SELECT 1 FROM \(word.table.rawValue) o JOIN layer ol ON ol.id = o.layer_id
                WHERE o.day = ?1 AND o.writer_id = ?2 AND o.layer_id <> ?3 AND \(standing)
                  AND \(BatchApplication.wordAsOf("o", "ol")) BETWEEN ?4 AND ?5
                LIMIT 1
                """)
            passed.bind(.integer(word.day), .integer(word.writer), .integer(layer.id), .real(from), .real(asOf))
            if try passed.step() { outcome.changedDays.insert(day) }
        }
    }

    private func roadHasWatchSamples(_ layerID: Int64, since day: LocalDay) throws(StoreError) -> Bool {
        let select = try db.statement("""
            SELECT 1 FROM sample s JOIN writer w ON w.id = s.writer_id
            WHERE s.layer_id = ? AND w.is_watch = 1 AND s.day >= ? LIMIT 1
            """)
        select.bind(.integer(layerID), .integer(Int64(day.daysSinceEpoch)))
        return try select.step()
    }

    // MARK: - Revision history

    /// Records one of this road's own replacements or deletions, in its own order. `oldAsOf`: when the road last
    /// read the old value (R3 says "draft" by it when reading). `pending`: the road whose latest value of the
    /// writer's day, after the batch, replaced it.
    private mutating func recordRevision(of row: SampleRow, reason: RevisionReason, replacedBy: Double?,
                                         oldAsOf: Timestamp?, pending: Int64?) throws(StoreError) {
        try db.statement("""
            INSERT INTO revision(writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm,
                                 at, at_offset, origin, store_revision, old_as_of)
            VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, (SELECT CAST(value AS INTEGER) + 1 FROM meta WHERE key = 'revision'), ?)
            """)
            .bind(.integer(row.writerID), .integer(row.day), .text(row.identity), .double(row.value), .text(row.unit),
                  .text(reason.rawValue), .double(replacedBy), .real(asOf), .integer(Int64(batch.asOf.offsetSeconds)),
                  .text(origin), .double(oldAsOf?.epochSeconds))
            .run()
        if let pending { pendingReplacements.append((db.lastInsertRowID, pending, row.writerID, row.day)) }
    }

    /// "draft 61 → 59": after the batch, the road's own latest valid value of the same writer and day, chosen by
    /// R7's own rule (`DaySeries.isEarlier`), not by an ORDER BY that would restate it. Never another road's: the
    /// history names what really replaced a value on its own road (R12).
    private func fillReplacements() throws(StoreError) {
        for (revisionID, layerID, writerID, day) in pendingReplacements {
            let select = try db.statement("""
                SELECT s.as_of AS delivered, \(SampleRow.qualifiedColumns), w.store AS store, w.name AS writer_name
                FROM sample s JOIN writer w ON w.id = s.writer_id
                WHERE s.layer_id = ? AND s.writer_id = ? AND s.day = ? AND s.in_range = 1
                """)
            select.bind(.integer(layerID), .integer(writerID), .integer(day))
            let columns = try SampleRow.Columns(select)
            let storeColumn = try select.column("store"), name = try select.column("writer_name"),
                delivered = try select.column("delivered")
            var latest: RestingSample?
            while try select.step() {
                let row = SampleRow(select, columns)
                guard let store = HealthStore(rawValue: select.text(storeColumn)),
                      row.isValid(deliveredAt: select.double(delivered)) else { continue }
                // The rule reads times and identity only: the writer's name is all it needs of the writer.
                let sample = row.sample(store: store, writer: Writer(store: store, name: select.text(name)))
                if latest.map({ DaySeries.isEarlier($0, sample) }) ?? true { latest = sample }
            }
            guard let bpm = latest?.bpm else { continue }
            try db.statement("UPDATE revision SET replaced_by_bpm = ? WHERE id = ?").bind(.real(bpm), .integer(revisionID)).run()
        }
    }

    // MARK: - Heart rate (R8, R9)

    private mutating func upsertHeartRate(layer: LayerRow) throws(StoreError) {
        var incoming: [HeartRateKey: HeartRateDaySummary] = [:]
        for summary in batch.heartRate {
            let writer = try writerID(summary.writer, isWatch: batch.watchWriters.contains(summary.writer.name))
            let key = HeartRateKey(writer: writer, day: Int64(summary.day.daysSinceEpoch), record: summary.recordKey)
            incoming[key, default: HeartRateDaySummary(writer: summary.writer, day: summary.day, recordKey: summary.recordKey)]
                .merge(summary)
        }
        // A full resync replaces what the road said before; a snapshot of the same instant adds to it (`SnapshotTie`).
        if batch.fullResync {
            let select = try db.statement("SELECT writer_id, day, record_key FROM heart_rate WHERE layer_id = ?")
            select.bind(.integer(layer.id))
            var stale: [HeartRateKey] = []
            let writer = try select.column("writer_id"), day = try select.column("day"), record = try select.column("record_key")
            while try select.step() {
                let key = HeartRateKey(writer: select.int(writer), day: select.int(day), record: select.text(record))
                if incoming[key] == nil { stale.append(key) }
            }
            try removeHeartRate(stale, layer: layer)
        } else if batch.dayFeed == .replacesDays {
            // A Health Auto Export request: the heart rate of each writer's day it carries replaces the road's.
            let select = try db.statement("SELECT record_key FROM heart_rate WHERE layer_id = ? AND writer_id = ? AND day = ?")
            let record = try select.column("record_key")
            var stale: [HeartRateKey] = []
            let writerDays = Set(incoming.keys.map { StoreSnapshot.WriterDay(writer: $0.writer, day: $0.day) })
            for carried in writerDays.sorted(by: { ($0.day, $0.writer) < ($1.day, $1.writer) }) {
                select.reset()
                select.bind(.integer(layer.id), .integer(carried.writer), .integer(carried.day))
                while try select.step() {
                    let key = HeartRateKey(writer: carried.writer, day: carried.day, record: select.text(record))
                    if incoming[key] == nil { stale.append(key) }
                }
            }
            try removeHeartRate(stale, layer: layer)
        }
        for key in incoming.keys.sorted(by: { ($0.day, $0.writer, $0.record) < ($1.day, $1.writer, $1.record) }) {
            let summary = incoming[key]!
            // A record deleted after this road read it stays deleted (R4).
            if facts.storeHasTombstones, !key.record.isEmpty, let deletion = try tombstone(key.record), deletion.at > asOf { continue }
            // A newer snapshot of the stream covering the day speaks for it: this one's summary is not kept.
            if facts.newerSnapshots.values.contains(where: { $0.covers(day: key.day) }) { continue }
            if layer.existed || !layer.snapshot, let previous = try heartRateUnchanged(key, summary, layer: layer) {
                if layer.byDay { noteMovedWord(.heartRate, writer: key.writer, day: key.day, from: previous) }
                continue
            }
            if layer.existed && layer.snapshot,
               let stored = try database.storedHeartRate(layer: layer.id, writer: key.writer, day: key.day, record: key.record),
               SnapshotTie.keeps(storedTotal: stored.total, storedHistogram: stored.histogram, over: summary) {
                continue
            }
            try db.statement("""
                INSERT OR REPLACE INTO heart_rate(layer_id, writer_id, day, record_key, as_of, not_set, sedentary,
                                                  active, sedentary_min, sedentary_histogram)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
                .bind(.integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record), .real(asOf),
                      .integer(Int64(summary.notSet)), .integer(Int64(summary.sedentary)),
                      .integer(Int64(summary.active)), .double(summary.sedentaryMin), .text(summary.histogramText)).run()
            outcome.heartRateSummaries += 1
            outcome.changedDays.insert(summary.day)
        }
    }

    private mutating func removeHeartRate(_ keys: [HeartRateKey], layer: LayerRow) throws(StoreError) {
        for key in keys {
            try db.statement("DELETE FROM heart_rate WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
                .bind(.integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(key.day)))
        }
    }

    /// When the road holds this summary already, as it is: when it last delivered it (which then moves to now);
    /// nil when it does not.
    private func heartRateUnchanged(_ key: HeartRateKey, _ summary: HeartRateDaySummary,
                                    layer: LayerRow) throws(StoreError) -> Double? {
        let select = try db.statement("""
            SELECT not_set, sedentary, active, sedentary_min, sedentary_histogram, as_of FROM heart_rate
            WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?
            """)
        select.bind(.integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record))
        guard try select.step(), select.int(try select.column("not_set")) == Int64(summary.notSet),
              select.int(try select.column("sedentary")) == Int64(summary.sedentary),
              select.int(try select.column("active")) == Int64(summary.active),
              select.optionalDouble(try select.column("sedentary_min")) == summary.sedentaryMin,
              select.text(try select.column("sedentary_histogram")) == summary.histogramText else { return nil }
        let previous = select.double(try select.column("as_of"))
        if previous != asOf {
            try db.statement("UPDATE heart_rate SET as_of = ? WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
                .bind(.real(asOf), .integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
        }
        return previous
    }

    private struct HeartRateKey: Hashable {
        var writer: Int64
        var day: Int64
        var record: String
    }
}
