import Foundation
import RHRCore

/// What the store keeps of what readers passed over (R14, table `passed_over`) and of the raw spellings of writers'
/// names (R2, table `writer_spelling`), written with the batch that brought them, in its transaction.
extension HealthDatabase {
    /// Keeps a batch's passed-over records, once per input, place and reason: the same file imported again keeps one
    /// row of each, its raw text and time the latest delivered.
    func keepPassedOver(of batch: SyncBatch) throws(StoreError) {
        guard !batch.passedOver.records.isEmpty else { return }
        let insert = try db.statement("""
            INSERT INTO passed_over(store, stream, source, place, kind, reason, raw, seen, seen_offset)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(store, stream, source, place, reason) DO UPDATE SET
                kind = excluded.kind, raw = excluded.raw, seen = max(seen, excluded.seen),
                seen_offset = CASE WHEN excluded.seen > seen THEN excluded.seen_offset ELSE seen_offset END
            """)
        for record in batch.passedOver.records {
            insert.reset()
            insert.bind(.text(batch.store.rawValue), .text(batch.stream), .text(batch.passedOver.source),
                        .text(record.place), .text(record.kind), .text(record.reason), .text(record.raw),
                        .real(batch.asOf.epochSeconds), .integer(Int64(batch.asOf.offsetSeconds)))
            try insert.run()
        }
    }

    /// R14: a delivery of which nothing could be used keeps what it passed over, in one transaction, and nothing else:
    /// no road, no stream, no "as of" (the account, docs/design.md R14).
    public func keepPassedOver(only batches: [SyncBatch]) throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            for batch in batches { try keepPassedOver(of: batch) }
        }
    }

    /// Keeps the raw spellings a batch wrote its writers' names with, beside the writers they fold into.
    func keepSpellings(of batch: SyncBatch) throws(StoreError) {
        guard !batch.writerSpellings.isEmpty else { return }
        let insert = try db.statement("""
            INSERT OR IGNORE INTO writer_spelling(writer_id, spelling)
            SELECT id, ?3 FROM writer WHERE store = ?1 AND name = ?2
            """)
        for (name, spellings) in batch.writerSpellings.sorted(by: { $0.key < $1.key }) {
            for spelling in spellings {
                insert.reset()
                insert.bind(.text(batch.store.rawValue), .text(name), .text(spelling))
                try insert.run()
            }
        }
    }
}

/// What `rhr status` and the dashboard's header say of the passed-over records: how many, of which kinds.
public struct PassedOverSummary: Sendable, Equatable {
    public struct Kind: Sendable, Equatable {
        public var kind: String
        public var count: Int
        /// The first of them by input and place: "export.xml, byte 16306".
        public var first: String
    }

    public var total: Int
    public var kinds: [Kind]

    public init(total: Int = 0, kinds: [Kind] = []) {
        self.total = total
        self.kinds = kinds
    }
}

/// One passed-over record as the store keeps it: `rhr import --verbose` and `rhr status --verbose` list them.
public struct StoredPassedOver: Sendable, Equatable {
    public var store: HealthStore
    public var stream: String
    public var source: String
    public var record: PassedOverRecord
}

extension StoreSnapshot {
    /// How many records the store keeps passed over, by kind (most first, then by name).
    public func passedOver() throws(StoreError) -> PassedOverSummary {
        let select = try db.statement("""
            SELECT kind, count(*) AS n, (SELECT source || ', ' || place FROM passed_over f WHERE f.kind = p.kind
                                         ORDER BY f.id LIMIT 1) AS first
            FROM passed_over p GROUP BY kind ORDER BY n DESC, kind
            """)
        let kind = try select.column("kind"), n = try select.column("n"), first = try select.column("first")
        var summary = PassedOverSummary()
        while try select.step() {
            let count = Int(select.int(n))
            summary.total += count
            summary.kinds.append(.init(kind: select.text(kind), count: count, first: select.text(first)))
        }
        return summary
    }

    /// Every passed-over record the store keeps, in the order they were kept.
    public func passedOverRecords() throws(StoreError) -> [StoredPassedOver] {
        let select = try db.statement("SELECT store, stream, source, place, kind, reason, raw FROM passed_over ORDER BY id")
        let store = try select.column("store"), stream = try select.column("stream"), source = try select.column("source"),
            place = try select.column("place"), kind = try select.column("kind"), reason = try select.column("reason"),
            raw = try select.column("raw")
        var result: [StoredPassedOver] = []
        while try select.step() {
            guard let s = HealthStore(rawValue: select.text(store)) else { continue }
            result.append(StoredPassedOver(store: s, stream: select.text(stream), source: select.text(source),
                                           record: PassedOverRecord(kind: select.text(kind), reason: select.text(reason),
                                                                    place: select.text(place), raw: select.text(raw))))
        }
        return result
    }

    /// By writer, the raw spellings of its name the store keeps (R2): the detail pane shows them.
    public func writerSpellings() throws(StoreError) -> [WriterKey: [String]] {
        let select = try db.statement("""
            SELECT w.store AS store, w.name AS name, s.spelling AS spelling
            FROM writer_spelling s JOIN writer w ON w.id = s.writer_id ORDER BY w.store, w.name, s.spelling
            """)
        let store = try select.column("store"), name = try select.column("name"), spelling = try select.column("spelling")
        var result: [WriterKey: [String]] = [:]
        while try select.step() {
            guard let s = HealthStore(rawValue: select.text(store)) else { continue }
            result[WriterKey(store: s, name: select.text(name)), default: []].append(select.text(spelling))
        }
        return result
    }
}

extension HealthDatabase {
    public func passedOver() throws(StoreError) -> PassedOverSummary {
        try read { tx throws(StoreError) in try tx.passedOver() }
    }

    public func passedOverRecords() throws(StoreError) -> [StoredPassedOver] {
        try read { tx throws(StoreError) in try tx.passedOverRecords() }
    }
}
