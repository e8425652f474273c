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

    public func contents() throws(StoreError) -> [StoreContents] { try read { tx throws(StoreError) in try tx.contents() } }

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

    /// Every resting sample whose local day is in the range, placed on its day, with its flags (R3, R5, R6); by
    /// day, then as stored (`DaySeries` puts them in its own order, and R7 is its business, not the query's).
    public func samples(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [DaySample] {
        let writers = try loadWriters()
        let streams = try loadStreams()
        // R3 is judged against the newest read of any road that delivered the sample.
        let links = try db.statement("""
            SELECT ss.sample_id, ss.stream_id FROM sample s CROSS JOIN sample_stream ss ON ss.sample_id = s.id
            WHERE s.day >= ? AND s.day <= ?
            """)
        links.bind(StoreSnapshot.dayBounds(from, to))
        let linkSample = try links.column("sample_id"), linkStream = try links.column("stream_id")
        var newestStream: [Int64: Int64] = [:]
        while try links.step() {
            let sample = links.int(linkSample), stream = links.int(linkStream)
            if let known = newestStream[sample],
               (streams[known]?.asOf?.epochSeconds ?? -.infinity, -known)
                >= (streams[stream]?.asOf?.epochSeconds ?? -.infinity, -stream) { continue }
            newestStream[sample] = stream
        }
        let select = try db.statement("""
            SELECT s.store, s.id, \(SampleRow.qualifiedColumns)
            FROM sample s
            WHERE s.day >= ? AND s.day <= ?
            ORDER BY s.day, s.id
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let storeColumn = try select.column("store"), id = try select.column("id"), columns = try SampleRow.Columns(select)
        var result: [DaySample] = []
        while try select.step() {
            let row = SampleRow(select, columns)
            guard let store = HealthStore(rawValue: select.text(storeColumn)), let writer = writers[row.writerID] else { continue }
            let stream = newestStream[select.int(id)].flatMap { streams[$0] }
            let day = LocalDay(daysSinceEpoch: Int(row.day))
            let provisional = stream?.asOf.map {
                ProvisionalRule.isProvisional(store: store, writerIsWatch: writer.isWatch, day: day, asOf: $0)
            } ?? false
            result.append(DaySample(sample: row.sample(store: store, writer: writer.writer), day: day,
                                    offsetAssumed: row.offsetAssumed, provisional: provisional,
                                    asOf: stream?.asOf, stream: stream?.stream ?? ""))
        }
        return result
    }

    /// One value per writer and day under `aggregation` (R7, through `DaySeries`), by day, store and writer.
    public func days(from: LocalDay? = nil, to: LocalDay? = nil, aggregation: Aggregation) throws(StoreError) -> [DayValue] {
        DaySeries(try samples(from: from, to: to)).values(by: aggregation)
    }

    /// Deleted and replaced values (R4), oldest first.
    public func revisions(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [RevisionEntry] {
        let writers = try loadWriters()
        let select = try db.statement("""
            SELECT writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm, at, at_offset, origin
            FROM revision WHERE day >= ? AND day <= ?
            ORDER BY at, id
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let writerID = try select.column("writer_id"), day = try select.column("day"), identity = try select.column("identity"),
            oldValue = try select.column("old_value"), unitColumn = try select.column("unit"),
            wasProvisional = try select.column("was_provisional"), reasonColumn = try select.column("reason"),
            replacedBy = try select.column("replaced_by_bpm"), at = try select.column("at"),
            atOffset = try select.column("at_offset"), origin = try select.column("origin")
        var result: [RevisionEntry] = []
        while try select.step() {
            guard let writer = writers[select.int(writerID)],
                  let reason = RevisionReason(rawValue: select.text(reasonColumn)) else { continue }
            let value = select.optionalDouble(oldValue) ?? .nan
            let unit = select.text(unitColumn)
            result.append(RevisionEntry(
                writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(select.int(day))), identity: select.text(identity),
                oldBPM: try? RestingValue.bpm(value: value, unit: unit), oldValue: value, unit: unit,
                wasProvisional: select.int(wasProvisional) != 0, reason: reason, replacedByBPM: select.optionalDouble(replacedBy),
                at: Timestamp(epochSeconds: select.double(at), offsetSeconds: Int(select.int(atOffset))),
                origin: select.text(origin)))
        }
        return result
    }

    /// Heart-rate summaries per writer and day (R8). Where several roads delivered the same writer's day,
    /// the road with the most samples speaks for it, so nothing is counted twice.
    public func heartRateDays(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [HeartRateDaySummary] {
        let writers = try loadWriters()
        let select = try db.statement("""
            WITH \(StoreSnapshot.speakingStreams)
            SELECT h.writer_id AS writer_id, h.day AS day, sum(h.not_set) AS not_set, sum(h.sedentary) AS sedentary,
                   sum(h.active) AS active, min(h.sedentary_min) AS sedentary_min,
                   group_concat(h.sedentary_histogram) AS sedentary_histogram
            FROM heart_rate h JOIN speaking p ON p.writer_id = h.writer_id AND p.day = h.day AND p.stream_id = h.stream_id
            GROUP BY h.writer_id, h.day
            ORDER BY h.day
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let writerID = try select.column("writer_id"), day = try select.column("day"), notSet = try select.column("not_set"),
            sedentary = try select.column("sedentary"), active = try select.column("active"),
            sedentaryMin = try select.column("sedentary_min"), histogram = try select.column("sedentary_histogram")
        var result: [HeartRateDaySummary] = []
        while try select.step() {
            guard let writer = writers[select.int(writerID)] else { continue }
            result.append(HeartRateDaySummary(
                writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(select.int(day))), notSet: Int(select.int(notSet)),
                sedentary: Int(select.int(sedentary)), active: Int(select.int(active)),
                sedentaryMin: select.optionalDouble(sedentaryMin),
                sedentaryHistogram: HeartRateDaySummary.histogram(fromUTF8: select.bytes(histogram))))
        }
        // Same day: by store and writer.
        return result.sorted { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
    }

    /// For each writer and day in the range (bound as ?1 low, ?2 high), the stream whose summaries hold the most
    /// samples; ties go to the older stream.
    static let speakingStreams = """
        totals AS (
            SELECT stream_id, writer_id, day, sum(not_set + sedentary + active) AS total FROM heart_rate
            WHERE day >= ?1 AND day <= ?2
            GROUP BY stream_id, writer_id, day),
        speaking AS (
            SELECT writer_id, day, stream_id, total FROM totals t
            WHERE NOT EXISTS (SELECT 1 FROM totals u WHERE u.writer_id = t.writer_id AND u.day = t.day
                              AND (u.total > t.total OR (u.total = t.total AND u.stream_id < t.stream_id))))
        """

    /// What each store holds, for the empty state (R9) and `rhr status`: the resting samples of each writer and
    /// the heart-rate samples of the roads that speak for each writer's days, tallied by `StoreContents.tally`.
    /// Always one entry per store.
    public func contents() throws(StoreError) -> [StoreContents] {
        let writers = try loadWriters()
        let resting = try db.statement("SELECT writer_id, count(*) AS samples FROM sample GROUP BY writer_id")
        let restingWriter = try resting.column("writer_id"), restingCount = try resting.column("samples")
        var restingCounts: [(writer: Writer, samples: Int)] = []
        while try resting.step() {
            guard let writer = writers[resting.int(restingWriter)] else { continue }
            restingCounts.append((writer.writer, Int(resting.int(restingCount))))
        }
        let heartRate = try db.statement("""
            WITH \(StoreSnapshot.speakingStreams)
            SELECT writer_id, sum(total) AS samples FROM speaking GROUP BY writer_id
            """)
        heartRate.bind(StoreSnapshot.dayBounds(nil, nil))
        let heartRateWriter = try heartRate.column("writer_id"), heartRateCount = try heartRate.column("samples")
        var heartRateCounts: [(writer: Writer, samples: Int)] = []
        while try heartRate.step() {
            guard let writer = writers[heartRate.int(heartRateWriter)] else { continue }
            heartRateCounts.append((writer.writer, Int(heartRate.int(heartRateCount))))
        }
        return StoreContents.tally(resting: restingCounts, heartRate: heartRateCounts)
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

    // MARK: - Lookups

    /// A day range as two bounds, so the day indexes serve every query (no `? IS NULL OR …`).
    static func dayBounds(_ from: LocalDay?, _ to: LocalDay?) -> [SQLValue] {
        [.integer(from.map { Int64($0.daysSinceEpoch) } ?? Int64.min), .integer(to.map { Int64($0.daysSinceEpoch) } ?? Int64.max)]
    }

    struct WriterEntry {
        var writer: Writer
        var isWatch: Bool
    }

    func loadWriters() throws(StoreError) -> [Int64: WriterEntry] {
        let select = try db.statement("SELECT id, store, name, app_name, bundle_identifier, product_type, is_watch FROM writer")
        let id = try select.column("id"), storeColumn = try select.column("store"), name = try select.column("name"),
            appName = try select.column("app_name"), bundle = try select.column("bundle_identifier"),
            productType = try select.column("product_type"), isWatch = try select.column("is_watch")
        var result: [Int64: WriterEntry] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(storeColumn)) else { continue }
            let writer = Writer(store: store, name: select.text(name), appName: select.optionalText(appName),
                                bundleIdentifier: select.optionalText(bundle), productType: select.optionalText(productType))
            result[select.int(id)] = WriterEntry(writer: writer, isWatch: select.int(isWatch) != 0)
        }
        return result
    }

    func loadStreams() throws(StoreError) -> [Int64: StreamState] {
        let select = try db.statement("SELECT id, store, name, cursor, as_of, as_of_offset, origin, permissions, revision FROM stream")
        let id = try select.column("id"), storeColumn = try select.column("store"), name = try select.column("name"),
            cursor = try select.column("cursor"), asOfColumn = try select.column("as_of"),
            asOfOffset = try select.column("as_of_offset"), origin = try select.column("origin"),
            permissionsColumn = try select.column("permissions"), revision = try select.column("revision")
        var result: [Int64: StreamState] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(storeColumn)) else { continue }
            let asOf = select.optionalDouble(asOfColumn).map {
                Timestamp(epochSeconds: $0, offsetSeconds: Int(select.optionalInt(asOfOffset) ?? 0))
            }
            let permissions = select.optionalText(permissionsColumn).map {
                $0.isEmpty ? [] : $0.split(separator: "\n").map(String.init)
            }
            result[select.int(id)] = StreamState(store: store, stream: select.text(name), cursor: select.optionalText(cursor),
                                                 asOf: asOf, origin: select.text(origin), grantedPermissions: permissions,
                                                 revision: select.int(revision))
        }
        return result
    }
}
