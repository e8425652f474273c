import RHRCore

/// The queries behind a feed's freshness and counts. Each walks an index (`sample_by_layer`; the heart-rate key, once
/// per writer) from the newest day down or over one road's rows: `rhr status` and `GET /v1/status` cost a few lookups
/// however long a feed has delivered, whatever else the store holds.
enum StreamFreshnessQuery {
    /// A stream's roads, with when each was read.
    static let roads = "SELECT id, as_of, as_of_offset FROM layer WHERE stream_id = ?"
    /// A road's newest day with a resting copy that stands, up to a day.
    static let newestResting = "SELECT day FROM sample WHERE layer_id = ? AND day <= ? AND current = 1 ORDER BY day DESC LIMIT 1"
    /// A road's newest day with heart rate, up to a day, in one store.
    static let newestHeartRate = """
        SELECT max((SELECT max(h.day) FROM heart_rate h WHERE h.layer_id = ?1 AND h.writer_id = w.id AND h.day <= ?2)) AS day
        FROM writer w WHERE w.store = ?3
        """
    /// What a stream's roads hold: resting copies that stand, heart-rate samples.
    static let counts = """
        SELECT (SELECT count(*) FROM sample s WHERE s.layer_id IN (SELECT id FROM layer WHERE stream_id = st.id)
                  AND s.current = 1) AS resting,
               (SELECT coalesce(sum(h.not_set + h.sedentary + h.active), 0) FROM heart_rate h
                WHERE h.layer_id IN (SELECT id FROM layer WHERE stream_id = st.id)) AS heart_rate
        FROM stream st WHERE st.store = ? AND st.name = ?
        """
}

extension StoreSnapshot {
    /// Fills in each phone feed's newest resting and heart-rate day (`FeedFreshness`, docs/design.md section 4b): the
    /// newest days its roads hold a resting copy that stands (no deletion or newer snapshot of its stream took it)
    /// and heart rate for. Days after the day following the road's read are left out, as R13 leaves them out of
    /// every view: a clock far ahead must not make heart rate look as if it still arrived. Other streams are left
    /// alone: an export's days say nothing about a feed that stopped.
    func addNewestDays(_ streams: inout [Int64: StreamState]) throws(StoreError) {
        let feeds = streams.filter { FeedFreshness.app(of: $0.value) != nil }
        guard !feeds.isEmpty else { return }
        let roads = try db.statement(StreamFreshnessQuery.roads)
        let roadID = try roads.column("id"), asOf = try roads.column("as_of"), offset = try roads.column("as_of_offset")
        let resting = try db.statement(StreamFreshnessQuery.newestResting)
        let heartRate = try db.statement(StreamFreshnessQuery.newestHeartRate)
        let restingDay = try resting.column("day"), heartRateDay = try heartRate.column("day")
        for (id, stream) in feeds {
            var newestResting: Int64?, newestHeartRate: Int64?
            roads.reset()
            roads.bind(.integer(id))
            var layers: [(Int64, Int64)] = []
            while try roads.step() {
                let read = Timestamp(epochSeconds: roads.double(asOf), offsetSeconds: Int(roads.int(offset)))
                layers.append((roads.int(roadID), Int64(read.localDay.adding(days: 1).daysSinceEpoch)))
            }
            for (layer, lastPlausible) in layers {
                resting.reset()
                resting.bind(.integer(layer), .integer(lastPlausible))
                if try resting.step() { newestResting = max(newestResting ?? .min, resting.int(restingDay)) }
                heartRate.reset()
                heartRate.bind(.integer(layer), .integer(lastPlausible), .text(stream.store.rawValue))
                if try heartRate.step(), let day = heartRate.optionalInt(heartRateDay) {
                    newestHeartRate = max(newestHeartRate ?? .min, day)
                }
            }
            streams[id]?.newestRestingDay = newestResting.map { LocalDay(daysSinceEpoch: Int($0)) }
            streams[id]?.newestHeartRateDay = newestHeartRate.map { LocalDay(daysSinceEpoch: Int($0)) }
        }
    }
}

/// What one stream delivered that its roads hold: its state, and how many resting and heart-rate samples stand in them.
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
    /// The counts are of what the stream's roads hold now: resting copies no deletion or newer snapshot of the stream
    /// took, and the heart-rate samples of its summaries (a phone feed's repeated request counts once).
    public func deliveries(stream name: String) throws(StoreError) -> [StreamDeliveries] {
        // Only this stream's newest days are looked up, not every feed's.
        var named = try loadStreams().filter { $0.value.stream == name }
        try addNewestDays(&named)
        let states = named.values.sorted { $0.store < $1.store }
        let select = try db.statement(StreamFreshnessQuery.counts)
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
