import Foundation
import RHRCore

/// R12, R14: two snapshots of one stream read at the same instant (Health Auto Export files, which carry no export
/// time, made on one day: their `asOf` is the end of their newest point) are one road, whose contents are what either
/// says: a file never takes from the road what the other brought, and the period the road covers is theirs together.
/// Where both hold a sample with different values (or a day's heart rate with different counts), the file made later
/// decides (`DeliveredFile.madeAt`: its zip member's time, else its modification time), then the values themselves,
/// never which file came first. The value that lost is kept (`tied_copy`) and the history names both files.
enum SnapshotTie {
    /// One file's version of a sample: the row and when its file was made (nil: not known, made before any known).
    struct Version {
        var row: SampleRow
        var madeAt: Double?
        var madeIn: String?
    }

    /// Whether the road's version `own` stands over `incoming`, the same sample from another file of the same
    /// instant: the file made later, then the later end, then the later creation (or modification), then the higher
    /// value in bpm, then the greater row as text (a total order).
    static func keeps(_ own: Version, over incoming: Version) -> Bool {
        let a = own.madeAt ?? -.infinity, b = incoming.madeAt ?? -.infinity
        if a != b { return a > b }
        return keeps(own.row, over: incoming.row)
    }

    private static func keeps(_ own: SampleRow, over incoming: SampleRow) -> Bool {
        func key(_ row: SampleRow) -> (Double, Double, Double) {
            let bpm = row.bpm.map { $0.isNaN ? -Double.infinity : $0 } ?? -.infinity
            return (row.end, row.created ?? row.lastModified ?? -.infinity, bpm)
        }
        let a = key(own), b = key(incoming)
        if a != b { return a > b }
        return "\(own)" >= "\(incoming)"
    }

    /// Whether the road's stored summary of a writer's day stands over `incoming` from another file of the same
    /// instant: the file made later, then more samples, then the greater histogram as text.
    static func keeps(stored: StoredHeartRate, over incoming: HeartRateDaySummary, madeAt: Double?) -> Bool {
        let a = stored.madeAt ?? -.infinity, b = madeAt ?? -.infinity
        if a != b { return a > b }
        if stored.total != incoming.total { return stored.total > incoming.total }
        return stored.histogram >= incoming.histogramText
    }

    struct StoredHeartRate {
        var total: Int
        var histogram: String
        var madeAt: Double?
    }

    /// "HealthAutoExport-B.json, made after HealthAutoExport-A.json": where the history says a value of one file of an
    /// instant went, for the one made later.
    static func origin(winner: Version, loser: Version) -> String {
        let made = (winner.madeAt ?? -.infinity) > (loser.madeAt ?? -.infinity) ? "made after" : "made with"
        return "\(winner.madeIn ?? "a file"), \(made) \(loser.madeIn ?? "a file")"
    }
}

extension BatchApplication {
    /// This batch's file's version of a row.
    func version(_ row: SampleRow) -> SnapshotTie.Version {
        SnapshotTie.Version(row: row, madeAt: batch.file?.madeAt?.epochSeconds, madeIn: batch.file?.name)
    }

    /// Another file of the same instant brought `incoming` where the road holds `own`: the file made later decides
    /// (`SnapshotTie`), the other version is kept for the history, and the sample is counted.
    mutating func settleTie(own: StoredCopy, incoming: SnapshotTie.Version, layer: LayerRow,
                            standing: Standing) throws(StoreError) {
        let stored = own.version
        let sameValue = own.row.sameValue(as: incoming.row)
        if SnapshotTie.keeps(stored, over: incoming) {
            if try keepTied(incoming, layer: layer) && !sameValue {
                outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(incoming.row.day)))
            }
            if standing != .stands { count(standing, unchanged: false, incoming.row) }
            else if sameValue { outcome.unchanged += 1 } else { outcome.overruledByLaterFile += 1 }
            return
        }
        _ = try keepTied(stored, layer: layer)
        try db.statement(SampleRow.update)
            .bind([.real(asOf), .bool(standing == .stands), .double(incoming.madeAt), .string(incoming.madeIn)]
                  + incoming.row.bindings + [.integer(own.id)]).run()
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(own.row.day)))
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(incoming.row.day)))
        count(standing, unchanged: sameValue, incoming.row)
    }

    /// Keeps a version another file's stands over, unless it is kept already (the same file again); true when new.
    func keepTied(_ version: SnapshotTie.Version, layer: LayerRow) throws(StoreError) -> Bool {
        let select = try db.statement("""
            SELECT \(SampleRow.columns) FROM tied_copy
            WHERE layer_id = ? AND identity = ? AND made_at IS ? AND made_in IS ?
            """)
        select.bind(.integer(layer.id), .text(version.row.identity), .double(version.madeAt), .string(version.madeIn))
        let columns = try SampleRow.Columns(select)
        while try select.step() {
            if SampleRow(select, columns) == version.row { return false }
        }
        try db.statement("INSERT INTO tied_copy(layer_id, store, made_at, made_in, \(SampleRow.columns)) VALUES (?, ?, ?, ?, "
                         + Array(repeating: "?", count: SampleRow.columnNames.count).joined(separator: ", ") + ")")
            .bind([.integer(layer.id), .text(batch.store.rawValue), .double(version.madeAt), .string(version.madeIn)]
                  + version.row.bindings).run()
        return true
    }
}

extension StoredCopy {
    var version: SnapshotTie.Version { SnapshotTie.Version(row: row, madeAt: madeAt, madeIn: madeIn) }
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

    /// The total, histogram and file time of a road's stored summary, nil when it holds none for the key.
    func storedHeartRate(layer: Int64, writer: Int64, day: Int64, record: String) throws(StoreError) -> SnapshotTie.StoredHeartRate? {
        let select = try db.statement("""
            SELECT not_set + sedentary + active AS total, sedentary_histogram, made_at FROM heart_rate
            WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?
            """)
        select.bind(.integer(layer), .integer(writer), .integer(day), .text(record))
        guard try select.step() else { return nil }
        return SnapshotTie.StoredHeartRate(total: Int(select.int(try select.column("total"))),
                                           histogram: select.text(try select.column("sedentary_histogram")),
                                           madeAt: select.optionalDouble(try select.column("made_at")))
    }
}

extension StoreHistory {
    /// R12: for each sample a file of the same instant made later holds with another value, the value each other file
    /// of that instant held, replaced by the one that stands ("65 → 64 (B.json, made after A.json)"), dated when the
    /// later file was made (else when the road was read). Worked out from every file's version, so the order the files
    /// came in changes nothing.
    func sameInstantEntries(writers: [Int64: StoreSnapshot.WriterEntry],
                            layers: [Int64: StoreSnapshot.LayerEntry]) throws(StoreError) -> [RevisionEntry] {
        let select = try snapshot.db.statement("""
            SELECT t.layer_id AS layer_id, t.made_at AS made_at, t.made_in AS made_in, \(SampleRow.columns(prefix: "t.")),
                   s.value AS win_value, s.unit AS win_unit, s.in_range AS win_in_range, s.start AS win_start,
                   s."end" AS win_end, s.made_at AS win_made_at, s.made_in AS win_made_in
            FROM tied_copy t JOIN sample s ON s.layer_id = t.layer_id AND s.store = t.store AND s.identity = t.identity
            WHERE t.day >= ? AND t.day <= ?
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let columns = try SampleRow.Columns(select)
        let layerColumn = try select.column("layer_id"), madeAt = try select.column("made_at"), madeIn = try select.column("made_in"),
            winValue = try select.column("win_value"), winUnit = try select.column("win_unit"),
            winInRange = try select.column("win_in_range"), winStart = try select.column("win_start"),
            winEnd = try select.column("win_end"), winMadeAt = try select.column("win_made_at"),
            winMadeIn = try select.column("win_made_in")
        var result: [RevisionEntry] = []
        while try select.step() {
            let old = SampleRow(select, columns)
            guard let writer = writers[old.writerID], let layer = layers[select.int(layerColumn)],
                  let readAt = layer.road.asOf else { continue }
            let loser = SnapshotTie.Version(row: old, madeAt: select.optionalDouble(madeAt), madeIn: select.optionalText(madeIn))
            let winnerMade = select.optionalDouble(winMadeAt)
            // What replaced it, when it may enter an aggregate (R6, R13), as `StoredCopy.validBPM` says.
            let winnerValid = select.int(winInRange) != 0
                && PlausibleTimeRule.isPlausible(start: Date(timeIntervalSince1970: select.double(winStart)),
                                                 end: Date(timeIntervalSince1970: select.double(winEnd)), asOf: readAt)
            let winnerBPM = winnerValid ? SampleRow.bpm(value: select.optionalDouble(winValue), unit: select.text(winUnit)) : nil
            var winner = loser
            winner.madeAt = winnerMade
            winner.madeIn = select.optionalText(winMadeIn)
            let day = LocalDay(daysSinceEpoch: Int(old.day))
            result.append(RevisionEntry(
                writer: writer.writer, day: day, identity: old.identity, oldBPM: old.bpm, oldValue: old.value ?? .nan,
                unit: old.unit,
                wasProvisional: ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.isWatch,
                                                              day: day, asOf: readAt),
                reason: .replaced, replacedByBPM: winnerBPM,
                at: winnerMade.map { Timestamp(epochSeconds: $0, offsetSeconds: readAt.offsetSeconds) } ?? readAt,
                origin: SnapshotTie.origin(winner: winner, loser: loser)))
        }
        return result
    }
}
