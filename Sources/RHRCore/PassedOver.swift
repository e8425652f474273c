/// R14: a record a reader could not use. It costs nothing of the rest of its file: it is kept in the store raw, with
/// where it was and why, counted in the import's summary and listed by `rhr status`.
public struct PassedOverRecord: Sendable, Hashable {
    /// The group the summary counts it in, in words that read after a count: "HeartRate without a value".
    public var kind: String
    /// What is wrong with this one: `value "abc" is not a number`.
    public var reason: String
    /// Where it is, as `InputPlace` writes it: "byte 16306", "line 3, upserted[2]", "heart_rate_record_table row_id 6".
    public var place: String
    /// The record as its input holds it (the start tag, the row, the JSON text), so that a later rhr can read it.
    public var raw: String

    public init(kind: String, reason: String, place: InputPlace, raw: String) {
        self.init(kind: kind, reason: reason, place: place.description, raw: raw)
    }

    /// A record whose place was written already, by `InputPlace` (read back from the store).
    public init(kind: String, reason: String, place: String, raw: String) {
        self.kind = kind
        self.reason = reason
        self.place = place
        self.raw = raw
    }

    /// A value as a reason quotes it: in quotes, at most `limit` characters, each control character written as
    /// `\u{0}` so that the reason itself is safe to print and to store.
    public static func quote(_ text: String, limit: Int = 64) -> String {
        let scalars = text.unicodeScalars
        let kept = String(String.UnicodeScalarView(scalars.prefix(limit)))
        return "\"" + TextGate.visible(kept) + (scalars.count > limit ? "…" : "") + "\""
    }
}

/// What a reader passed over in one input: every kind counted with its first place, and the records themselves, kept
/// raw up to `keptBytes` of text (a hostile file of nothing but bad records must not hold its whole self in memory;
/// beyond that they are counted, and the summary says how many were not kept).
public struct PassedOverLog: Sendable, Hashable {
    public struct Kind: Sendable, Hashable {
        public var kind: String
        public var count: Int
        /// The place of its first record, and that record's reason.
        public var first: String
        public var firstReason: String
    }

    /// The file as given, or the request a feed received: where `rhr status` says the records came from.
    public var source: String
    public private(set) var kinds: [Kind] = []
    public private(set) var records: [PassedOverRecord] = []
    public private(set) var total = 0
    private var keptText = 0
    private var kindIndex: [String: Int] = [:]

    /// The raw text kept of one input's passed-over records.
    public static let keptBytes = 8 << 20

    public init(source: String = "") { self.source = source }

    /// What was passed over, wherever it was read from: two reads of one export's bytes under two names are equal.
    public static func == (a: PassedOverLog, b: PassedOverLog) -> Bool {
        a.total == b.total && a.kinds == b.kinds && a.records == b.records
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(total)
        hasher.combine(records)
    }

    public var isEmpty: Bool { total == 0 }

    /// "3 records passed over (kept in the store, rhr status lists them)": what an import and a push say of them.
    public static func words(_ total: Int) -> String {
        "\(Wording.count(total, "record")) passed over (kept in the store, rhr status lists them)"
    }

    /// Records counted but not kept raw (over `keptBytes`).
    public var notKept: Int { total - records.count }

    public mutating func add(_ record: PassedOverRecord) {
        total += 1
        if let k = kindIndex[record.kind] {
            kinds[k].count += 1
        } else {
            kindIndex[record.kind] = kinds.count
            kinds.append(Kind(kind: record.kind, count: 1, first: record.place, firstReason: record.reason))
        }
        let size = record.raw.utf8.count + record.reason.utf8.count + record.place.utf8.count
        guard keptText + size <= PassedOverLog.keptBytes else { return }
        keptText += size
        records.append(record)
    }

    public mutating func add(kind: String, reason: String, place: InputPlace, raw: String) {
        add(PassedOverRecord(kind: kind, reason: reason, place: place, raw: raw))
    }

    /// Adds what `later` passed over in the input after this log's, as if one log had seen both.
    public mutating func append(_ later: PassedOverLog) {
        for record in later.records { add(record) }
        // What `later` counted but did not keep still counts here.
        for kind in later.kinds {
            let kept = later.records.lazy.filter { $0.kind == kind.kind }.count
            guard kind.count > kept else { continue }
            total += kind.count - kept
            if let k = kindIndex[kind.kind] {
                kinds[k].count += kind.count - kept
            } else {
                kindIndex[kind.kind] = kinds.count
                kinds.append(Kind(kind: kind.kind, count: kind.count - kept, first: kind.first, firstReason: kind.firstReason))
            }
        }
    }

    /// The same records placed inside `outer`: a batch file's line before an upsert's path (`line 3, upserted[2]`).
    public mutating func place(under outer: InputPlace) {
        for k in records.indices { records[k].place = outer.around(records[k].place) }
        for k in kinds.indices { kinds[k].first = outer.around(kinds[k].first) }
    }

    /// The summary's lines: "3 records passed over, kept in the store (rhr status lists them):", then one line per
    /// kind, "2 HeartRate without a value (first at byte 16306)"; empty when nothing was passed over.
    public var summaryLines: [String] {
        guard total > 0 else { return [] }
        var lines = ["\(Wording.count(total, "record")) passed over, kept in the store (rhr status lists them):"]
        for kind in kinds {
            let at = kind.count == 1 ? kind.first : "first at \(kind.first)"
            lines.append("  \(Wording.grouped(kind.count)) \(kind.kind) (\(at))")
        }
        if notKept > 0 {
            lines.append("  \(Wording.grouped(notKept)) of them counted only: more than "
                         + "\(ByteSize.words(Int64(PassedOverLog.keptBytes))) of passed-over text in one input")
        }
        return lines
    }
}
