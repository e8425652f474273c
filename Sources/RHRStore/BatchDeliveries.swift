import Foundation
import RHRCore

/// The deliveries of one `apply` call (docs/design.md section 5, `DeliverySchema.swift`): the snapshot batches of a
/// call are one file's, so one delivery, made at the first of them; a live road's batches belong to the road's own
/// delivery, made with the road.
final class DeliveryBook {
    var fileDelivery: Int64?
    /// When the call applied its batches, by the machine's clock.
    let received: Double
    let offset: Int64

    init(machineZone: TimeZone) {
        let now = Date()
        received = now.timeIntervalSince1970
        offset = Int64(machineZone.secondsFromGMT(for: now))
    }
}

extension BatchApplication {
    /// At most this many sources are named for a feed (a folder of batch files feeding one road): its batches count
    /// the rest.
    static let namedSources = 20

    /// Where the batch came from, as `rhr imports` names it: the file as given or the HTTP endpoint, else what its
    /// reader called it ("batches over HTTP"), else the socket.
    var deliverySource: String {
        !batch.passedOver.source.isEmpty ? batch.passedOver.source : batch.origin.isEmpty ? "socket" : batch.origin
    }

    /// Finds or makes the batch's delivery and links it to the batch's road. A live road's delivery is looked up once
    /// per batch, and written only when the batch comes from a source it does not name yet: a phone's pushes cost a
    /// lookup.
    mutating func noteDelivery(_ layer: LayerRow) throws(StoreError) {
        deliveryLayer = layer.id
        if !layer.snapshot, layer.existed, let feed = try feedDelivery(layer.id) {
            delivery = feed.id
            let source = deliverySource
            if source != feed.label, !feed.sources.contains(source), feed.sources.count < Self.namedSources - 1 {
                try db.statement("UPDATE delivery SET sources = ? WHERE id = ?")
                    .bind(.text((feed.sources + [source]).joined(separator: "\n")), .integer(feed.id)).run()
            }
            return
        }
        if layer.snapshot, let id = book.fileDelivery {
            delivery = id
        } else {
            delivery = try makeDelivery(feed: !layer.snapshot)
            if layer.snapshot { book.fileDelivery = delivery }
        }
        try db.statement("INSERT OR IGNORE INTO delivery_road(delivery_id, layer_id) VALUES (?, ?)")
            .bind(.integer(delivery), .integer(layer.id)).run()
    }

    /// A live road's delivery, its label and its other sources.
    func feedDelivery(_ layer: Int64) throws(StoreError) -> (id: Int64, label: String, sources: [String])? {
        let select = try db.statement("""
            SELECT d.id AS id, d.label AS label, d.sources AS sources FROM delivery_road dr JOIN delivery d ON d.id = dr.delivery_id
            WHERE dr.layer_id = ? ORDER BY d.id LIMIT 1
            """)
        select.bind(.integer(layer))
        guard try select.step() else { return nil }
        let sources = select.text(try select.column("sources"))
        return (select.int(try select.column("id")), select.text(try select.column("label")),
                sources.isEmpty ? [] : sources.split(separator: "\n").map(String.init))
    }

    /// A new delivery, numbered after every one given before, forgotten ones too (`meta.last_delivery`).
    private func makeDelivery(feed: Bool) throws(StoreError) -> Int64 {
        try db.statement("""
            INSERT INTO delivery(id, feed, label, first_received, received_offset)
            VALUES (max(coalesce((SELECT max(id) FROM delivery), 0),
                        coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'last_delivery'), 0)) + 1,
                    ?1, ?2, ?3, ?4)
            """)
            .bind(.bool(feed), .text(deliverySource), .real(book.received), .integer(book.offset)).run()
        let id = db.lastInsertRowID
        try db.statement("""
            INSERT INTO meta(key, value) VALUES ('last_delivery', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value
            """)
            .bind(.text(String(id))).run()
        return id
    }

    /// Adds what the batch did to its delivery's counts on its road (R1: a road is of one store).
    func recordDeliveryOutcome() throws(StoreError) {
        try db.statement("""
            UPDATE delivery_road SET batches = batches + 1, added = added + ?1, replaced = replaced + ?2,
                deleted = deleted + ?3, unchanged = unchanged + ?4, out_of_range = out_of_range + ?5,
                heart_rate = heart_rate + ?6, changed = max(changed, ?7), app_priority = coalesce(?8, app_priority),
                last_received = ?11
            WHERE layer_id = ?9 AND delivery_id = ?10
            """)
            .bind(.integer(Int64(outcome.added)), .integer(Int64(outcome.replaced)), .integer(Int64(outcome.deleted)),
                  .integer(Int64(outcome.unchanged)), .integer(Int64(outcome.outOfRange)),
                  .integer(Int64(outcome.heartRateSummaries)),
                  .bool(outcome.changedSomething || outcome.heartRateSummaries > 0),
                  .string(batch.appPriority.map { $0.joined(separator: "\n") }), .integer(deliveryLayer), .integer(delivery),
                  .real(book.received))
            .run()
    }

    /// What this delivery says of a writer (`delivery_writer`): its details as the freshest of its batches gave them
    /// (`freshestDetail`), whether it saw a watch (R3), the longest its name was (R2).
    func noteWriter(_ id: Int64, _ writer: Writer, isWatch: Bool) throws(StoreError) {
        let detail = BatchApplication.freshestDetail
        try db.statement("""
            INSERT INTO delivery_writer(delivery_id, writer_id, app_name, app_name_as_of, bundle_identifier,
                                        bundle_identifier_as_of, product_type, product_type_as_of, is_watch, name_bytes)
            VALUES (?1, ?2, ?3, CASE WHEN ?3 IS NOT NULL THEN ?6 END, ?4, CASE WHEN ?4 IS NOT NULL THEN ?6 END,
                    ?5, CASE WHEN ?5 IS NOT NULL THEN ?6 END, ?7, ?8)
            ON CONFLICT(writer_id, delivery_id) DO UPDATE SET
                \(detail("app_name")), \(detail("bundle_identifier")), \(detail("product_type")),
                is_watch = max(is_watch, excluded.is_watch),
                name_bytes = max(coalesce(name_bytes, 0), coalesce(excluded.name_bytes, 0))
            """)
            .bind(.integer(delivery), .integer(id), .string(writer.appName), .string(writer.bundleIdentifier),
                  .string(writer.productType), .real(asOf), .bool(isWatch), .int64(writer.nameBytes.map(Int64.init)))
            .run()
    }

    // MARK: - What a delivery takes from others, kept aside

    /// Keeps aside, under this delivery, older snapshots' copies it is about to delete (their row ids).
    func setAside(copies ids: [Int64]) throws(StoreError) {
        let insert = try db.statement("""
            INSERT OR REPLACE INTO displaced_sample(by_delivery, layer_id, store, as_of, first_as_of, \(SampleRow.columns))
            SELECT ?, layer_id, store, as_of, first_as_of, \(SampleRow.columns) FROM sample WHERE id = ?
            """)
        for id in ids {
            insert.reset()
            try insert.bind(.integer(delivery), .integer(id)).run()
        }
    }

    /// Keeps aside this road's copy `row`, which a newer snapshot of its stream (road `newer`) holds with the same
    /// value and so keeps from being stored: under the newer one's delivery, which gives it back when forgotten.
    func setAside(incoming row: SampleRow, heldBy newer: Int64) throws(StoreError) {
        try db.statement("""
            INSERT OR REPLACE INTO displaced_sample(by_delivery, layer_id, store, as_of, first_as_of, \(SampleRow.columns))
            VALUES (?, ?, ?, ?4, ?4, \(Array(repeating: "?", count: SampleRow.columnNames.count).joined(separator: ", ")))
            """)
            .bind([.integer(try database.deliveryOf(layer: newer) ?? 0), .integer(deliveryLayer),
                   .text(batch.store.rawValue), .real(asOf)] + row.bindings)
            .run()
    }

    /// Keeps aside, under this delivery, the heart rate `condition` selects from other roads before it is deleted;
    /// `values` bind the condition's parameters (at most eight, `?1`…`?8`).
    func setAsideHeartRate(where condition: String, _ values: [SQLValue]) throws(StoreError) {
        try db.statement("""
            INSERT OR REPLACE INTO displaced_heart_rate(by_delivery, layer_id, writer_id, day, record_key, as_of, not_set,
                                                        sedentary, active, sedentary_min, sedentary_histogram)
            SELECT ?9, layer_id, writer_id, day, record_key, as_of, not_set, sedentary, active, sedentary_min,
                   sedentary_histogram
            FROM heart_rate WHERE \(condition)
            """)
            .bind(values + Array(repeating: .null, count: 8 - values.count) + [.integer(delivery)]).run()
    }

    /// Keeps aside this road's summary of a writer's day, which another delivery (`by`) keeps from being stored: a
    /// newer snapshot covering the day, or a deletion seen after this road read the record.
    func setAsideHeartRate(_ key: HeartRateKey, _ summary: HeartRateDaySummary, by: Int64) throws(StoreError) {
        try db.statement("""
            INSERT OR REPLACE INTO displaced_heart_rate(by_delivery, layer_id, writer_id, day, record_key, as_of, not_set,
                                                        sedentary, active, sedentary_min, sedentary_histogram)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
            .bind(.integer(by), .integer(deliveryLayer), .integer(key.writer), .integer(key.day), .text(key.record),
                  .real(asOf), .integer(Int64(summary.notSet)), .integer(Int64(summary.sedentary)),
                  .integer(Int64(summary.active)), .double(summary.sedentaryMin), .text(summary.histogramText))
            .run()
    }

    /// The delivery whose deletion of `key` is the latest seen (0: one from before the list of deliveries).
    func deletingDelivery(_ key: String) throws(StoreError) -> Int64 {
        let select = try db.statement("""
            SELECT delivery_id FROM tombstone_seen WHERE store = ? AND key = ? ORDER BY at DESC, delivery_id LIMIT 1
            """)
        select.bind(.text(batch.store.rawValue), .text(key))
        return try select.step() ? select.int(try select.column("delivery_id")) : 0
    }

    /// This snapshot speaks for its period over older snapshots of its stream: what they keep aside there under
    /// other deliveries would be displaced again by this one, were those forgotten, so only the newest word is kept
    /// (one generation of weekly exports, `DeliverySchema.swift`). A copy counts as displaced again where this road
    /// holds it with the same value; heart rate, where this road covers its day.
    func dropDisplacedAgain(stream: StreamRow, _ snapshot: SyncBatch.Snapshot) throws(StoreError) {
        let older = "SELECT id FROM layer WHERE stream_id = ?1 AND snapshot = 1 AND as_of < ?2"
        if snapshot.coversResting {
            let select = try db.statement("""
                SELECT x.id AS id, x.value AS old_value, x.unit AS old_unit, n.value AS new_value, n.unit AS new_unit
                FROM displaced_sample x JOIN sample n ON n.store = x.store AND n.identity = x.identity AND n.layer_id = ?3
                WHERE x.by_delivery <> ?4 AND x.layer_id IN (\(older))
                  AND (?5 IS NULL OR x.start >= ?5) AND (?6 IS NULL OR x.start <= ?6)
                """)
            select.bind(.integer(stream.id), .real(asOf), .integer(deliveryLayer), .integer(delivery),
                        .double(snapshot.from?.epochSeconds), .double(snapshot.to?.epochSeconds))
            let again = try SampleRow.sameValueIDs(select)
            let delete = try db.statement("DELETE FROM displaced_sample WHERE id = ?")
            for rowID in again {
                delete.reset()
                try delete.bind(.integer(rowID)).run()
            }
        }
        if snapshot.coversHeartRate {
            try db.statement("""
                DELETE FROM displaced_heart_rate WHERE by_delivery <> ?3 AND layer_id IN (\(older))
                  AND (?4 IS NULL OR day >= ?4) AND (?5 IS NULL OR day <= ?5)
                """)
                .bind(.integer(stream.id), .real(asOf), .integer(delivery),
                      .int64(snapshot.from.map { Int64($0.localDay.daysSinceEpoch) }),
                      .int64(snapshot.to.map { Int64($0.localDay.daysSinceEpoch) }))
                .run()
        }
    }
}

extension HealthDatabase {
    /// The delivery that brought a road (the first, where files of one instant share it); nil for none.
    func deliveryOf(layer: Int64) throws(StoreError) -> Int64? {
        let select = try db.statement("SELECT min(delivery_id) AS id FROM delivery_road WHERE layer_id = ?")
        select.bind(.integer(layer))
        return try select.step() ? select.optionalInt(try select.column("id")) : nil
    }

    /// Links a batch's passed-over records (R14) to its delivery, and counts them on its road.
    func notePassedOver(of batch: SyncBatch, delivery: Int64, layer: Int64) throws(StoreError) {
        guard !batch.passedOver.records.isEmpty else { return }
        let link = try db.statement("""
            INSERT OR IGNORE INTO passed_over_delivery(passed_over_id, delivery_id)
            SELECT id, ?6 FROM passed_over WHERE store = ?1 AND stream = ?2 AND source = ?3 AND place = ?4 AND reason = ?5
            """)
        for record in batch.passedOver.records {
            link.reset()
            try link.bind(.text(batch.store.rawValue), .text(batch.stream), .text(batch.passedOver.source),
                          .text(record.place), .text(record.reason), .integer(delivery)).run()
        }
        try db.statement("UPDATE delivery_road SET passed_over = passed_over + ? WHERE layer_id = ? AND delivery_id = ?")
            .bind(.integer(Int64(batch.passedOver.total)), .integer(layer), .integer(delivery)).run()
    }
}
