import Foundation
import RHRCore

extension HealthDatabase {
    /// Every resting sample whose local day is in the range, placed on its day, with its flags (R3, R5, R6).
    public func samples(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [DaySample] {
        try db.read { () throws(StoreError) -> [DaySample] in
            let writers = try loadWriters()
            let streams = try loadStreams()
            // R3 is judged against the newest read of any road that delivered the sample.
            let links = try db.statement("""
                SELECT ss.sample_id, ss.stream_id FROM sample s CROSS JOIN sample_stream ss ON ss.sample_id = s.id
                WHERE s.day >= ? AND s.day <= ?
                """)
            links.bind(HealthDatabase.dayBounds(from, to))
            var newestStream: [Int64: Int64] = [:]
            while try links.step() {
                let sample = links.int(0), stream = links.int(1)
                if let known = newestStream[sample],
                   (streams[known]?.asOf?.epochSeconds ?? -.infinity, -known)
                    >= (streams[stream]?.asOf?.epochSeconds ?? -.infinity, -stream) { continue }
                newestStream[sample] = stream
            }
            let select = try db.statement("""
                SELECT s.store, s.id, \(SampleRow.qualifiedColumns)
                FROM sample s
                WHERE s.day >= ? AND s.day <= ?
                ORDER BY s.day, s.writer_id, s."end", s.identity
                """)
            select.bind(HealthDatabase.dayBounds(from, to))
            var result: [DaySample] = []
            while try select.step() {
                guard let store = HealthStore(rawValue: select.text(0)),
                      let writer = writers[select.int(4)] else { continue }
                let row = SampleRow(select, first: 2)
                let stream = newestStream[select.int(1)].flatMap { streams[$0] }
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
    }

    /// One value per writer and day under `aggregation` (R7), ordered by day, store and writer.
    public func days(from: LocalDay? = nil, to: LocalDay? = nil, aggregation: Aggregation) throws(StoreError) -> [DayValue] {
        DayAggregator.days(try samples(from: from, to: to), by: aggregation)
    }

    /// Deleted and replaced values (R4), oldest first.
    public func revisions(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [RevisionEntry] {
        try db.read { () throws(StoreError) -> [RevisionEntry] in
            let writers = try loadWriters()
            let select = try db.statement("""
                SELECT writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm, at, at_offset, origin
                FROM revision WHERE day >= ? AND day <= ?
                ORDER BY at, id
                """)
            select.bind(HealthDatabase.dayBounds(from, to))
            var result: [RevisionEntry] = []
            while try select.step() {
                guard let writer = writers[select.int(0)],
                      let reason = RevisionReason(rawValue: select.text(6)) else { continue }
                let value = select.optionalDouble(3) ?? .nan
                let unit = select.text(4)
                result.append(RevisionEntry(
                    writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(select.int(1))), identity: select.text(2),
                    oldBPM: try? RestingValue.bpm(value: value, unit: unit), oldValue: value, unit: unit,
                    wasProvisional: select.int(5) != 0, reason: reason, replacedByBPM: select.optionalDouble(7),
                    at: Timestamp(epochSeconds: select.double(8), offsetSeconds: Int(select.int(9))),
                    origin: select.text(10)))
            }
            return result
        }
    }

    /// Heart-rate summaries per writer and day (R8). Where several roads delivered the same writer's day,
    /// the road with the most samples speaks for it, so nothing is counted twice.
    public func heartRateDays(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [HeartRateDaySummary] {
        try db.read { () throws(StoreError) -> [HeartRateDaySummary] in
            let writers = try loadWriters()
            let select = try db.statement("""
                WITH \(HealthDatabase.speakingStreams)
                SELECT h.writer_id, h.day, sum(h.not_set), sum(h.sedentary), sum(h.active), min(h.sedentary_min),
                       group_concat(h.sedentary_histogram)
                FROM heart_rate h JOIN speaking p ON p.writer_id = h.writer_id AND p.day = h.day AND p.stream_id = h.stream_id
                GROUP BY h.writer_id, h.day
                ORDER BY h.day
                """)
            select.bind(HealthDatabase.dayBounds(from, to))
            var result: [HeartRateDaySummary] = []
            while try select.step() {
                guard let writer = writers[select.int(0)] else { continue }
                result.append(HeartRateDaySummary(
                    writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(select.int(1))), notSet: Int(select.int(2)),
                    sedentary: Int(select.int(3)), active: Int(select.int(4)), sedentaryMin: select.optionalDouble(5),
                    sedentaryHistogram: HeartRateDaySummary.histogram(fromUTF8: select.bytes(6))))
            }
            // Same day: by store and writer.
            return result.sorted { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
        }
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

    /// What each store holds, for the empty state (R9). Always one entry per store.
    public func contents() throws(StoreError) -> [StoreContents] {
        try db.read { () throws(StoreError) -> [StoreContents] in
            let writers = try loadWriters()
            var result: [HealthStore: StoreContents] = [:]
            for store in HealthStore.allCases { result[store] = StoreContents(store: store) }
            let resting = try db.statement("SELECT writer_id, count(*) FROM sample GROUP BY writer_id")
            while try resting.step() {
                guard let writer = writers[resting.int(0)] else { continue }
                result[writer.writer.store]!.restingWriters.append(writer.writer)
                result[writer.writer.store]!.restingSamples += Int(resting.int(1))
            }
            let heartRate = try db.statement("""
                WITH \(HealthDatabase.speakingStreams)
                SELECT writer_id, sum(total) FROM speaking GROUP BY writer_id
                """)
            heartRate.bind(HealthDatabase.dayBounds(nil, nil))
            while try heartRate.step() {
                guard let writer = writers[heartRate.int(0)], heartRate.int(1) > 0 else { continue }
                result[writer.writer.store]!.heartRateSamples += Int(heartRate.int(1))
                result[writer.writer.store]!.heartRateWriters.append(writer.writer)
            }
            for store in HealthStore.allCases {
                result[store]!.restingWriters.sort()
                result[store]!.heartRateWriters.sort()
            }
            return HealthStore.allCases.map { result[$0]! }
        }
    }

    /// Every stream the store has heard from, by store and name.
    public func streams() throws(StoreError) -> [StreamState] {
        try db.read { () throws(StoreError) -> [StreamState] in
            try loadStreams().values.sorted { ($0.store, $0.stream) < ($1.store, $1.stream) }
        }
    }

    /// The writers the store knows, with whether each counts as an Apple Watch (R3).
    public func writers() throws(StoreError) -> [(writer: Writer, isAppleWatch: Bool)] {
        try db.read { () throws(StoreError) -> [(writer: Writer, isAppleWatch: Bool)] in
            try loadWriters().values.sorted { $0.writer < $1.writer }.map { ($0.writer, $0.isWatch) }
        }
    }

    // MARK: - Lookups inside a read

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
        var result: [Int64: WriterEntry] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(1)) else { continue }
            let writer = Writer(store: store, name: select.text(2), appName: select.optionalText(3),
                                bundleIdentifier: select.optionalText(4), productType: select.optionalText(5))
            result[select.int(0)] = WriterEntry(writer: writer, isWatch: select.int(6) != 0)
        }
        return result
    }

    func loadStreams() throws(StoreError) -> [Int64: StreamState] {
        let select = try db.statement("SELECT id, store, name, cursor, as_of, as_of_offset, origin, permissions, revision FROM stream")
        var result: [Int64: StreamState] = [:]
        while try select.step() {
            guard let store = HealthStore(rawValue: select.text(1)) else { continue }
            let asOf = select.optionalDouble(4).map { Timestamp(epochSeconds: $0, offsetSeconds: Int(select.optionalInt(5) ?? 0)) }
            let permissions = select.optionalText(7).map { $0.isEmpty ? [] : $0.split(separator: "\n").map(String.init) }
            result[select.int(0)] = StreamState(store: store, stream: select.text(2), cursor: select.optionalText(3),
                                                asOf: asOf, origin: select.text(6), grantedPermissions: permissions,
                                                revision: select.int(8))
        }
        return result
    }
}
