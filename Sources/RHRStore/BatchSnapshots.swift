import RHRCore

extension BatchApplication {
    /// Within this snapshot's stream, what older snapshots said about its period no longer stands (it stays in
    /// the history). A snapshot older than one imported already was stored as not standing where that one covers it.
    mutating func coverOlderSnapshots(stream: StreamRow, layer: LayerRow, _ snapshot: SyncBatch.Snapshot) throws(StoreError) {
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
            let same = try SampleRow.sameValueIDs(pairs)
            // Kept aside under this delivery: forgetting it gives them back (`BatchDeliveries`).
            try setAside(copies: same)
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
            let covered = """
                (?3 IS NULL OR day >= ?3) AND (?4 IS NULL OR day <= ?4)
                AND layer_id IN (SELECT id FROM layer WHERE stream_id = ?1 AND snapshot = 1 AND as_of < ?2)
                """
            let values: [SQLValue] = [.integer(stream.id), .real(asOf), .int64(fromDay), .int64(toDay)]
            try setAsideHeartRate(where: covered, values)
            try db.statement("DELETE FROM heart_rate WHERE \(covered)").bind(values).run()
            for d in days { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(d))) }
        }
    }
}
