import RHRCore

extension BatchApplication {
    mutating func upsertHeartRate(layer: LayerRow) throws(StoreError) {
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
            // A record deleted after this road read it stays deleted (R4); a newer snapshot of the stream covering the
            // day speaks for it. Either way this road's summary is kept aside, under the delivery that speaks instead.
            if facts.storeHasTombstones, !key.record.isEmpty, let deletion = try tombstone(key.record), deletion.at > asOf {
                try setAsideHeartRate(key, summary, by: try deletingDelivery(key.record))
                continue
            }
            if let newer = facts.newerSnapshots.values.filter({ $0.covers(day: key.day) }).map(\.id).min() {
                try setAsideHeartRate(key, summary, by: try database.deliveryOf(layer: newer) ?? 0)
                continue
            }
            if layer.existed || !layer.snapshot, let previous = try heartRateUnchanged(key, summary, layer: layer) {
                if layer.byDay { noteMovedWord(.heartRate, writer: key.writer, day: key.day, from: previous) }
                continue
            }
            let madeAt = layer.snapshot ? batch.file?.madeAt?.epochSeconds : nil
            if layer.existed && layer.snapshot,
               let stored = try database.storedHeartRate(layer: layer.id, writer: key.writer, day: key.day, record: key.record),
               SnapshotTie.keeps(stored: stored, over: summary, madeAt: madeAt) {
                continue
            }
            try db.statement("""
                INSERT OR REPLACE INTO heart_rate(layer_id, writer_id, day, record_key, as_of, not_set, sedentary,
                                                  active, sedentary_min, sedentary_histogram, made_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
                .bind(.integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record), .real(asOf),
                      .integer(Int64(summary.notSet)), .integer(Int64(summary.sedentary)),
                      .integer(Int64(summary.active)), .double(summary.sedentaryMin), .text(summary.histogramText),
                      .double(madeAt)).run()
            outcome.heartRateSummaries += 1
            outcome.changedDays.insert(summary.day)
        }
    }

    mutating func removeHeartRate(_ keys: [HeartRateKey], layer: LayerRow) throws(StoreError) {
        for key in keys {
            try db.statement("DELETE FROM heart_rate WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
                .bind(.integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(key.day)))
        }
    }

    /// When the road holds this summary already, as it is: when it last delivered it (which then moves to now);
    /// nil when it does not.
    func heartRateUnchanged(_ key: HeartRateKey, _ summary: HeartRateDaySummary,
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
        // The same summary from a file of the same instant made later: the road's summary is now that file's (R12).
        if layer.snapshot, let madeAt = batch.file?.madeAt?.epochSeconds {
            try db.statement("""
                UPDATE heart_rate SET made_at = ? WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?
                  AND (made_at IS NULL OR made_at < ?1)
                """)
                .bind(.real(madeAt), .integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
        }
        if previous != asOf {
            try db.statement("UPDATE heart_rate SET as_of = ? WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
                .bind(.real(asOf), .integer(layer.id), .integer(key.writer), .integer(key.day), .text(key.record)).run()
        }
        return previous
    }

    struct HeartRateKey: Hashable {
        var writer: Int64
        var day: Int64
        var record: String
    }
}
