import RHRCore

extension BatchApplication {
    /// Records one of this road's own replacements or deletions, in its own order. `oldAsOf`: when the road last
    /// read the old value (R3 says "draft" by it when reading). `pending`: the road whose latest value of the
    /// writer's day, after the batch, replaced it.
    mutating func recordRevision(of row: SampleRow, reason: RevisionReason, replacedBy: Double?,
                                 oldAsOf: Timestamp?, pending: Int64?) throws(StoreError) {
        try db.statement("""
            INSERT INTO revision(writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm,
                                 at, at_offset, origin, store_revision, old_as_of, delivery_id)
            VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, (SELECT CAST(value AS INTEGER) + 1 FROM meta WHERE key = 'revision'), ?, ?)
            """)
            .bind(.integer(row.writerID), .integer(row.day), .text(row.identity), .double(row.value), .text(row.unit),
                  .text(reason.rawValue), .double(replacedBy), .real(asOf), .integer(Int64(batch.asOf.offsetSeconds)),
                  .text(origin), .double(oldAsOf?.epochSeconds), .integer(delivery))
            .run()
        if let pending { pendingReplacements.append((db.lastInsertRowID, pending, row.writerID, row.day)) }
    }

    /// "draft 61 → 59": after the batch, the road's own latest valid value of the same writer and day, chosen by
    /// R7's own rule (`DaySeries.isEarlier`), not by an ORDER BY that would restate it. Never another road's: the
    /// history names what really replaced a value on its own road (R12).
    func fillReplacements() throws(StoreError) {
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
}
