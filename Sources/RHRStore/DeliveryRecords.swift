import Foundation
import RHRCore

/// A delivery as the store remembers it (`rhr imports`, docs/design.md section 5): a file an import read, or a live
/// road (a feed's batches), with the roads it brought or wrote into and what it did on each.
public struct DeliveryRecord: Sendable, Equatable {
    public var id: Int64
    /// A live road: its batches, however many and from wherever, are one delivery.
    public var isFeed: Bool
    /// The file as the import was given it, or the first source of a feed's batches ("socket", a file, an endpoint);
    /// empty for a road imported before the store kept a list of deliveries.
    public var label: String
    /// A feed's other sources (at most `BatchApplication.namedSources`).
    public var sources: [String]
    /// When it was applied, first and last, by the machine's clock; nil before the list was kept.
    public var firstReceived: Timestamp?
    public var lastReceived: Timestamp?
    /// False for a road imported before the store kept a list of deliveries: what it brought was not counted, nor
    /// what it took from other roads kept aside.
    public var known: Bool
    public var roads: [DeliveredRoad]
}

/// One road of a delivery (R12) and what the delivery did there, counted per road and so per store (R1).
public struct DeliveredRoad: Sendable, Equatable {
    /// The road's number in the store (`layer.id`).
    public var id: Int64
    public var store: HealthStore
    public var stream: String
    /// What the road was read as: "Apple Health export", "Health Auto Export over HTTP", a stream's name.
    public var origin: String
    /// The road's `asOf`: an export's date, a live road's newest batch's.
    public var asOf: Timestamp
    public var snapshot: Bool
    /// A live road's stream's cursor, when its batches continue one (section 4).
    public var cursor: String?
    /// Nil where not known (before the list was kept).
    public var counts: SampleCounts?
    public var heartRateSummaries: Int?
    public var passedOver: Int?
    public var batches: Int?
    /// Whether it changed anything (a file imported again brings nothing new).
    public var changed: Bool
    /// The other deliveries of the same road: files of one instant, or the same file imported again.
    public var sharedWith: [Int64]
}

extension StoreSnapshot {
    /// Every delivery the store remembers, oldest first.
    public func deliveries() throws(StoreError) -> [DeliveryRecord] {
        let byRoad = try deliveriesByRoad()
        let select = try db.statement("""
            SELECT d.id AS id, d.feed AS feed, d.label AS label, d.sources AS sources, d.first_received AS first_received,
                   (SELECT max(last_received) FROM delivery_road WHERE delivery_id = d.id) AS last_received, d.received_offset AS received_offset, d.known AS known,
                   dr.layer_id AS layer_id, dr.batches AS batches, dr.added AS added, dr.replaced AS replaced,
                   dr.deleted AS deleted, dr.unchanged AS unchanged, dr.out_of_range AS out_of_range,
                   dr.heart_rate AS heart_rate, dr.passed_over AS passed_over, dr.changed AS changed,
                   l.snapshot AS snapshot, l.as_of AS as_of, l.as_of_offset AS as_of_offset, l.origin AS origin,
                   st.store AS store, st.name AS stream, st.cursor AS cursor
            FROM delivery d
            LEFT JOIN delivery_road dr ON dr.delivery_id = d.id
            LEFT JOIN layer l ON l.id = dr.layer_id
            LEFT JOIN stream st ON st.id = l.stream_id
            ORDER BY d.id, st.store, st.name, l.as_of
            """)
        let c = try DeliveryColumns(select)
        var result: [DeliveryRecord] = []
        while try select.step() {
            let id = select.int(c.id)
            if result.last?.id != id {
                let offset = Int(select.int(c.receivedOffset))
                let sources = select.text(c.sources)
                result.append(DeliveryRecord(
                    id: id, isFeed: select.int(c.feed) != 0, label: select.text(c.label),
                    sources: sources.isEmpty ? [] : sources.split(separator: "\n").map(String.init),
                    firstReceived: select.optionalDouble(c.firstReceived).map { Timestamp(epochSeconds: $0, offsetSeconds: offset) },
                    lastReceived: select.optionalDouble(c.lastReceived).map { Timestamp(epochSeconds: $0, offsetSeconds: offset) },
                    known: select.int(c.known) != 0, roads: []))
            }
            guard !select.isNull(c.layer), let store = HealthStore(rawValue: select.text(c.store)) else { continue }
            let known = result[result.count - 1].known
            var counts = SampleCounts()
            counts.added = Int(select.int(c.added))
            counts.replaced = Int(select.int(c.replaced))
            counts.deleted = Int(select.int(c.deleted))
            counts.unchanged = Int(select.int(c.unchanged))
            counts.outOfRange = Int(select.int(c.outOfRange))
            let snapshot = select.int(c.snapshot) != 0
            let layer = select.int(c.layer)
            result[result.count - 1].roads.append(DeliveredRoad(
                id: layer, store: store, stream: select.text(c.stream), origin: select.text(c.origin),
                asOf: Timestamp(epochSeconds: select.double(c.asOf), offsetSeconds: Int(select.int(c.asOfOffset))),
                snapshot: snapshot, cursor: snapshot ? nil : select.optionalText(c.cursor),
                counts: known ? counts : nil, heartRateSummaries: known ? Int(select.int(c.heartRate)) : nil,
                passedOver: known ? Int(select.int(c.passedOver)) : nil, batches: known ? Int(select.int(c.batches)) : nil,
                changed: !known || select.int(c.changed) != 0, sharedWith: (byRoad[layer] ?? []).filter { $0 != id }))
        }
        return result
    }

    /// Which deliveries brought each road.
    func deliveriesByRoad() throws(StoreError) -> [Int64: [Int64]] {
        let select = try db.statement("SELECT layer_id, delivery_id FROM delivery_road ORDER BY layer_id, delivery_id")
        let layer = try select.column("layer_id"), delivery = try select.column("delivery_id")
        var result: [Int64: [Int64]] = [:]
        while try select.step() { result[select.int(layer), default: []].append(select.int(delivery)) }
        return result
    }

    /// Where the columns of `deliveries()` are, found by name once.
    private struct DeliveryColumns {
        let id, feed, label, sources, firstReceived, lastReceived, receivedOffset, known, layer, batches, added, replaced,
            deleted, unchanged, outOfRange, heartRate, passedOver, changed, snapshot, asOf, asOfOffset, origin, store,
            stream, cursor: SQLColumn

        init(_ s: SQLiteStatement) throws(StoreError) {
            (id, feed, label, sources) = (try s.column("id"), try s.column("feed"), try s.column("label"), try s.column("sources"))
            (firstReceived, lastReceived, receivedOffset, known) = (try s.column("first_received"), try s.column("last_received"),
                                                                    try s.column("received_offset"), try s.column("known"))
            (layer, batches, added, replaced) = (try s.column("layer_id"), try s.column("batches"), try s.column("added"),
                                                 try s.column("replaced"))
            (deleted, unchanged, outOfRange, heartRate) = (try s.column("deleted"), try s.column("unchanged"),
                                                           try s.column("out_of_range"), try s.column("heart_rate"))
            (passedOver, changed, snapshot, asOf) = (try s.column("passed_over"), try s.column("changed"),
                                                     try s.column("snapshot"), try s.column("as_of"))
            (asOfOffset, origin, store, stream, cursor) = (try s.column("as_of_offset"), try s.column("origin"),
                                                           try s.column("store"), try s.column("stream"), try s.column("cursor"))
        }
    }
}

extension HealthDatabase {
    public func deliveries() throws(StoreError) -> [DeliveryRecord] {
        try read { tx throws(StoreError) in try tx.deliveries() }
    }
}
