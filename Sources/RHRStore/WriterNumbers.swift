import RHRCore

/// A writer's number: the dashboard's key (1–9), glyph and colour for it, kept for the life of the store.
/// Numbers are given in the order writers first bring a resting value (several new in one batch: by store and
/// name, the order the dashboard lists writers in), never change and are never given again, so a new writer
/// cannot move another's meaning. Heart-rate-only writers get none: the dashboard draws resting writers.
extension StoreSchema {
    /// 4 → 5, a migration of its own.
    /// A store from before numbers gets them in the order the dashboard showed its writers then (store, name).
    static let writerNumbers = """
        ALTER TABLE writer ADD COLUMN ordinal INTEGER;
        UPDATE writer SET ordinal = (
            SELECT count(*) FROM writer w
            WHERE EXISTS (SELECT 1 FROM sample s WHERE s.writer_id = w.id)
              AND (w.store < writer.store OR (w.store = writer.store AND w.name <= writer.name)))
        WHERE EXISTS (SELECT 1 FROM sample s WHERE s.writer_id = writer.id);
        CREATE UNIQUE INDEX writer_by_number ON writer(ordinal);
        """
}

extension HealthDatabase {
    /// Gives the writers (of the resting samples of the batches applied) that have no number the next ones, inside the caller's
    /// transaction.
    func numberNewWriters(_ writers: Set<WriterKey>) throws(StoreError) {
        guard !writers.isEmpty else { return }
        let update = try db.statement("""
            UPDATE writer SET ordinal = (SELECT coalesce(max(ordinal), 0) + 1 FROM writer)
            WHERE store = ? AND name = ? AND ordinal IS NULL
            """)
        for key in writers.sorted() {
            update.reset()
            try update.bind(.text(key.store.rawValue), .text(key.name)).run()
        }
    }
}

extension StoreSnapshot {
    /// Every numbered writer's number.
    public func writerNumbers() throws(StoreError) -> [WriterKey: Int] {
        let select = try db.statement("SELECT store, name, ordinal FROM writer WHERE ordinal IS NOT NULL")
        let store = try select.column("store"), name = try select.column("name"), ordinal = try select.column("ordinal")
        var result: [WriterKey: Int] = [:]
        while try select.step() {
            guard let s = HealthStore(rawValue: select.text(store)) else { continue }
            result[WriterKey(store: s, name: select.text(name))] = Int(select.int(ordinal))
        }
        return result
    }
}
