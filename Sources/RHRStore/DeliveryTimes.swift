import RHRCore

/// What the store keeps of when deliveries were made and read: the schema's step for it, and R13's memory of a
/// snapshot that claimed a time after the machine's clock.
extension StoreSchema {
    /// 8 → 9, a migration of its own. R12, *snapshots of one instant*: when the file that brought each snapshot copy
    /// (and heart-rate summary) was made, and its name; and every other file's version of a copy that a file of the
    /// same instant made later stands over (`tied_copy`), for the history. R13: the time a snapshot claimed when it
    /// could not be right (`layer.claimed_as_of`; its `as_of` is when it was first read), so the same export again is
    /// the same road.
    static let deliveryTimes = """
        ALTER TABLE layer ADD COLUMN claimed_as_of REAL;
        ALTER TABLE sample ADD COLUMN made_at REAL;
        ALTER TABLE sample ADD COLUMN made_in TEXT;
        ALTER TABLE heart_rate ADD COLUMN made_at REAL;
        CREATE TABLE tied_copy(
            id INTEGER PRIMARY KEY,
            layer_id INTEGER NOT NULL REFERENCES layer(id),
            store TEXT NOT NULL,
            identity TEXT NOT NULL,
            uuid TEXT,
            writer_id INTEGER NOT NULL REFERENCES writer(id),
            \(sampleFields)
            made_at REAL,
            made_in TEXT
        );
        CREATE INDEX tied_copy_by_identity ON tied_copy(layer_id, identity);
        CREATE INDEX tied_copy_by_day ON tied_copy(day, writer_id);
        """
}

extension HealthDatabase {
    /// R13: when the snapshot `batch` is was first read, if it claimed a time that could not be right and came before:
    /// the same export imported again is the road it was (a batch applied twice changes nothing). Nil for any other.
    func firstReceipt(of batch: SyncBatch) throws(StoreError) -> Timestamp? {
        guard batch.snapshot != nil else { return nil }
        let select = try db.statement("""
            SELECT l.as_of, l.as_of_offset FROM layer l JOIN stream s ON s.id = l.stream_id
            WHERE s.store = ? AND s.name = ? AND l.snapshot = 1 AND l.claimed_as_of = ? LIMIT 1
            """)
        select.bind(.text(batch.store.rawValue), .text(batch.stream), .real(batch.asOf.epochSeconds))
        guard try select.step() else { return nil }
        return Timestamp(epochSeconds: select.double(try select.column("as_of")),
                         offsetSeconds: Int(select.int(try select.column("as_of_offset"))))
    }
}
