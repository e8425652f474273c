import Foundation
import RHRCore

/// R12, R14: two snapshots of one stream read at the same instant (Health Auto Export files, which carry no export
/// time, made on one day: their `asOf` is the end of their newest point) are one road, whose contents are what either
/// says: a file never takes from the road what the other brought, and the period the road covers is theirs together.
/// Where both hold a sample with different values (or a day's heart rate with different counts), the one kept is
/// chosen from the values themselves, never by which file came first, and the choice is no revision.
enum SnapshotTie {
    /// Whether the road's copy `own` stands over `incoming`, the same sample from another file of the same instant:
    /// the later end, then the later creation (or modification), then the higher value in bpm, then the greater
    /// row as text (a total order).
    static func keeps(_ own: SampleRow, over incoming: SampleRow) -> Bool {
        func key(_ row: SampleRow) -> (Double, Double, Double) {
            let bpm = row.bpm.map { $0.isNaN ? -Double.infinity : $0 } ?? -.infinity
            return (row.end, row.created ?? row.lastModified ?? -.infinity, bpm)
        }
        let a = key(own), b = key(incoming)
        if a != b { return a > b }
        return "\(own)" >= "\(incoming)"
    }

    /// Whether the road's stored summary of a writer's day stands over `incoming` from another file of the same
    /// instant: more samples, then the greater histogram as text.
    static func keeps(storedTotal: Int, storedHistogram: String, over incoming: HeartRateDaySummary) -> Bool {
        if storedTotal != incoming.total { return storedTotal > incoming.total }
        return storedHistogram >= incoming.histogramText
    }
}

extension HealthDatabase {
    /// The road's period grows to hold what another file of the same instant covers (`SnapshotTie`). A bound that is
    /// nil is unbounded, and SQLite's `min` and `max` of NULL are NULL: unbounded stays unbounded.
    func widenSnapshot(layer: Int64, _ snapshot: SyncBatch.Snapshot) throws(StoreError) {
        try db.statement("""
            UPDATE layer SET from_at = min(from_at, ?1), to_at = max(to_at, ?2), from_day = min(from_day, ?3),
                to_day = max(to_day, ?4), covers_resting = max(covers_resting, ?5), covers_heart_rate = max(covers_heart_rate, ?6)
            WHERE id = ?7
            """)
            .bind(.double(snapshot.from?.epochSeconds), .double(snapshot.to?.epochSeconds),
                  .int64(snapshot.from.map { Int64($0.localDay.daysSinceEpoch) }),
                  .int64(snapshot.to.map { Int64($0.localDay.daysSinceEpoch) }),
                  .bool(snapshot.coversResting), .bool(snapshot.coversHeartRate), .integer(layer))
            .run()
    }

    /// The total and histogram of a road's stored summary, nil when it holds none for the key.
    func storedHeartRate(layer: Int64, writer: Int64, day: Int64, record: String) throws(StoreError) -> (total: Int, histogram: String)? {
        let select = try db.statement("""
            SELECT not_set + sedentary + active AS total, sedentary_histogram FROM heart_rate
            WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?
            """)
        select.bind(.integer(layer), .integer(writer), .integer(day), .text(record))
        guard try select.step() else { return nil }
        return (Int(select.int(try select.column("total"))), select.text(try select.column("sedentary_histogram")))
    }
}
