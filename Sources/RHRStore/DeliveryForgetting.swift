import Foundation
import RHRCore

/// What forgetting deliveries did (`rhr imports forget`, docs/design.md section 5), or why nothing was done.
public struct ForgetOutcome: Sendable {
    /// Why nothing was forgotten; empty when the deliveries were.
    public var refusals: [String] = []
    public var forgotten: [DeliveryRecord] = []
    /// Each writer's day whose value (R7's `latest`) changed, by day, store and writer.
    public var changes: [DayChange] = []
    /// The forgotten roads' resting copies and heart-rate summaries, and their passed-over records no other delivery
    /// brought too.
    public var removedSamples = 0
    public var removedHeartRate = 0
    public var removedPassedOver = 0
    /// What the deliveries had taken from other roads, back where it was.
    public var restoredSamples = 0
    public var restoredHeartRate = 0
    /// The live roads forgotten whose batches continued a cursor: their phones must send a full resync.
    public var forgottenCursors: [ForgottenCursor] = []
    /// The store's revision after (unchanged when nothing but the list changed).
    public var revision: Int64 = 0

    public struct ForgottenCursor: Sendable, Equatable {
        public var store: HealthStore
        public var stream: String
        public var cursor: String
    }
}

/// A writer's day whose value changed: before and after (nil: no value that day).
public struct DayChange: Sendable, Equatable {
    public var day: LocalDay
    public var writer: Writer
    public var before: DayValue?
    public var after: DayValue?
}

extension HealthDatabase {
    /// Forgets the deliveries `ids` in one transaction: what they alone brought leaves the store (their roads' copies,
    /// heart rate, deletions, own revisions and passed-over records), what they took from other roads comes back,
    /// and the days they touched are decided again as if they had never come (R12). The values they decided go to
    /// the history as forgotten, at `now`. Refused, changing nothing, for an id the store does not know, a road
    /// shared with a delivery not among `ids`, and, unless `force`, a live road whose batches continue a cursor or a
    /// road from before the list whose forgetting cannot give back what it replaced.
    public func forget(_ ids: [Int64], force: Bool, at now: Timestamp) throws(StoreError) -> ForgetOutcome {
        try db.transaction { () throws(StoreError) -> ForgetOutcome in
            var forgetting = DeliveryForgetting(database: self, ids: ids, force: force, now: now)
            return try forgetting.run()
        }
    }
}

/// One forgetting, inside the caller's transaction.
struct DeliveryForgetting {
    let database: HealthDatabase
    let ids: [Int64]
    let force: Bool
    let now: Timestamp
    var db: SQLiteConnection { database.db }
    var outcome = ForgetOutcome()

    init(database: HealthDatabase, ids: [Int64], force: Bool, now: Timestamp) {
        self.database = database
        self.ids = Array(Set(ids)).sorted()
        self.force = force
        self.now = now
    }

    /// A road of a delivery being forgotten, as the plan needs it.
    struct PlannedRoad {
        var layer: Int64
        var streamID: Int64
        var road: DeliveredRoad
        /// Whether a cursor chain runs through its stream.
        var hasCursor: Bool
        /// The road leaves the store; false where the delivery only leaves it (a file imported again).
        var removed: Bool
    }

    mutating func run() throws(StoreError) -> ForgetOutcome {
        let snapshot = StoreSnapshot(db: db)
        let known = Dictionary(uniqueKeysWithValues: try snapshot.deliveries().map { ($0.id, $0) })
        for id in ids where known[id] == nil { outcome.refusals.append("no import \(id) in the store (rhr imports lists them)") }
        guard outcome.refusals.isEmpty else { return outcome }
        outcome.forgotten = ids.compactMap { known[$0] }
        let roads = try plan(outcome.forgotten)
        guard outcome.refusals.isEmpty else { return outcome }

        let removed = roads.filter(\.removed)
        let range = try affectedDays(removed)
        let before = try range.map { range throws(StoreError) in try snapshot.samples(from: range.lowerBound, to: range.upperBound) }
        let revision = try snapshot.revision() + 1
        let writers = try writersOf(removed)
        for road in removed { try remove(road) }
        let keys = try forgetDeletions()
        // A live road's own revisions (R4) leave with it.
        try db.statement("DELETE FROM revision WHERE delivery_id IN (\(idList))").run()
        try forgetPassedOver()
        let restored = try restore()
        try refreshStanding(streams: Set(removed.map(\.streamID)).union(restored), keys: keys)
        try refreshStreams(removed, revision: revision)
        if let range, let before {
            let after = try snapshot.samples(from: range.lowerBound, to: range.upperBound)
            try recordForgotten(before: before, after: after, removed: removed.map(\.road), revision: revision)
        }
        try removeUnusedWriters(writers)
        try refreshWriters()
        for id in ids {
            try db.statement("DELETE FROM delivery_road WHERE delivery_id = ?").bind(.integer(id)).run()
            try db.statement("DELETE FROM delivery WHERE id = ?").bind(.integer(id)).run()
        }
        let changed = !removed.isEmpty || outcome.restoredSamples + outcome.restoredHeartRate > 0 || !keys.isEmpty
        if changed {
            try db.statement("UPDATE meta SET value = ? WHERE key = 'revision'").bind(.text(String(revision))).run()
        }
        outcome.revision = changed ? revision : revision - 1
        return outcome
    }

    // MARK: - The plan, and what refuses it

    /// The forgotten deliveries' roads, each checked: a road shared with a delivery not forgotten stays (its
    /// delivery only leaves it) when the forgotten ones brought nothing to it, else is refused; a live road with a
    /// cursor, or a road from before the list that may have replaced another's words, only with `force`.
    mutating func plan(_ deliveries: [DeliveryRecord]) throws(StoreError) -> [PlannedRoad] {
        let select = try db.statement("""
            SELECT stream_id, EXISTS (SELECT 1 FROM stream_cursor c WHERE c.stream_id = layer.stream_id) AS chained
            FROM layer WHERE id = ?
            """)
        let forgotten = Set(ids)
        var result: [PlannedRoad] = []
        for delivery in deliveries {
            for road in delivery.roads {
                select.reset()
                select.bind(.integer(road.id))
                guard try select.step() else { continue }
                let others = road.sharedWith.filter { !forgotten.contains($0) }
                let chained = select.int(try select.column("chained")) != 0
                var planned = PlannedRoad(layer: road.id, streamID: select.int(try select.column("stream_id")), road: road,
                                          hasCursor: road.cursor != nil || chained, removed: others.isEmpty)
                select.reset()
                if !others.isEmpty && road.changed {
                    let all = ([delivery.id] + others).sorted().map(String.init).joined(separator: " ")
                    outcome.refusals.append("import \(delivery.id) shares its road (\(road.store.rawValue)/\(road.stream) as of "
                        + "\(road.asOf.iso8601)) with import\(others.count == 1 ? "" : "s") "
                        + others.map(String.init).joined(separator: ", ") + ": the same file again, or files read at the "
                        + "same instant, are one road (R12), so one cannot be taken back alone; forget them together: "
                        + "rhr imports forget \(all)")
                    planned.removed = false
                }
                if planned.removed, !road.snapshot, planned.hasCursor, !force {
                    outcome.refusals.append(cursorRefusal(delivery.id, road))
                }
                if planned.removed, !delivery.known, !force, let lost = try lostWithout(planned) {
                    outcome.refusals.append("import \(delivery.id) was imported before rhr kept what each import replaced: "
                        + "forgetting it cannot bring back \(lost); to forget it anyway: rhr imports forget \(delivery.id) --force")
                }
                if planned.removed, !road.snapshot, planned.hasCursor, let cursor = road.cursor {
                    outcome.forgottenCursors.append(.init(store: road.store, stream: road.stream, cursor: cursor))
                }
                result.append(planned)
            }
        }
        return result
    }

    /// Why a phone's cursor history is not forgotten lightly (section 4: cursors).
    func cursorRefusal(_ id: Int64, _ road: DeliveredRoad) -> String {
        let cursor = road.cursor.map { TextGate.clipped($0) } ?? "one before its last"
        return "import \(id) is the live feed \(road.store.rawValue)/\(road.stream), whose batches continue a cursor "
            + "(\(cursor)): forgetting it forgets the cursor too, so the phone, which goes on from \(cursor), would have "
            + "its next batch refused (cursor_mismatch) until it sends a full resync (fullResync: true) of all it holds; "
            + "to forget it anyway: rhr imports forget \(id) --force"
    }

    /// What forgetting a road from before the list cannot give back, if anything: an older export's words it replaced
    /// (another snapshot of its stream read before it), or what its deletions took from other roads.
    func lostWithout(_ road: PlannedRoad) throws(StoreError) -> String? {
        if road.road.snapshot {
            let older = try db.statement("""
                SELECT 1 FROM layer WHERE stream_id = ? AND snapshot = 1 AND as_of < ? AND id <> ? LIMIT 1
                """)
            older.bind(.integer(road.streamID), .real(road.road.asOf.epochSeconds), .integer(road.layer))
            return try older.step() ? "what older exports of \(road.road.stream) said where it covered them" : nil
        }
        let deletions = try db.statement("""
            SELECT 1 FROM tombstone_seen t JOIN layer l ON l.id = ?1 JOIN stream st ON st.id = l.stream_id
            WHERE t.delivery_id = 0 AND t.store = st.store AND t.origin IN (l.origin, st.name) LIMIT 1
            """)
        deletions.bind(.integer(road.layer))
        return try deletions.step() ? "what its deletions took from other roads" : nil
    }

    // MARK: - Taking out, giving back

    var idList: String { ids.map(String.init).joined(separator: ", ") }

    /// The days whose values may change: the forgotten roads', what their deliveries took from others, what their
    /// deletions took, and every copy of their streams' other roads (which road stands there may change).
    func affectedDays(_ removed: [PlannedRoad]) throws(StoreError) -> ClosedRange<LocalDay>? {
        let layers = removed.map { String($0.layer) }.joined(separator: ", ")
        let streams = Set(removed.map { String($0.streamID) }).sorted().joined(separator: ", ")
        let select = try db.statement("""
            SELECT min(d) AS lo, max(d) AS hi FROM (
                SELECT min(day) AS d FROM sample WHERE layer_id IN (\(layers)) UNION ALL SELECT max(day) FROM sample WHERE layer_id IN (\(layers))
                UNION ALL SELECT min(day) FROM heart_rate WHERE layer_id IN (\(layers))
                UNION ALL SELECT max(day) FROM heart_rate WHERE layer_id IN (\(layers))
                UNION ALL SELECT min(day) FROM displaced_sample WHERE by_delivery IN (\(idList))
                UNION ALL SELECT max(day) FROM displaced_sample WHERE by_delivery IN (\(idList))
                UNION ALL SELECT min(day) FROM displaced_heart_rate WHERE by_delivery IN (\(idList))
                UNION ALL SELECT max(day) FROM displaced_heart_rate WHERE by_delivery IN (\(idList))
                UNION ALL SELECT s.day FROM tombstone_seen t JOIN sample s ON s.store = t.store AND s.identity = t.key
                    WHERE t.delivery_id IN (\(idList))
                UNION ALL SELECT s.day FROM tombstone_seen t JOIN sample s ON s.store = t.store AND s.uuid = t.key
                    WHERE t.delivery_id IN (\(idList))
                UNION ALL SELECT min(s.day) FROM sample s JOIN layer l ON l.id = s.layer_id WHERE l.stream_id IN (\(streams))
                UNION ALL SELECT max(s.day) FROM sample s JOIN layer l ON l.id = s.layer_id WHERE l.stream_id IN (\(streams)))
            """)
        guard try select.step(), let lo = select.optionalInt(try select.column("lo")),
              let hi = select.optionalInt(try select.column("hi")) else { return nil }
        return LocalDay(daysSinceEpoch: Int(lo))...LocalDay(daysSinceEpoch: Int(hi))
    }

    /// The writers of what leaves with the roads: those nothing holds afterwards leave too.
    func writersOf(_ removed: [PlannedRoad]) throws(StoreError) -> Set<Int64> {
        let layers = removed.map { String($0.layer) }.joined(separator: ", ")
        let select = try db.statement("""
            SELECT writer_id FROM sample WHERE layer_id IN (\(layers)) UNION SELECT writer_id FROM heart_rate WHERE layer_id IN (\(layers))
            UNION SELECT writer_id FROM displaced_sample WHERE layer_id IN (\(layers))
            UNION SELECT writer_id FROM displaced_heart_rate WHERE layer_id IN (\(layers))
            UNION SELECT writer_id FROM revision WHERE delivery_id IN (\(idList))
            """)
        let writer = try select.column("writer_id")
        var result = Set<Int64>()
        while try select.step() { result.insert(select.int(writer)) }
        return result
    }

    /// A road leaves: its copies, its heart rate, its files' other versions (`tied_copy`), what others kept aside of it,
    /// and the road.
    mutating func remove(_ road: PlannedRoad) throws(StoreError) {
        outcome.removedSamples += try count("sample", layer: road.layer)
        outcome.removedHeartRate += try count("heart_rate", layer: road.layer)
        for table in ["sample", "heart_rate", "tied_copy", "displaced_sample", "displaced_heart_rate"] {
            try db.statement("DELETE FROM \(table) WHERE layer_id = ?").bind(.integer(road.layer)).run()
        }
        try db.statement("DELETE FROM delivery_road WHERE layer_id = ?").bind(.integer(road.layer)).run()
        try db.statement("DELETE FROM layer WHERE id = ?").bind(.integer(road.layer)).run()
    }

    func count(_ table: String, layer: Int64) throws(StoreError) -> Int {
        let select = try db.statement("SELECT count(*) AS n FROM \(table) WHERE layer_id = ?")
        select.bind(.integer(layer))
        return try select.step() ? Int(select.int(try select.column("n"))) : 0
    }

    /// The deliveries' deletions leave: each key's tombstone is the latest another delivery saw, or none. Returns the
    /// keys (store, key) whose copies may stand again.
    func forgetDeletions() throws(StoreError) -> [(String, String)] {
        let select = try db.statement("SELECT DISTINCT store, key FROM tombstone_seen WHERE delivery_id IN (\(idList))")
        let store = try select.column("store"), key = try select.column("key")
        var keys: [(String, String)] = []
        while try select.step() { keys.append((select.text(store), select.text(key))) }
        try db.statement("DELETE FROM tombstone_seen WHERE delivery_id IN (\(idList))").run()
        for (store, key) in keys {
            let latest = try db.statement("""
                SELECT at, at_offset, origin FROM tombstone_seen WHERE store = ? AND key = ? ORDER BY at DESC LIMIT 1
                """)
            latest.bind(.text(store), .text(key))
            if try latest.step() {
                let at = latest.double(try latest.column("at")), offset = latest.int(try latest.column("at_offset")),
                    origin = latest.text(try latest.column("origin"))
                latest.reset()
                try db.statement("UPDATE tombstone SET at = ?, at_offset = ?, origin = ? WHERE store = ? AND key = ?")
                    .bind(.real(at), .integer(offset), .text(origin), .text(store), .text(key)).run()
            } else {
                try db.statement("DELETE FROM tombstone WHERE store = ? AND key = ?").bind(.text(store), .text(key)).run()
            }
        }
        return keys
    }

    /// Passed-over records (R14) leave when no delivery left brought them.
    mutating func forgetPassedOver() throws(StoreError) {
        let select = try db.statement("""
            SELECT count(*) AS n FROM passed_over WHERE id IN (SELECT passed_over_id FROM passed_over_delivery
                                                            WHERE delivery_id IN (\(idList)))
              AND NOT EXISTS (SELECT 1 FROM passed_over_delivery p WHERE p.passed_over_id = passed_over.id
                              AND p.delivery_id NOT IN (\(idList)))
            """)
        outcome.removedPassedOver = try select.step() ? Int(select.int(try select.column("n"))) : 0
        select.reset()
        try db.statement("""
            DELETE FROM passed_over WHERE id IN (SELECT passed_over_id FROM passed_over_delivery WHERE delivery_id IN (\(idList)))
              AND NOT EXISTS (SELECT 1 FROM passed_over_delivery p WHERE p.passed_over_id = passed_over.id
                              AND p.delivery_id NOT IN (\(idList)))
            """).run()
        try db.statement("DELETE FROM passed_over_delivery WHERE delivery_id IN (\(idList))").run()
    }

    /// What the deliveries kept aside of other roads goes back, then whatever another delivery would have kept aside
    /// of it is kept aside again, under that one (`normalise`). Returns the streams of the roads given back copies.
    mutating func restore() throws(StoreError) -> Set<Int64> {
        let firstNew = try db.integer("SELECT coalesce(max(id), 0) + 1 AS next FROM sample", column: "next")
        try db.statement("""
            INSERT OR IGNORE INTO sample(layer_id, store, as_of, current, first_as_of, \(SampleRow.columns))
            SELECT layer_id, store, as_of, 1, first_as_of, \(SampleRow.columns) FROM displaced_sample
            WHERE by_delivery IN (\(idList)) AND layer_id IN (SELECT id FROM layer)
            ORDER BY id
            """).run()
        try db.statement("DELETE FROM displaced_sample WHERE by_delivery IN (\(idList))").run()
        let heartRate = try restoreHeartRate()
        let layers = try StoreSnapshot(db: db).loadLayers()
        let select = try db.statement("SELECT \(StoredCopy.columns()), store FROM sample WHERE id >= ? ORDER BY id")
        select.bind(.integer(firstNew))
        let columns = try StoredCopy.Columns(select), store = try select.column("store")
        var copies: [(StoredCopy, String)] = []
        while try select.step() { copies.append((StoredCopy(select, columns), select.text(store))) }
        var streams = Set<Int64>()
        for (copy, store) in copies {
            guard let layer = layers[copy.layer] else { continue }
            streams.insert(layer.streamID)
            if try keepAsideAgain(copy, store: store, layer: layer, layers: layers) { continue }
            outcome.restoredSamples += 1
        }
        for row in heartRate {
            if try keepAsideAgain(row, layers: layers) { continue }
            outcome.restoredHeartRate += 1
        }
        return streams
    }

    /// A summary of a writer's day on a road, as kept aside and given back.
    struct HeartRateRow {
        var layer: Int64
        var writer: Int64
        var day: Int64
        var record: String
        var asOf: Double
    }

    func restoreHeartRate() throws(StoreError) -> [HeartRateRow] {
        let select = try db.statement("""
            SELECT DISTINCT layer_id, writer_id, day, record_key, as_of FROM displaced_heart_rate
            WHERE by_delivery IN (\(idList)) AND layer_id IN (SELECT id FROM layer)
              AND NOT EXISTS (SELECT 1 FROM heart_rate h WHERE h.layer_id = displaced_heart_rate.layer_id
                              AND h.writer_id = displaced_heart_rate.writer_id AND h.day = displaced_heart_rate.day
                              AND h.record_key = displaced_heart_rate.record_key)
            """)
        let layer = try select.column("layer_id"), writer = try select.column("writer_id"), day = try select.column("day"),
            record = try select.column("record_key"), asOf = try select.column("as_of")
        var rows: [HeartRateRow] = []
        while try select.step() {
            rows.append(HeartRateRow(layer: select.int(layer), writer: select.int(writer), day: select.int(day),
                                     record: select.text(record), asOf: select.double(asOf)))
        }
        try db.statement("""
            INSERT OR IGNORE INTO heart_rate(layer_id, writer_id, day, record_key, as_of, not_set, sedentary, active,
                                             sedentary_min, sedentary_histogram)
            SELECT layer_id, writer_id, day, record_key, as_of, not_set, sedentary, active, sedentary_min, sedentary_histogram
            FROM displaced_heart_rate WHERE by_delivery IN (\(idList)) AND layer_id IN (SELECT id FROM layer)
            """).run()
        try db.statement("DELETE FROM displaced_heart_rate WHERE by_delivery IN (\(idList))").run()
        return rows
    }

    /// A copy given back that a newer snapshot of its stream, still remembered, holds with the same value goes aside
    /// again, under that one's delivery, as if that one had come after it (`BatchApplication.upsert`).
    func keepAsideAgain(_ copy: StoredCopy, store: String, layer: StoreSnapshot.LayerEntry,
                        layers: [Int64: StoreSnapshot.LayerEntry]) throws(StoreError) -> Bool {
        guard layer.road.snapshot else { return false }
        let select = try db.statement(StoredCopy.selectByIdentity)
        select.bind(.text(store), .text(copy.row.identity))
        let columns = try StoredCopy.Columns(select)
        var holder: Int64?
        while try select.step() {
            let other = StoredCopy(select, columns)
            if let newer = layers[other.layer], newer.isNewerSnapshot(of: layer.streamID, than: copy.asOf),
               newer.covers(copy.row.start), other.row.sameValue(as: copy.row) {
                holder = min(holder ?? other.layer, other.layer)
            }
        }
        guard let holder else { return false }
        try db.statement("""
            INSERT OR REPLACE INTO displaced_sample(by_delivery, layer_id, store, as_of, first_as_of, \(SampleRow.columns))
            SELECT ?, layer_id, store, as_of, first_as_of, \(SampleRow.columns) FROM sample WHERE id = ?
            """)
            .bind(.integer(try database.deliveryOf(layer: holder) ?? 0), .integer(copy.id)).run()
        try db.statement("DELETE FROM sample WHERE id = ?").bind(.integer(copy.id)).run()
        return true
    }

    /// Heart rate given back that a remembered deletion took after its road read it, or a newer snapshot of its stream
    /// covers, goes aside again under that delivery (`BatchApplication.upsertHeartRate`).
    func keepAsideAgain(_ row: HeartRateRow, layers: [Int64: StoreSnapshot.LayerEntry]) throws(StoreError) -> Bool {
        guard let layer = layers[row.layer] else { return false }
        var by: Int64?
        if !row.record.isEmpty {
            let deletion = try db.statement("""
                SELECT t.delivery_id AS delivery_id FROM tombstone_seen t WHERE t.store = ? AND t.key = ? AND t.at > ?
                ORDER BY t.at DESC LIMIT 1
                """)
            deletion.bind(.text(layer.store.rawValue), .text(row.record), .real(row.asOf))
            if try deletion.step() { by = deletion.int(try deletion.column("delivery_id")) }
        }
        if by == nil, layer.road.snapshot,
           let newer = layers.values.filter({
               $0.isNewerSnapshot(of: layer.streamID, than: layer.road.asOf?.epochSeconds ?? -.infinity) && $0.covers(day: row.day)
           }).map(\.id).min() {
            by = try database.deliveryOf(layer: newer) ?? 0
        }
        guard let by else { return false }
        let key: [SQLValue] = [.integer(row.layer), .integer(row.writer), .integer(row.day), .text(row.record)]
        try db.statement("""
            INSERT OR REPLACE INTO displaced_heart_rate(by_delivery, layer_id, writer_id, day, record_key, as_of, not_set,
                                                        sedentary, active, sedentary_min, sedentary_histogram)
            SELECT ?5, layer_id, writer_id, day, record_key, as_of, not_set, sedentary, active, sedentary_min,
                   sedentary_histogram
            FROM heart_rate WHERE layer_id = ?1 AND writer_id = ?2 AND day = ?3 AND record_key = ?4
            """)
            .bind(key + [.integer(by)]).run()
        try db.statement("DELETE FROM heart_rate WHERE layer_id = ? AND writer_id = ? AND day = ? AND record_key = ?")
            .bind(key).run()
        return true
    }

    /// Whether each copy of the given streams, and of the keys whose deletions changed, stands in its road: no
    /// deletion seen after it was delivered (R4), and, in a snapshot, no newer snapshot of its stream covering its
    /// start (`BatchApplication.stands`).
    func refreshStanding(streams: Set<Int64>, keys: [(String, String)]) throws(StoreError) {
        let stands = """
            current = NOT EXISTS (SELECT 1 FROM tombstone t WHERE t.store = sample.store
                                  AND t.key IN (sample.identity, sample.uuid) AND t.at > sample.as_of)
                AND NOT EXISTS (SELECT 1 FROM layer l JOIN layer m ON m.stream_id = l.stream_id
                                WHERE l.id = sample.layer_id AND l.snapshot = 1 AND m.snapshot = 1 AND m.as_of > l.as_of
                                  AND m.covers_resting = 1 AND (m.from_at IS NULL OR sample.start >= m.from_at)
                                  AND (m.to_at IS NULL OR sample.start <= m.to_at))
            """
        if !streams.isEmpty {
            let list = streams.sorted().map(String.init).joined(separator: ", ")
            try db.statement("UPDATE sample SET \(stands) WHERE layer_id IN (SELECT id FROM layer WHERE stream_id IN (\(list)))").run()
        }
        let byKey = try db.statement("""
            UPDATE sample SET \(stands) WHERE id IN (SELECT id FROM sample WHERE store = ?1 AND identity = ?2
                                                    UNION SELECT id FROM sample WHERE store = ?1 AND uuid = ?2)
            """)
        for (store, key) in keys {
            byKey.reset()
            try byKey.bind(.text(store), .text(key)).run()
        }
    }

    /// Each stream a forgotten road was on: gone with its last road (its cursors too); else its `asOf` and origin its
    /// freshest road's again, its cursor forgotten with its live road, its app priority the newest export's left.
    func refreshStreams(_ removed: [PlannedRoad], revision: Int64) throws(StoreError) {
        for streamID in Set(removed.map(\.streamID)).sorted() {
            let newest = try db.statement("""
                SELECT as_of, as_of_offset, origin FROM layer WHERE stream_id = ? ORDER BY as_of DESC, id DESC LIMIT 1
                """)
            newest.bind(.integer(streamID))
            guard try newest.step() else {
                newest.reset()
                try db.statement("DELETE FROM stream_cursor WHERE stream_id = ?").bind(.integer(streamID)).run()
                try db.statement("DELETE FROM stream WHERE id = ?").bind(.integer(streamID)).run()
                continue
            }
            let asOf = newest.double(try newest.column("as_of")), offset = newest.int(try newest.column("as_of_offset")),
                origin = newest.text(try newest.column("origin"))
            newest.reset()
            try db.statement("UPDATE stream SET as_of = ?, as_of_offset = ?, origin = ?, revision = ? WHERE id = ?")
                .bind(.real(asOf), .integer(offset), .text(origin), .integer(revision), .integer(streamID)).run()
            if removed.contains(where: { $0.streamID == streamID && !$0.road.snapshot }) {
                try db.statement("UPDATE stream SET cursor = NULL, permissions = NULL WHERE id = ?").bind(.integer(streamID)).run()
                try db.statement("DELETE FROM stream_cursor WHERE stream_id = ?").bind(.integer(streamID)).run()
            }
            let forgottenAsOf = removed.filter { $0.streamID == streamID }.map { $0.road.asOf.epochSeconds }
            try db.statement("""
                UPDATE stream SET
                    app_priority = coalesce((SELECT dr.app_priority FROM delivery_road dr JOIN layer l ON l.id = dr.layer_id
                                             WHERE l.stream_id = ?1 AND dr.app_priority IS NOT NULL
                                             ORDER BY l.as_of DESC LIMIT 1),
                                            CASE WHEN app_priority_as_of IN (\(forgottenAsOf.map { "\($0)" }.joined(separator: ", ")))
                                                 THEN NULL ELSE app_priority END),
                    app_priority_as_of = coalesce((SELECT l.as_of FROM delivery_road dr JOIN layer l ON l.id = dr.layer_id
                                                   WHERE l.stream_id = ?1 AND dr.app_priority IS NOT NULL
                                                   ORDER BY l.as_of DESC LIMIT 1),
                                                  CASE WHEN app_priority_as_of IN (\(forgottenAsOf.map { "\($0)" }.joined(separator: ", ")))
                                                       THEN NULL ELSE app_priority_as_of END)
                WHERE id = ?1
                """).bind(.integer(streamID)).run()
        }
    }

    /// The history says where the forgotten roads' values went (R4): each value a forgotten road decided its
    /// writer's day with, against what decides the day now (that copy of the same sample, else the day's latest).
    /// And the days whose values changed, for the command to say.
    mutating func recordForgotten(before: [DaySample], after: [DaySample], removed: [DeliveredRoad],
                                  revision: Int64) throws(StoreError) {
        struct Key: Hashable { var day: LocalDay; var writer: WriterKey }
        let afterSeries = DaySeries(after)
        var afterValues: [Key: DayValue] = [:]
        var afterStanding: [Key: [String: DaySample]] = [:]
        for group in afterSeries.groups {
            let value = afterSeries.value(of: group, by: .latest)
            let key = Key(day: value.day, writer: value.writer.key)
            afterValues[key] = value
            for s in DaySeries.standing(afterSeries.samples(in: group)) { afterStanding[key, default: [:]][s.sample.identity.key] = s }
        }
        let beforeSeries = DaySeries(before)
        var beforeValues: [Key: DayValue] = [:]
        let origin = ids.map { id in
            let label = outcome.forgotten.first { $0.id == id }.map { $0.isFeed ? "feed" : Self.fileName($0.label) } ?? ""
            return label.isEmpty ? "import \(id)" : "import \(id) (\(label))"
        }.joined(separator: ", ")
        for group in beforeSeries.groups {
            let value = beforeSeries.value(of: group, by: .latest)
            let key = Key(day: value.day, writer: value.writer.key)
            beforeValues[key] = value
            for s in DaySeries.standing(beforeSeries.samples(in: group)) where removed.contains(where: { Self.holds($0, s) }) {
                let replacement = afterStanding[key]?[s.sample.identity.key].flatMap(Self.validBPM) ?? afterValues[key]?.bpm
                try db.statement("""
                    INSERT INTO revision(writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm,
                                         at, at_offset, origin, store_revision, old_as_of)
                    SELECT id, ?, ?, ?, ?, ?, 'forgotten', ?, ?, ?, ?, ?, ? FROM writer WHERE store = ? AND name = ?
                    """)
                    .bind(.integer(Int64(s.day.daysSinceEpoch)), .text(s.sample.identity.key),
                          .double(s.sample.value.isNaN ? nil : s.sample.value), .text(s.sample.unit), .bool(s.provisional),
                          .double(replacement), .real(now.epochSeconds), .integer(Int64(now.offsetSeconds)), .text(origin),
                          .integer(revision), .double(s.asOf?.epochSeconds), .text(s.sample.store.rawValue),
                          .text(s.sample.writer.name))
                    .run()
            }
        }
        for key in Set(beforeValues.keys).union(afterValues.keys) {
            let was = beforeValues[key], stands = afterValues[key]
            guard (was == nil) != (stands == nil) || was?.bpm != stands?.bpm else { continue }
            outcome.changes.append(DayChange(day: key.day, writer: (was ?? stands)!.writer, before: was, after: stands))
        }
        outcome.changes.sort { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
    }

    /// Whether a forgotten road held a standing value: the same store and stream, and for a snapshot the same read.
    static func holds(_ road: DeliveredRoad, _ s: DaySample) -> Bool {
        road.store == s.sample.store && road.stream == s.stream && road.snapshot == s.snapshot
            && (!road.snapshot || road.asOf.epochSeconds == s.asOf?.epochSeconds)
    }

    /// A delivery's file as the history names it: its last component, a zip without its member
    /// (`Health Connect.zip (health_connect_export.db)` → `Health Connect.zip`).
    static func fileName(_ label: String) -> String {
        let name = PathText.lastComponent(label)
        guard name.hasSuffix(")"), let open = name.range(of: ".zip (", options: .backwards) else { return name }
        return String(name[..<open.lowerBound]) + ".zip"
    }

    static func validBPM(_ s: DaySample) -> Double? {
        s.implausibleDate || !s.sample.isInRange ? nil : s.sample.bpm
    }

    /// Writers of what left that nothing holds any more (no copy, summary, history or copy kept aside) leave too,
    /// with the spellings of their names.
    func removeUnusedWriters(_ writers: Set<Int64>) throws(StoreError) {
        let unused = """
            id = ?1 AND NOT EXISTS (SELECT 1 FROM sample WHERE writer_id = ?1)
            AND NOT EXISTS (SELECT 1 FROM heart_rate WHERE writer_id = ?1) AND NOT EXISTS (SELECT 1 FROM revision WHERE writer_id = ?1)
            AND NOT EXISTS (SELECT 1 FROM displaced_sample WHERE writer_id = ?1)
            AND NOT EXISTS (SELECT 1 FROM displaced_heart_rate WHERE writer_id = ?1)
            """
        for writer in writers.sorted() {
            try db.statement("DELETE FROM writer_spelling WHERE writer_id IN (SELECT id FROM writer WHERE \(unused))")
                .bind(.integer(writer)).run()
            try db.statement("DELETE FROM writer WHERE \(unused)").bind(.integer(writer)).run()
        }
    }
}

extension DeliveryForgetting {
    /// What the forgotten deliveries said of writers that stay leaves them: each detail is again the freshest that a
    /// delivery left gave (R2), the watch mark is one a delivery left saw (R3), a cut name's length the longest left.
    /// What a writer holds from a road imported before the list was kept stays, as nothing says where it came from.
    func refreshWriters() throws(StoreError) {
        let select = try db.statement("SELECT DISTINCT writer_id FROM delivery_writer WHERE delivery_id IN (\(idList))")
        let column = try select.column("writer_id")
        var writers: [Int64] = []
        while try select.step() { writers.append(select.int(column)) }
        for writer in writers {
            let current = try db.statement("""
                SELECT app_name, app_name_as_of, bundle_identifier, bundle_identifier_as_of, product_type,
                       product_type_as_of, is_watch, name_bytes,
                       EXISTS (SELECT 1 FROM delivery d JOIN delivery_road dr ON dr.delivery_id = d.id
                               WHERE d.known = 0 AND (EXISTS (SELECT 1 FROM sample s WHERE s.layer_id = dr.layer_id AND s.writer_id = ?1)
                                   OR EXISTS (SELECT 1 FROM heart_rate h WHERE h.layer_id = dr.layer_id AND h.writer_id = ?1))) AS earlier
                FROM writer WHERE id = ?1
                """)
            current.bind(.integer(writer))
            guard try current.step() else { continue }
            let earlier = current.int(try current.column("earlier")) != 0
            var assignments: [String] = [], values: [SQLValue] = []
            for detail in ["app_name", "bundle_identifier", "product_type"] {
                let value = current.optionalText(try current.column(detail))
                let asOf = current.optionalDouble(try current.column(detail + "_as_of"))
                let best = try freshest(detail, writer: writer, keeping: earlier ? value.map { ($0, asOf ?? 0) } : nil,
                                        unlessForgotten: value.map { ($0, asOf ?? 0) })
                assignments += ["\(detail) = ?", "\(detail)_as_of = ?"]
                values += [.string(best?.value), .double(best?.asOf)]
            }
            let watch = current.int(try current.column("is_watch")) != 0
            let nameBytes = current.optionalInt(try current.column("name_bytes")) ?? 0
            current.reset()
            let said = try db.statement("""
                SELECT max(CASE WHEN delivery_id NOT IN (\(idList)) THEN is_watch END) AS watch_left,
                       max(CASE WHEN delivery_id IN (\(idList)) THEN is_watch END) AS watch_forgotten,
                       max(CASE WHEN delivery_id NOT IN (\(idList)) THEN name_bytes END) AS bytes_left,
                       max(CASE WHEN delivery_id IN (\(idList)) THEN name_bytes END) AS bytes_forgotten
                FROM delivery_writer WHERE writer_id = ?
                """)
            said.bind(.integer(writer))
            guard try said.step() else { continue }
            let watchLeft = said.optionalInt(try said.column("watch_left")) == 1
            let watchForgotten = said.optionalInt(try said.column("watch_forgotten")) == 1
            let bytesLeft = said.optionalInt(try said.column("bytes_left")) ?? 0
            let bytesForgotten = said.optionalInt(try said.column("bytes_forgotten")) ?? 0
            said.reset()
            let isWatch = watchLeft || (watch && (earlier || !watchForgotten))
            let bytes = max(bytesLeft, earlier || nameBytes != bytesForgotten ? nameBytes : 0)
            assignments += ["is_watch = ?", "name_bytes = ?"]
            values += [.bool(isWatch), .int64(bytes > 0 ? bytes : nil)]
            try db.statement("UPDATE writer SET \(assignments.joined(separator: ", ")) WHERE id = ?")
                .bind(values + [.integer(writer)]).run()
        }
        try db.statement("DELETE FROM delivery_writer WHERE delivery_id IN (\(idList))").run()
    }

    /// The freshest value of a writer's `detail` (ties: the smaller text) that the deliveries left gave, or `keeping`;
    /// also the writer's own `unlessForgotten`, unless a forgotten delivery gave it.
    func freshest(_ detail: String, writer: Int64, keeping: (String, Double)?,
                  unlessForgotten current: (String, Double)?) throws(StoreError) -> (value: String, asOf: Double)? {
        let select = try db.statement("""
            SELECT \(detail) AS value, \(detail)_as_of AS as_of, delivery_id IN (\(idList)) AS forgotten
            FROM delivery_writer WHERE writer_id = ? AND \(detail) IS NOT NULL
            """)
        select.bind(.integer(writer))
        var candidates: [(value: String, asOf: Double)] = keeping.map { [$0] } ?? []
        var givenByForgotten = false
        let value = try select.column("value"), asOf = try select.column("as_of"), forgotten = try select.column("forgotten")
        while try select.step() {
            let given = (select.text(value), select.optionalDouble(asOf) ?? 0)
            if select.int(forgotten) != 0 {
                if let current, current == given { givenByForgotten = true }
            } else {
                candidates.append(given)
            }
        }
        if let current, !givenByForgotten { candidates.append(current) }
        return candidates.max { $0.asOf != $1.asOf ? $0.asOf < $1.asOf : $0.value > $1.value }
    }
}
