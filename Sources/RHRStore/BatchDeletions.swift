import RHRCore

extension BatchApplication {
    struct Tombstone {
        var at: Double
        var offset: Int64
        var origin: String
    }

    func tombstone(_ key: String) throws(StoreError) -> Tombstone? {
        let select = try db.statement("SELECT at, at_offset, origin FROM tombstone WHERE store = ? AND key = ?")
        select.bind(.text(batch.store.rawValue), .text(key))
        guard try select.step() else { return nil }
        return Tombstone(at: select.double(try select.column("at")), offset: select.int(try select.column("at_offset")),
                         origin: select.text(try select.column("origin")))
    }

    /// A deletion from the platform is authoritative across roads, ordered by time: it takes this road's copy
    /// (recorded in this road's history), and every other road's copy delivered before it.
    mutating func delete(id: String, layer: LayerRow) throws(StoreError) {
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
            // Other roads' summaries are kept aside under this delivery (`BatchDeliveries`).
            try setAsideHeartRate(where: ofThisStore + " AND layer_id <> ?2",
                                  [.text(key), .integer(layer.id), .real(asOf), .text(batch.store.rawValue)])
            try db.statement("DELETE FROM heart_rate WHERE \(ofThisStore)")
                .bind(.text(key), .integer(layer.id), .real(asOf), .text(batch.store.rawValue)).run()
            for d in hrDays { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d))) }
        }
    }

    /// Remembers a deletion (the latest, when a key is deleted twice) and takes the copies delivered before it; and
    /// which delivery saw it (`delivery`, nil: this batch's), so that forgetting that one forgets the deletion.
    mutating func recordTombstone(_ key: String, at: Double, offset: Int64, origin: String,
                                  delivery seenBy: Int64? = nil) throws(StoreError) {
        try db.statement("""
            INSERT INTO tombstone_seen(store, key, delivery_id, at, at_offset, origin) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(store, key, delivery_id) DO UPDATE SET at = excluded.at, at_offset = excluded.at_offset,
                origin = excluded.origin
            WHERE excluded.at > tombstone_seen.at
            """)
            .bind(.text(batch.store.rawValue), .text(key), .integer(seenBy ?? delivery), .real(at), .integer(offset),
                  .text(origin)).run()
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
    mutating func stopStanding(_ select: SQLiteStatement) throws(StoreError) {
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
    mutating func countDeletions() throws(StoreError) {
        for identity in maybeGone where touched[identity] == true {
            let select = try db.statement("SELECT 1 FROM sample WHERE store = ? AND identity = ? AND current = 1 LIMIT 1")
            select.bind(.text(batch.store.rawValue), .text(identity))
            if try !select.step() { outcome.deleted += 1 }
        }
    }
}
