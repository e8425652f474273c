import Foundation
import RHRCore

extension HealthDatabase {
    /// Runs `body`'s queries in one read transaction: in WAL mode every query in it sees the same state of the
    /// store (the snapshot the first one opened), however many writes other connections commit meanwhile.
    /// `read { tx in (try tx.samples(), try tx.streams(), try tx.revision()) }` never mixes two states.
    public func read<T>(_ body: (StoreSnapshot) throws(StoreError) -> T) throws(StoreError) -> T {
        try db.read { () throws(StoreError) -> T in try body(StoreSnapshot(db: db)) }
    }

    // Each query alone, in a read transaction of its own.

    /// The store's revision: it grows by one for every batch that changed something.
    public func revision() throws(StoreError) -> Int64 { try read { tx throws(StoreError) in try tx.revision() } }

    public func samples(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [DaySample] {
        try read { tx throws(StoreError) in try tx.samples(from: from, to: to) }
    }

    public func days(from: LocalDay? = nil, to: LocalDay? = nil, aggregation: Aggregation) throws(StoreError) -> [DayValue] {
        try read { tx throws(StoreError) in try tx.days(from: from, to: to, aggregation: aggregation) }
    }

    public func revisions(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [RevisionEntry] {
        try read { tx throws(StoreError) in try tx.revisions(from: from, to: to) }
    }

    public func heartRateDays(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [HeartRateDaySummary] {
        try read { tx throws(StoreError) in try tx.heartRateDays(from: from, to: to) }
    }

    public func contents(heartRate days: [HeartRateDaySummary]? = nil) throws(StoreError) -> [StoreContents] {
        try read { tx throws(StoreError) in try tx.contents(heartRate: days) }
    }

    public func streams() throws(StoreError) -> [StreamState] { try read { tx throws(StoreError) in try tx.streams() } }

    public func writers() throws(StoreError) -> [(writer: Writer, isAppleWatch: Bool)] {
        try read { tx throws(StoreError) in try tx.writers() }
    }

    /// The revision inside a transaction the caller holds.
    func currentRevision() throws(StoreError) -> Int64 { try StoreSnapshot(db: db).revision() }
}

/// The store's queries, inside one read transaction (`HealthDatabase.read`): whatever they are asked, they
/// answer from one snapshot of the store. Only valid inside the `read` that made it.
public struct StoreSnapshot {
    let db: SQLiteConnection

    /// The store's revision: it grows by one for every batch that changed something.
    public func revision() throws(StoreError) -> Int64 {
        let select = try db.statement("SELECT value FROM meta WHERE key = 'revision'")
        return try select.step() ? Int64(select.text(try select.column("value"))) ?? 0 : 0
    }

    /// Every road's standing copy of every resting sample whose local day is in the range, placed on its day, with
    /// its road and flags (R3 by its road's `asOf`, R5, R6, R13); by day, then as stored. Which road decides a
    /// writer's day (R12) is `DaySeries.standing`'s business, and R7 `DaySeries`'s, not the query's.
    public func samples(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [DaySample] {
        let writers = try loadWriters()
        let layers = try loadLayers()
        let select = try db.statement("""
            SELECT s.store, s.layer_id, s.as_of AS delivered, s.first_as_of AS first_delivered, \(SampleRow.qualifiedColumns)
            FROM sample s
            WHERE s.day >= ? AND s.day <= ? AND s.current = 1
            ORDER BY s.day, s.id
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let storeColumn = try select.column("store"), layerColumn = try select.column("layer_id"),
            delivered = try select.column("delivered"), firstDelivered = try select.column("first_delivered"),
            columns = try SampleRow.Columns(select)
        var result: [DaySample] = []
        // A phone feed's road speaks for a writer's day as of its newest word about it (R12): its copies are placed
        // once all of the day's are read.
        var phoneCopies: [(index: Int, layer: LayerEntry, writer: WriterEntry)] = []
        var phoneWords: [LayerWriterDay: Double] = [:]
        while try select.step() {
            let row = SampleRow(select, columns)
            let layerID = select.int(layerColumn)
            guard let store = HealthStore(rawValue: select.text(storeColumn)), let writer = writers[row.writerID],
                  let layer = layers[layerID] else { continue }
            let day = LocalDay(daysSinceEpoch: Int(row.day))
            let sample = row.sample(store: store, writer: writer.writer)
            let deliveredAt = select.double(delivered)
            let provisional = ProvisionalRule.isProvisional(store: store, writerIsWatch: writer.mayBeWatch, day: day, asOf: layer.road.asOf!)
            let implausible = !PlausibleTimeRule.isPlausible(
                start: sample.start, end: sample.end, asOf: Timestamp(epochSeconds: deliveredAt, offsetSeconds: 0))
            if layer.byDay {
                phoneCopies.append((result.count, layer, writer))
                let key = LayerWriterDay(layer: layerID, writer: row.writerID, day: row.day)
                phoneWords[key] = max(phoneWords[key] ?? deliveredAt, deliveredAt)
            }
            result.append(DaySample(sample: sample, day: day, offsetAssumed: row.offsetAssumed, provisional: provisional,
                                    asOf: layer.road.asOf, stream: layer.road.stream, snapshot: layer.road.snapshot,
                                    implausibleDate: implausible,
                                    firstReceived: select.optionalDouble(firstDelivered).map {
                                        Timestamp(epochSeconds: $0, offsetSeconds: layer.road.asOf?.offsetSeconds ?? 0)
                                    }))
        }
        for (i, layer, writer) in phoneCopies {
            let s = result[i]
            let key = LayerWriterDay(layer: layer.id, writer: writer.id, day: Int64(s.day.daysSinceEpoch))
            let road = layer.road(dayAsOf: phoneWords[key])
            result[i].asOf = road.asOf
            result[i].provisional = ProvisionalRule.isProvisional(store: s.sample.store, writerIsWatch: writer.mayBeWatch,
                                                                  day: s.day, asOf: road.asOf!)
        }
        return result
    }

    /// One value per writer and day under `aggregation` (R7, through `DaySeries`), by day, store and writer.
    public func days(from: LocalDay? = nil, to: LocalDay? = nil, aggregation: Aggregation) throws(StoreError) -> [DayValue] {
        DaySeries(try samples(from: from, to: to)).values(by: aggregation)
    }

    /// Deleted, replaced and superseded values (R4, R12), in `RevisionEntry.precedes` order: each road's own
    /// history, and what each road's copies say against the road that decides (`StoreHistory`).
    public func revisions(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [RevisionEntry] {
        try StoreHistory(snapshot: self, from: from, to: to).entries()
    }

    /// Heart-rate summaries per writer and day (R8), never summed across roads (R12): the road that decides the
    /// writer's resting values of the day gives them when it has heart rate that day, else the freshest road that has.
    /// Days of implausible time (R13) are left out.
    public func heartRateDays(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [HeartRateDaySummary] {
        let writers = try loadWriters()
        let layers = try loadLayers()
        let select = try db.statement("""
            SELECT h.layer_id AS layer_id, h.writer_id AS writer_id, h.day AS day, sum(h.not_set) AS not_set,
                   sum(h.sedentary) AS sedentary, sum(h.active) AS active, min(h.sedentary_min) AS sedentary_min,
                   group_concat(h.sedentary_histogram) AS sedentary_histogram, max(h.as_of) AS delivered
            FROM heart_rate h
            WHERE h.day >= ? AND h.day <= ?
            GROUP BY h.layer_id, h.writer_id, h.day
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let layerID = try select.column("layer_id"), writerID = try select.column("writer_id"), day = try select.column("day"),
            notSet = try select.column("not_set"), sedentary = try select.column("sedentary"),
            active = try select.column("active"), sedentaryMin = try select.column("sedentary_min"),
            histogram = try select.column("sedentary_histogram"), delivered = try select.column("delivered")
        var candidates: [WriterDay: [(layer: Int64, road: Road, summary: HeartRateDaySummary)]] = [:]
        while try select.step() {
            guard let writer = writers[select.int(writerID)], let layer = layers[select.int(layerID)] else { continue }
            let key = WriterDay(writer: select.int(writerID), day: select.int(day))
            let road = layer.road(dayAsOf: select.double(delivered))
            // R13: a day no plausible sample has (before 2000, or after the road read it) is kept, not shown.
            guard PlausibleTimeRule.isPlausible(day: LocalDay(daysSinceEpoch: Int(key.day)), asOf: road.asOf) else { continue }
            candidates[key, default: []].append((layer.id, road, HeartRateDaySummary(
                writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(key.day)), notSet: Int(select.int(notSet)),
                sedentary: Int(select.int(sedentary)), active: Int(select.int(active)),
                sedentaryMin: select.optionalDouble(sedentaryMin),
                sedentaryHistogram: HeartRateDaySummary.histogram(fromUTF8: select.bytes(histogram)))))
        }
        // Where several roads have heart rate for a writer's day: the one deciding its resting values, if among them.
        let contested = candidates.contains { $0.value.count > 1 }
        let resting = contested ? try restingRoads(from: from, to: to, layers: layers, contestedOnly: false) : [:]
        var result: [HeartRateDaySummary] = []
        result.reserveCapacity(candidates.count)
        for (key, options) in candidates {
            if options.count == 1 { result.append(options[0].summary); continue }
            let decides = resting[key].flatMap { Road.deciding($0, road: \.road)?.layer }
            let chosen = options.first { $0.layer == decides } ?? Road.deciding(options, road: \.road)!
            result.append(chosen.summary)
        }
        // By day, then store and writer.
        return result.sorted { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
    }

    /// A writer's day, by row ids.
    struct WriterDay: Hashable {
        var writer: Int64
        var day: Int64
    }

    /// One road's rows of a writer's day, by row ids.
    struct LayerWriterDay: Hashable {
        var layer: Int64
        var writer: Int64
        var day: Int64
    }

    /// One road's standing resting copies of a writer's day: how many, and the road as it speaks for the day (R12).
    struct HeldRoad {
        var layer: Int64
        var road: Road
        var samples: Int
    }

    /// The roads holding standing resting copies of each writer's day in the range, for `Road.deciding` to decide
    /// between (R12); only the days several roads hold when `contestedOnly`.
    private func restingRoads(from: LocalDay?, to: LocalDay?, layers: [Int64: LayerEntry],
                              contestedOnly: Bool) throws(StoreError) -> [WriterDay: [HeldRoad]] {
        let select = try db.statement(contestedOnly ? """
            WITH contested AS (
                SELECT writer_id, day FROM sample WHERE day >= ?1 AND day <= ?2 AND current = 1
                GROUP BY writer_id, day HAVING count(DISTINCT layer_id) > 1)
            SELECT s.writer_id AS writer_id, s.day AS day, s.layer_id AS layer_id, count(*) AS samples,
                   max(s.as_of) AS delivered
            FROM contested c JOIN sample s ON s.writer_id = c.writer_id AND s.day = c.day AND s.current = 1
            GROUP BY s.writer_id, s.day, s.layer_id
            """ : """
            SELECT writer_id, day, layer_id, count(*) AS samples, max(as_of) AS delivered FROM sample
            WHERE day >= ?1 AND day <= ?2 AND current = 1
            GROUP BY writer_id, day, layer_id
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let writer = try select.column("writer_id"), day = try select.column("day"), layer = try select.column("layer_id"),
            count = try select.column("samples"), delivered = try select.column("delivered")
        var result: [WriterDay: [HeldRoad]] = [:]
        while try select.step() {
            guard let road = layers[select.int(layer)]?.road(dayAsOf: select.double(delivered)) else { continue }
            result[WriterDay(writer: select.int(writer), day: select.int(day)), default: []]
                .append(HeldRoad(layer: select.int(layer), road: road, samples: Int(select.int(count))))
        }
        return result
    }

    /// What each store holds, for the empty state (R9) and `rhr status`: the resting samples that stand (those of
    /// the road deciding each writer's day, R12) and the heart-rate samples `heartRateDays` gives, tallied by
    /// `StoreContents.tally`. Always one entry per store. A reader that has read `heartRateDays()` in this snapshot
    /// already hands them in, so they are not grouped again.
    public func contents(heartRate days: [HeartRateDaySummary]? = nil) throws(StoreError) -> [StoreContents] {
        let writers = try loadWriters()
        let layers = try loadLayers()
        // Every standing copy counts, less those of the roads that stand aside on days several roads hold.
        let totals = try db.statement("SELECT writer_id, count(*) AS samples FROM sample WHERE current = 1 GROUP BY writer_id")
        let totalWriter = try totals.column("writer_id"), totalCount = try totals.column("samples")
        var restingCounts: [Int64: Int] = [:]
        while try totals.step() { restingCounts[totals.int(totalWriter)] = Int(totals.int(totalCount)) }
        for (key, held) in try restingRoads(from: nil, to: nil, layers: layers, contestedOnly: true) {
            let deciding = Road.deciding(held, road: \.road)!.road
            for h in held where h.road != deciding { restingCounts[key.writer, default: 0] -= h.samples }
        }
        var heartRateCounts: [WriterKey: (writer: Writer, samples: Int)] = [:]
        var heartRate = days ?? []
        if days == nil { heartRate = try heartRateDays() }
        for day in heartRate { heartRateCounts[day.writer.key, default: (day.writer, 0)].samples += day.total }
        return StoreContents.tally(
            resting: restingCounts.compactMap { id, n in writers[id].map { ($0.writer, n) } },
            heartRate: Array(heartRateCounts.values))
    }

    /// Every stream the store has heard from, by store and name.
    public func streams() throws(StoreError) -> [StreamState] {
        var streams = try loadStreams()
        try addNewestDays(&streams)
        return streams.values.sorted { ($0.store, $0.stream) < ($1.store, $1.stream) }
    }

    /// The writers the store knows, with whether each counts as an Apple Watch (R3).
    public func writers() throws(StoreError) -> [(writer: Writer, isAppleWatch: Bool)] {
        try loadWriters().values.sorted { $0.writer < $1.writer }.map { ($0.writer, $0.isWatch) }
    }

    /// The writers the store marks as an Apple Watch (R3; the derivation registry's Apple entry, R15).
    public func watchWriters() throws(StoreError) -> Set<WriterKey> {
        Set(try loadWriters().values.filter(\.isWatch).map(\.writer.key))
    }

    // MARK: - Lookups

    /// A day range as two bounds, so the day indexes serve every query (no `? IS NULL OR …`).
    static func dayBounds(_ from: LocalDay?, _ to: LocalDay?) -> [SQLValue] {
        [.integer(from.map { Int64($0.daysSinceEpoch) } ?? Int64.min), .integer(to.map { Int64($0.daysSinceEpoch) } ?? Int64.max)]
    }

    struct WriterEntry {
        var id: Int64
        var writer: Writer
        /// The store's mark: known for an Apple Watch (R3), what labels and derivations go by.
        var isWatch: Bool

        /// Whether R3 takes its values for a watch's, which may still be replaced (`ProvisionalRule.mayBeWatch`).
        var mayBeWatch: Bool { ProvisionalRule.mayBeWatch(writer.key, isWatch: isWatch) }
    }

    func loadWriters() throws(StoreError) -> [Int64: WriterEntry] {
        let select = try db.statement("""
            SELECT id, store, name, app_name, bundle_identifier, product_type, is_watch, nullif(name_bytes, 0) AS name_bytes
            FROM writer
            """)
        let name = try select.column("name"), appName = try select.column("app_name"),
            bundle = try select.column("bundle_identifier"), productType = try select.column("product_type"),
            isWatch = try select.column("is_watch"), nameBytes = try select.column("name_bytes")
        return try Self.byID(select) { id, store in
            let writer = Writer(store: store, name: select.text(name), appName: select.optionalText(appName),
                                bundleIdentifier: select.optionalText(bundle), productType: select.optionalText(productType),
                                nameBytes: select.optionalInt(nameBytes).map { Int($0) })
            return WriterEntry(id: id, writer: writer, isWatch: select.int(isWatch) != 0)
        }
    }

    /// Each row of a `writer` or `stream` select by its `id`, made by `row` from the row's store; a row whose
    /// `store` names no store this rhr knows (a later rhr's) is left out.
    private static func byID<Entry>(_ select: SQLiteStatement,
                                    _ row: (Int64, HealthStore) -> Entry) throws(StoreError) -> [Int64: Entry] {
        let id = try select.column("id"), storeColumn = try select.column("store")
        var result: [Int64: Entry] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(storeColumn)) else { continue }
            result[select.int(id)] = row(select.int(id), store)
        }
        return result
    }

    /// A road as the store keeps it (docs/design.md R12): a live stream's state or one export's snapshot.
    struct LayerEntry {
        var id: Int64
        var road: Road
        var store: HealthStore
        var streamID: Int64
        var origin: String
        /// The period a snapshot covers (nil: unbounded), as instants and as days, and what it covers.
        var from, to: Double?
        var fromDay, toDay: Int64?
        var coversResting, coversHeartRate: Bool
        /// A phone feed's road (docs/design.md section 4b): it knows each day as of the last request that carried it.
        var byDay: Bool

        /// The road as it speaks for one writer's day (R12, `Road.speaking`), `dayAsOf` being the newest `as_of` of its
        /// rows of that day.
        func road(dayAsOf: Double?) -> Road { road.speaking(forDayAsOf: dayAsOf, byDay: byDay) }

        /// Whether it speaks for a resting sample that starts at `start`.
        func covers(_ start: Double) -> Bool {
            coversResting && (from.map { start >= $0 } ?? true) && (to.map { start <= $0 } ?? true)
        }

        /// Whether it speaks for a day's heart rate.
        func covers(day: Int64) -> Bool {
            coversHeartRate && (fromDay.map { day >= $0 } ?? true) && (toDay.map { day <= $0 } ?? true)
        }

        /// Whether it is a snapshot of `stream` read after `asOf`: one that speaks over an older snapshot (R4).
        func isNewerSnapshot(of stream: Int64, than asOf: Double) -> Bool {
            road.snapshot && streamID == stream && (road.asOf?.epochSeconds ?? -.infinity) > asOf
        }
    }

    func loadLayers() throws(StoreError) -> [Int64: LayerEntry] {
        let select = try db.statement("""
            SELECT l.id, l.snapshot, l.as_of, l.as_of_offset, l.from_at, l.to_at, l.from_day, l.to_day, l.covers_resting,
                   l.covers_heart_rate, l.origin, l.by_day, l.stream_id, st.name, st.store
            FROM layer l JOIN stream st ON st.id = l.stream_id
            """)
        let id = try select.column("id"), snapshot = try select.column("snapshot"), asOf = try select.column("as_of"),
            offset = try select.column("as_of_offset"), from = try select.column("from_at"), to = try select.column("to_at"),
            fromDay = try select.column("from_day"), toDay = try select.column("to_day"),
            coversResting = try select.column("covers_resting"), coversHeartRate = try select.column("covers_heart_rate"),
            origin = try select.column("origin"), byDay = try select.column("by_day"),
            streamID = try select.column("stream_id"), name = try select.column("name"), storeColumn = try select.column("store")
        var result: [Int64: LayerEntry] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(storeColumn)) else { continue }
            let road = Road(stream: select.text(name),
                            asOf: Timestamp(epochSeconds: select.double(asOf), offsetSeconds: Int(select.int(offset))),
                            snapshot: select.int(snapshot) != 0)
            result[select.int(id)] = LayerEntry(id: select.int(id), road: road, store: store, streamID: select.int(streamID),
                                                origin: select.text(origin), from: select.optionalDouble(from),
                                                to: select.optionalDouble(to), fromDay: select.optionalInt(fromDay),
                                                toDay: select.optionalInt(toDay), coversResting: select.int(coversResting) != 0,
                                                coversHeartRate: select.int(coversHeartRate) != 0,
                                                byDay: select.int(byDay) != 0)
        }
        return result
    }

    func loadStreams() throws(StoreError) -> [Int64: StreamState] {
        let select = try db.statement("""
            SELECT id, store, name, cursor, as_of, as_of_offset, origin, permissions, revision, app_priority FROM stream
            """)
        let name = try select.column("name"), cursor = try select.column("cursor"),
            asOfColumn = try select.column("as_of"), asOfOffset = try select.column("as_of_offset"),
            origin = try select.column("origin"), permissionsColumn = try select.column("permissions"),
            revision = try select.column("revision"), priority = try select.column("app_priority")
        return try Self.byID(select) { _, store in
            let asOf = select.optionalDouble(asOfColumn).map {
                Timestamp(epochSeconds: $0, offsetSeconds: Int(select.optionalInt(asOfOffset) ?? 0))
            }
            let permissions = select.optionalText(permissionsColumn).map {
                $0.isEmpty ? [] : $0.split(separator: "\n").map(String.init)
            }
            return StreamState(store: store, stream: select.text(name), cursor: select.optionalText(cursor),
                               asOf: asOf, origin: select.text(origin), grantedPermissions: permissions,
                               revision: select.int(revision), appPriority: AppPriority(column: select.optionalText(priority)))
        }
    }
}
