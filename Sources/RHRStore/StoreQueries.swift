import Foundation
import RHRCore

extension HealthDatabase {
    /// Every resting sample whose local day is in the range, placed on its day, with its flags (R3, R5, R6).
    public func samples(from: LocalDay? = nil, to: LocalDay? = nil) throws(StoreError) -> [DaySample] {
        try db.read { () throws(StoreError) -> [DaySample] in
            let writers = try loadWriters()
            let streams = try loadStreams()
            let select = try db.statement("""
                SELECT s.store,
                       (SELECT ss.stream_id FROM sample_stream ss JOIN stream st ON st.id = ss.stream_id
                        WHERE ss.sample_id = s.id ORDER BY st.as_of DESC, st.id LIMIT 1),
                       \(SampleRow.qualifiedColumns)
                FROM sample s
                WHERE (? IS NULL OR s.day >= ?) AND (? IS NULL OR s.day <= ?)
                ORDER BY s.day, s.writer_id, s."end", s.identity
                """)
            let low = from.map { Int64($0.daysSinceEpoch) }, high = to.map { Int64($0.daysSinceEpoch) }
            select.bind(.int64(low), .int64(low), .int64(high), .int64(high))
            var result: [DaySample] = []
            while try select.step() {
                guard let store = HealthStore(rawValue: select.text(0)),
                      let writer = writers[select.int(4)] else { continue }
                let row = SampleRow(select, first: 2)
                let stream = select.optionalInt(1).flatMap { streams[$0] }
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
                FROM revision WHERE (? IS NULL OR day >= ?) AND (? IS NULL OR day <= ?)
                ORDER BY at, id
                """)
            let low = from.map { Int64($0.daysSinceEpoch) }, high = to.map { Int64($0.daysSinceEpoch) }
            select.bind(.int64(low), .int64(low), .int64(high), .int64(high))
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
                SELECT stream_id, writer_id, day, not_set, sedentary, active, sedentary_min, sedentary_histogram
                FROM heart_rate WHERE (? IS NULL OR day >= ?) AND (? IS NULL OR day <= ?)
                """)
            let low = from.map { Int64($0.daysSinceEpoch) }, high = to.map { Int64($0.daysSinceEpoch) }
            select.bind(.int64(low), .int64(low), .int64(high), .int64(high))
            struct Key: Hashable { var writer: Int64; var day: Int64 }
            var perStream: [Key: [Int64: HeartRateDaySummary]] = [:]
            while try select.step() {
                guard let writer = writers[select.int(1)] else { continue }
                let key = Key(writer: select.int(1), day: select.int(2))
                let row = HeartRateDaySummary(
                    writer: writer.writer, day: LocalDay(daysSinceEpoch: Int(key.day)), notSet: Int(select.int(3)),
                    sedentary: Int(select.int(4)), active: Int(select.int(5)), sedentaryMin: select.optionalDouble(6),
                    sedentaryHistogram: HeartRateDaySummary.histogram(fromText: select.text(7)))
                perStream[key, default: [:]][select.int(0), default: HeartRateDaySummary(writer: writer.writer, day: row.day)]
                    .merge(row)
            }
            let chosen = perStream.values.compactMap { streams in
                streams.max { ($0.value.total, -$0.key) < ($1.value.total, -$1.key) }?.value
            }
            return chosen.sorted { ($0.day, $0.writer.key) < ($1.day, $1.writer.key) }
        }
    }

    /// What each store holds, for the empty state (R9). Always one entry per store.
    public func contents() throws(StoreError) -> [StoreContents] {
        let heartRate = try heartRateDays()
        return try db.read { () throws(StoreError) -> [StoreContents] in
            let writers = try loadWriters()
            var result: [HealthStore: StoreContents] = [:]
            for store in HealthStore.allCases { result[store] = StoreContents(store: store) }
            let select = try db.statement("SELECT writer_id, count(*) FROM sample GROUP BY writer_id")
            while try select.step() {
                guard let writer = writers[select.int(0)] else { continue }
                result[writer.writer.store]!.restingWriters.append(writer.writer)
                result[writer.writer.store]!.restingSamples += Int(select.int(1))
            }
            var heartRateWriters: [HealthStore: Set<Writer>] = [:]
            for summary in heartRate {
                result[summary.writer.store]!.heartRateSamples += summary.total
                heartRateWriters[summary.writer.store, default: []].insert(summary.writer)
            }
            for (store, set) in heartRateWriters { result[store]!.heartRateWriters = set.sorted() }
            for store in HealthStore.allCases { result[store]!.restingWriters.sort() }
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
