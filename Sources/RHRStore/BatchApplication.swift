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
                outcomes.append(try application.run())
            }
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

/// One batch being applied, inside the caller's transaction.
struct BatchApplication {
    let database: HealthDatabase
    let batch: SyncBatch
    var db: SQLiteConnection { database.db }
    var outcome = BatchOutcome()
    private var writerIDs: [WriterKey: Int64] = [:]
    /// The details each writer was last stored with in this batch: a later sample may name more of them.
    private var writerDetails: [WriterKey: WriterDetails] = [:]
    private var watchWriterIDs: Set<Int64> = []
    /// Revisions written by this batch whose replacement is looked up at the end: (revision row, writer, day).
    private var pendingReplacements: [(Int64, Int64, Int64)] = []

    init(database: HealthDatabase, batch: SyncBatch) {
        self.database = database
        self.batch = batch
    }

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
        var mayRemove = true
        if batch.snapshot != nil, let known = stream.asOf, batch.asOf.epochSeconds < known.epochSeconds {
            guard batch.snapshot?.allowOlder == true else {
                throw StoreError(.olderSnapshot, "\(batch.origin.isEmpty ? "this export" : batch.origin) "
                    + "(read \(batch.asOf.iso8601)) is older than the newest \(batch.stream) already imported "
                    + "(read \(known.iso8601)); importing it would bring back values the newer one removed. "
                    + "Nothing was changed; force it to import it anyway (it then adds, never removes)")
            }
            mayRemove = false
        }

        try markWatchWriters()
        var delivered = Set<String>()
        for sample in batch.resting {
            delivered.insert(sample.identity.key)
            try upsert(sample, stream: stream)
        }
        for id in batch.deleted { try delete(id: id, stream: stream) }
        if mayRemove && (batch.snapshot != nil || batch.fullResync) {
            try removeUndelivered(stream: stream, delivered: delivered)
        }
        try upsertHeartRate(stream: stream, mayRemove: mayRemove)
        try fillReplacements()

        // R3: a newer asOf can end the provisional state of earlier days.
        let advanced = stream.asOf.map { batch.asOf.epochSeconds > $0.epochSeconds } ?? true
        if advanced, let oldDay = stream.asOf?.localDay, batch.asOf.localDay > oldDay {
            let firstOld = ProvisionalRule.firstProvisionalDay(readOn: oldDay)
            if try streamHasWatchSamples(stream.id, since: firstOld) {
                for d in firstOld...min(batch.asOf.localDay, oldDay.adding(days: 60)) { outcome.changedDays.insert(d) }
            }
        }
        var revision = try database.currentRevision()
        if outcome.changedSomething {
            revision += 1
            try db.statement("UPDATE meta SET value = ? WHERE key = 'revision'").bind(.text(String(revision))).run()
        }
        outcome.revision = revision
        try updateStream(stream, advanced: advanced, revisionChanged: outcome.changedSomething, revision: revision)
        return outcome
    }

    // MARK: - Streams and writers

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

    /// The stored cursor, or one the stream moved to earlier since its last full resync.
    private func wasApplied(_ cursor: String, stream: StreamRow) throws(StoreError) -> Bool {
        if cursor == stream.cursor { return true }
        if batch.fullResync { return false }
        let select = try db.statement("SELECT 1 FROM stream_cursor WHERE stream_id = ? AND cursor = ?")
        select.bind(.integer(stream.id), .text(cursor))
        return try select.step()
    }

    private func updateStream(_ stream: StreamRow, advanced: Bool, revisionChanged: Bool, revision: Int64) throws(StoreError) {
        let asOf = advanced ? batch.asOf : (stream.asOf ?? batch.asOf)
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
            UPDATE stream SET cursor = ?, as_of = ?, as_of_offset = ?, as_of_day = ?,
                origin = CASE WHEN ? <> '' THEN ? ELSE origin END,
                permissions = coalesce(?, permissions),
                revision = CASE WHEN ? THEN ? ELSE revision END
            WHERE id = ?
            """)
            .bind(.string(cursor), .real(asOf.epochSeconds), .integer(Int64(asOf.offsetSeconds)),
                  .integer(Int64(asOf.localDay.daysSinceEpoch)), .text(batch.origin), .text(batch.origin),
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
        try db.statement("""
            INSERT INTO writer(store, name, app_name, bundle_identifier, product_type, is_watch)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(store, name) DO UPDATE SET
                app_name = coalesce(excluded.app_name, app_name),
                bundle_identifier = coalesce(excluded.bundle_identifier, bundle_identifier),
                product_type = coalesce(excluded.product_type, product_type),
                is_watch = max(is_watch, excluded.is_watch)
            """)
            .bind(.text(writer.store.rawValue), .text(writer.name), .string(writer.appName),
                  .string(writer.bundleIdentifier), .string(writer.productType), .bool(isWatch)).run()
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

        init(_ writer: Writer) {
            appName = writer.appName
            bundleIdentifier = writer.bundleIdentifier
            productType = writer.productType
        }

        /// True when every detail given is already known.
        func adds(nothingTo known: WriterDetails?) -> Bool {
            guard let known else { return false }
            return (appName == nil || appName == known.appName)
                && (bundleIdentifier == nil || bundleIdentifier == known.bundleIdentifier)
                && (productType == nil || productType == known.productType)
        }

        func merged(over known: WriterDetails?) -> WriterDetails {
            var result = self
            result.appName = appName ?? known?.appName
            result.bundleIdentifier = bundleIdentifier ?? known?.bundleIdentifier
            result.productType = productType ?? known?.productType
            return result
        }
    }

    private mutating func setWatch(_ id: Int64) throws(StoreError) {
        try db.statement("UPDATE writer SET is_watch = 1 WHERE id = ?").bind(.integer(id)).run()
        watchWriterIDs.insert(id)
    }

    /// R3 for export files: the reader names the sources that count as an Apple Watch.
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

    private mutating func upsert(_ sample: RestingSample, stream: StreamRow) throws(StoreError) {
        let writer = try writerID(sample.writer, isWatch: isWatch(sample))
        let row = SampleRow(sample, writerID: writer, machineZone: database.machineZone)
        if !row.inRange { outcome.outOfRange += 1 }
        let select = try db.statement(SampleRow.selectByIdentity)
        select.bind(.text(batch.store.rawValue), .text(row.identity))
        if try select.step() {
            let id = select.int(try select.column("id"))
            let old = SampleRow(select, try SampleRow.Columns(select))
            try link(id, stream.id)
            if old == row {
                outcome.unchanged += 1
                if select.int(try select.column("stream_id")) != stream.id {
                    try db.statement("UPDATE sample SET stream_id = ? WHERE id = ?").bind(.integer(stream.id), .integer(id)).run()
                }
                return
            }
            try recordRevision(of: old, reason: .replaced, replacedBy: row.inRange ? row.bpm : nil, stream: stream, pending: false)
            try db.statement(SampleRow.update)
                .bind([.integer(stream.id)] + row.bindings + [.integer(id)]).run()
            outcome.replaced += 1
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(old.day)))
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
            return
        }
        try db.statement(SampleRow.insert)
            .bind([.text(batch.store.rawValue), .integer(stream.id)] + row.bindings).run()
        try link(db.lastInsertRowID, stream.id)
        outcome.added += 1
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
    }

    private func link(_ sampleID: Int64, _ streamID: Int64) throws(StoreError) {
        try db.statement("INSERT OR IGNORE INTO sample_stream(sample_id, stream_id) VALUES (?, ?)")
            .bind(.integer(sampleID), .integer(streamID)).run()
    }

    /// R4: a deletion from the platform is authoritative, whichever road delivered the sample.
    private mutating func delete(id: String, stream: StreamRow) throws(StoreError) {
        let key = batch.store == .healthConnect ? SampleIdentity.normalisedRecordId(id) : id
        // Two lookups, one per index: with `uuid = ? OR identity = ?` SQLite used only the store prefix of
        // the identity index and read every sample of the store for each deleted id.
        let select = try db.statement("""
            SELECT id, \(SampleRow.columns) FROM sample WHERE id IN (
                SELECT id FROM sample WHERE store = ?1 AND uuid = ?2
                UNION SELECT id FROM sample WHERE store = ?1 AND identity = ?2)
            """)
        select.bind(.text(batch.store.rawValue), .text(key))
        var doomed: [(Int64, SampleRow)] = []
        let id = try select.column("id"), columns = try SampleRow.Columns(select)
        while try select.step() { doomed.append((select.int(id), SampleRow(select, columns))) }
        for (rowID, row) in doomed {
            try recordRevision(of: row, reason: .deleted, replacedBy: nil, stream: stream, pending: true)
            try removeSample(rowID, day: row.day)
        }
        // A deleted heart-rate sample or record leaves its summary too; only its own store's (R1).
        // `record_key <> ''` lets SQLite use the partial index `heart_rate_by_record`; without it every
        // deleted id scanned the whole table.
        let ofThisStore = "record_key = ? AND record_key <> '' AND writer_id IN (SELECT id FROM writer WHERE store = ?)"
        let days = try db.statement("SELECT DISTINCT day FROM heart_rate WHERE \(ofThisStore)")
        days.bind(.text(key), .text(batch.store.rawValue))
        var hrDays: [Int64] = []
        let day = try days.column("day")
        while try days.step() { hrDays.append(days.int(day)) }
        if !hrDays.isEmpty {
            try db.statement("DELETE FROM heart_rate WHERE \(ofThisStore)").bind(.text(key), .text(batch.store.rawValue)).run()
            for d in hrDays { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d))) }
        }
    }

    private mutating func removeSample(_ rowID: Int64, day: Int64) throws(StoreError) {
        try db.statement("DELETE FROM sample_stream WHERE sample_id = ?").bind(.integer(rowID)).run()
        try db.statement("DELETE FROM sample WHERE id = ?").bind(.integer(rowID)).run()
        outcome.deleted += 1
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(day)))
    }

    /// R4 for snapshots and full resyncs: what this stream said before, in the period covered, and no longer
    /// says, leaves the trend. A sample another road also delivered stays: that road speaks for it.
    private mutating func removeUndelivered(stream: StreamRow, delivered: Set<String>) throws(StoreError) {
        let from = batch.fullResync ? nil : batch.snapshot?.from?.epochSeconds
        let to = batch.fullResync ? nil : batch.snapshot?.to?.epochSeconds
        let select = try db.statement("""
            SELECT s.id, \(SampleRow.qualifiedColumns),
                   (SELECT min(o.stream_id) FROM sample_stream o WHERE o.sample_id = s.id AND o.stream_id <> ?) AS other_stream
            FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id
            WHERE ss.stream_id = ? AND (? IS NULL OR s.start >= ?) AND (? IS NULL OR s.start <= ?)
            """)
        select.bind(.integer(stream.id), .integer(stream.id), .double(from), .double(from), .double(to), .double(to))
        var gone: [(Int64, SampleRow, Int64?)] = []
        let id = try select.column("id"), otherStream = try select.column("other_stream")
        let columns = try SampleRow.Columns(select)
        while try select.step() {
            let row = SampleRow(select, columns)
            if !delivered.contains(row.identity) {
                gone.append((select.int(id), row, select.optionalInt(otherStream)))
            }
        }
        let reason: RevisionReason = batch.fullResync ? .fullResync : .notInNewerExport
        for (rowID, row, otherStream) in gone {
            if let otherStream {
                try db.statement("DELETE FROM sample_stream WHERE sample_id = ? AND stream_id = ?")
                    .bind(.integer(rowID), .integer(stream.id)).run()
                try db.statement("UPDATE sample SET stream_id = ? WHERE id = ?").bind(.integer(otherStream), .integer(rowID)).run()
                continue
            }
            try recordRevision(of: row, reason: reason, replacedBy: nil, stream: stream, pending: true)
            try removeSample(rowID, day: row.day)
        }
    }

    // MARK: - Revision history

    private mutating func recordRevision(of row: SampleRow, reason: RevisionReason, replacedBy: Double?,
                                         stream: StreamRow, pending: Bool) throws(StoreError) {
        let provisional = try wasProvisional(row)
        try db.statement("""
            INSERT INTO revision(writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm,
                                 at, at_offset, origin, store_revision)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT CAST(value AS INTEGER) + 1 FROM meta WHERE key = 'revision'))
            """)
            .bind(.integer(row.writerID), .integer(row.day), .text(row.identity), .double(row.value), .text(row.unit),
                  .bool(provisional), .text(reason.rawValue), .double(replacedBy), .real(batch.asOf.epochSeconds),
                  .integer(Int64(batch.asOf.offsetSeconds)), .text(batch.origin.isEmpty ? batch.stream : batch.origin))
            .run()
        if pending { pendingReplacements.append((db.lastInsertRowID, row.writerID, row.day)) }
    }

    /// Whether the old value was provisional when its streams last read it (R3).
    private func wasProvisional(_ row: SampleRow) throws(StoreError) -> Bool {
        guard batch.store == .healthKit else { return false }
        let select = try db.statement("""
            SELECT w.is_watch AS is_watch,
                   (SELECT max(st.as_of_day) FROM sample_stream ss JOIN stream st ON st.id = ss.stream_id
                    JOIN sample s ON s.id = ss.sample_id
                    WHERE s.store = ? AND s.identity = ?) AS as_of_day
            FROM writer w WHERE w.id = ?
            """)
        select.bind(.text(batch.store.rawValue), .text(row.identity), .integer(row.writerID))
        guard try select.step(), select.int(try select.column("is_watch")) != 0 else { return false }
        guard let asOfDay = select.optionalInt(try select.column("as_of_day")) else { return true }
        return row.day >= Int64(ProvisionalRule.firstProvisionalDay(readOn: LocalDay(daysSinceEpoch: Int(asOfDay))).daysSinceEpoch)
    }

    /// "draft 62, replaced by 59": after the batch, the writer's latest valid value of the same day, chosen by
    /// R7's own rule (`DaySeries.isEarlier`), not by an ORDER BY that would restate it.
    private func fillReplacements() throws(StoreError) {
        for (revisionID, writerID, day) in pendingReplacements {
            let select = try db.statement("""
                SELECT \(SampleRow.qualifiedColumns), w.store AS store, w.name AS writer_name
                FROM sample s JOIN writer w ON w.id = s.writer_id
                WHERE s.writer_id = ? AND s.day = ? AND s.in_range = 1
                """)
            select.bind(.integer(writerID), .integer(day))
            let columns = try SampleRow.Columns(select)
            let storeColumn = try select.column("store"), name = try select.column("writer_name")
            var latest: RestingSample?
            while try select.step() {
                guard let store = HealthStore(rawValue: select.text(storeColumn)) else { continue }
                // The rule reads times and identity only: the writer's name is all it needs of the writer.
                let sample = SampleRow(select, columns).sample(store: store, writer: Writer(store: store, name: select.text(name)))
                if latest.map({ DaySeries.isEarlier($0, sample) }) ?? true { latest = sample }
            }
            guard let bpm = latest?.bpm else { continue }
            try db.statement("UPDATE revision SET replaced_by_bpm = ? WHERE id = ?").bind(.real(bpm), .integer(revisionID)).run()
        }
    }

    private func streamHasWatchSamples(_ streamID: Int64, since day: LocalDay) throws(StoreError) -> Bool {
        let select = try db.statement("""
            SELECT 1 FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id JOIN writer w ON w.id = s.writer_id
            WHERE ss.stream_id = ? AND w.is_watch = 1 AND s.day >= ? LIMIT 1
            """)
        select.bind(.integer(streamID), .integer(Int64(day.daysSinceEpoch)))
        return try select.step()
    }

    // MARK: - Heart rate (R8, R9)

    private mutating func upsertHeartRate(stream: StreamRow, mayRemove: Bool) throws(StoreError) {
        var incoming: [HeartRateKey: HeartRateDaySummary] = [:]
        for summary in batch.heartRate {
            let writer = try writerID(summary.writer, isWatch: batch.watchWriters.contains(summary.writer.name))
            let key = HeartRateKey(writer: writer, day: Int64(summary.day.daysSinceEpoch), record: summary.recordKey)
            incoming[key, default: HeartRateDaySummary(writer: summary.writer, day: summary.day, recordKey: summary.recordKey)]
                .merge(summary)
        }
        // A snapshot's whole-day summaries replace the stream's earlier ones in its period.
        if mayRemove && (batch.snapshot?.coversHeartRate == true || batch.fullResync) {
            let fromDay = batch.fullResync ? nil : batch.snapshot?.from.map { Int64($0.localDay.daysSinceEpoch) - 1 }
            let toDay = batch.fullResync ? nil : batch.snapshot?.to.map { Int64($0.localDay.daysSinceEpoch) + 1 }
            let select = try db.statement("""
                SELECT writer_id, day, record_key FROM heart_rate
                WHERE stream_id = ? AND (? IS NULL OR day >= ?) AND (? IS NULL OR day <= ?)
                """)
            select.bind(.integer(stream.id), .int64(fromDay), .int64(fromDay), .int64(toDay), .int64(toDay))
            var stale: [HeartRateKey] = []
            let writer = try select.column("writer_id"), day = try select.column("day"), record = try select.column("record_key")
            while try select.step() {
                let key = HeartRateKey(writer: select.int(writer), day: select.int(day), record: select.text(record))
                if incoming[key] == nil { stale.append(key) }
            }
            for key in stale {
                try db.statement("DELETE FROM heart_rate WHERE stream_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
                    .bind(.integer(stream.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
                outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(key.day)))
            }
        }
        for (key, summary) in incoming {
            let select = try db.statement("""
                SELECT not_set, sedentary, active, sedentary_min, sedentary_histogram FROM heart_rate
                WHERE stream_id = ? AND writer_id = ? AND day = ? AND record_key = ?
                """)
            select.bind(.integer(stream.id), .integer(key.writer), .integer(key.day), .text(key.record))
            let histogram = summary.histogramText
            if try select.step(), select.int(try select.column("not_set")) == Int64(summary.notSet),
               select.int(try select.column("sedentary")) == Int64(summary.sedentary),
               select.int(try select.column("active")) == Int64(summary.active),
               select.optionalDouble(try select.column("sedentary_min")) == summary.sedentaryMin,
               select.text(try select.column("sedentary_histogram")) == histogram {
                continue
            }
            try db.statement("""
                INSERT OR REPLACE INTO heart_rate(stream_id, writer_id, day, record_key, not_set, sedentary, active,
                                                  sedentary_min, sedentary_histogram)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
                .bind(.integer(stream.id), .integer(key.writer), .integer(key.day), .text(key.record),
                      .integer(Int64(summary.notSet)), .integer(Int64(summary.sedentary)), .integer(Int64(summary.active)),
                      .double(summary.sedentaryMin), .text(histogram)).run()
            outcome.heartRateSummaries += 1
            outcome.changedDays.insert(summary.day)
        }
    }

    private struct HeartRateKey: Hashable {
        var writer: Int64
        var day: Int64
        var record: String
    }
}
