import RHRCore

extension StoreSnapshot {
    /// Fills in each phone feed's newest resting and heart-rate day (`FeedFreshness`, docs/design.md section 4b).
    /// Other streams are left alone: an export's days say nothing about a feed that stopped.
    func addNewestDays(_ streams: inout [Int64: StreamState]) throws(StoreError) {
        let feeds = streams.filter { FeedFreshness.app(of: $0.value) != nil }
        guard !feeds.isEmpty else { return }
        let resting = try db.statement("""
            SELECT max(s.day) AS day FROM sample_stream ss JOIN sample s ON s.id = ss.sample_id WHERE ss.stream_id = ?
            """)
        // One lookup per writer: the primary key (stream_id, writer_id, day, …) answers each max at once, where a
        // max over the whole stream would read every heart-rate row it has.
        let heartRate = try db.statement("""
            SELECT max((SELECT max(h.day) FROM heart_rate h WHERE h.stream_id = ?1 AND h.writer_id = w.id)) AS day
            FROM writer w WHERE w.store = ?2
            """)
        for (id, stream) in feeds {
            resting.bind(.integer(id))
            let restingDay = try resting.step() ? resting.optionalInt(try resting.column("day")) : nil
            resting.reset()
            heartRate.bind(.integer(id), .text(stream.store.rawValue))
            let heartRateDay = try heartRate.step() ? heartRate.optionalInt(try heartRate.column("day")) : nil
            heartRate.reset()
            streams[id]?.newestRestingDay = restingDay.map { LocalDay(daysSinceEpoch: Int($0)) }
            streams[id]?.newestHeartRateDay = heartRateDay.map { LocalDay(daysSinceEpoch: Int($0)) }
        }
    }
}

/// What one stream delivered: its state, and how many resting and heart-rate samples it brought that stand.
public struct StreamDeliveries: Sendable, Hashable {
    public var state: StreamState
    public var restingSamples: Int
    public var heartRateSamples: Int
}

extension HealthDatabase {
    /// The streams named `stream` (one per store it fed), with their counts; for `GET /v1/status`.
    public func deliveries(stream: String) throws(StoreError) -> [StreamDeliveries] {
        try read { tx throws(StoreError) in try tx.deliveries(stream: stream) }
    }
}

extension StoreSnapshot {
    public func deliveries(stream name: String) throws(StoreError) -> [StreamDeliveries] {
        let states = try streams().filter { $0.stream == name }
        let select = try db.statement("""
            SELECT (SELECT count(*) FROM sample_stream ss WHERE ss.stream_id = st.id) AS resting,
                   (SELECT coalesce(sum(h.not_set + h.sedentary + h.active), 0) FROM heart_rate h WHERE h.stream_id = st.id) AS heart_rate
            FROM stream st WHERE st.store = ? AND st.name = ?
            """)
        var result: [StreamDeliveries] = []
        for state in states {
            select.reset()
            select.bind(.text(state.store.rawValue), .text(name))
            guard try select.step() else { continue }
            result.append(StreamDeliveries(state: state, restingSamples: Int(select.int(try select.column("resting"))),
                                           heartRateSamples: Int(select.int(try select.column("heart_rate")))))
        }
        return result
    }
}
