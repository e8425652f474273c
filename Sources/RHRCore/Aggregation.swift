/// R7: one number per writer and day, under an aggregation the user picks and the UI names.
public enum Aggregation: String, Sendable, Hashable, CaseIterable {
    case latest
    case lowest
    case mean

    /// "one value per day: latest".
    public var words: String { "one value per day: \(rawValue)" }

    /// latest → lowest → mean → latest.
    public var next: Aggregation {
        switch self {
        case .latest: return .lowest
        case .lowest: return .mean
        case .mean: return .latest
        }
    }
}

/// A stored resting sample placed on its local day, with the flags the rules give it.
public struct DaySample: Sendable, Hashable {
    public var sample: RestingSample
    public var day: LocalDay
    /// R5: the offset was null and the machine's was assumed.
    public var offsetAssumed: Bool
    /// R3, relative to `asOf`.
    public var provisional: Bool
    /// When the data was read: the export's date or the batch's `asOf`.
    public var asOf: Timestamp?
    /// The stream that last delivered it.
    public var stream: String

    public init(sample: RestingSample, day: LocalDay, offsetAssumed: Bool = false, provisional: Bool = false,
                asOf: Timestamp? = nil, stream: String = "") {
        self.sample = sample
        self.day = day
        self.offsetAssumed = offsetAssumed
        self.provisional = provisional
        self.asOf = asOf
        self.stream = stream
    }

    public var bpm: Double? { sample.bpm }
    public var isInRange: Bool { sample.isInRange }
}

/// One writer's value for one day under one aggregation: a row of `rhr export`.
public struct DayValue: Sendable, Hashable {
    public var day: LocalDay
    public var writer: Writer
    public var aggregation: Aggregation
    /// Nil when the day has no valid sample.
    public var bpm: Double?
    /// Valid samples that entered the aggregate.
    public var samples: Int
    /// Samples kept but excluded as out of range (R6).
    public var outOfRange: Int
    public var provisional: Bool
    public var offsetAssumed: Bool
    /// When the chosen value was read (R3: provisional values are shown with it).
    public var asOf: Timestamp?

    public init(day: LocalDay, writer: Writer, aggregation: Aggregation, bpm: Double?, samples: Int,
                outOfRange: Int, provisional: Bool, offsetAssumed: Bool, asOf: Timestamp? = nil) {
        self.day = day
        self.writer = writer
        self.aggregation = aggregation
        self.bpm = bpm
        self.samples = samples
        self.outOfRange = outOfRange
        self.provisional = provisional
        self.offsetAssumed = offsetAssumed
        self.asOf = asOf
    }

    public var store: HealthStore { writer.store }

    /// "58", "58.5"; means with one decimal (R6); "" without a valid sample.
    public var bpmText: String {
        bpm.map { RestingValue.format($0, isMean: aggregation == .mean) } ?? ""
    }
}

public enum DayAggregator {
    /// Aggregates one writer's samples of one day. Out-of-range samples are counted, never aggregated.
    public static func aggregate(_ samples: [DaySample], by aggregation: Aggregation) -> DayValue? {
        guard let first = samples.first else { return nil }
        let valid = samples.filter(\.isInRange)
        let outOfRange = samples.count - valid.count
        let chosen: [DaySample]
        var bpm: Double?
        switch aggregation {
        case .latest:
            if let pick = valid.max(by: isEarlier) { chosen = [pick]; bpm = pick.bpm } else { chosen = [] }
        case .lowest:
            if let pick = valid.min(by: isLower) { chosen = [pick]; bpm = pick.bpm } else { chosen = [] }
        case .mean:
            chosen = valid
            if !valid.isEmpty { bpm = valid.reduce(0) { $0 + ($1.bpm ?? 0) } / Double(valid.count) }
        }
        // A day with no valid sample still says what its samples were.
        let flagged = chosen.isEmpty ? samples : chosen
        return DayValue(day: first.day, writer: first.sample.writer, aggregation: aggregation, bpm: bpm,
                        samples: valid.count, outOfRange: outOfRange,
                        provisional: flagged.contains(where: \.provisional),
                        offsetAssumed: flagged.contains(where: \.offsetAssumed),
                        asOf: flagged.compactMap(\.asOf).max())
    }

    /// Groups samples by writer and day and aggregates each group; ordered by day, then store and writer.
    public static func days(_ samples: [DaySample], by aggregation: Aggregation) -> [DayValue] {
        var groups: [GroupKey: [DaySample]] = [:]
        for s in samples { groups[GroupKey(day: s.day, writer: s.sample.writer.key), default: []].append(s) }
        return groups.keys.sorted().compactMap { aggregate(groups[$0]!, by: aggregation) }
    }

    private struct GroupKey: Hashable, Comparable {
        var day: LocalDay
        var writer: WriterKey
        static func < (a: GroupKey, b: GroupKey) -> Bool { (a.day, a.writer) < (b.day, b.writer) }
    }

    /// `latest`: by end time, ties by creation (HealthKit) or last-modified (Health Connect) time,
    /// then by identity so the choice never depends on input order.
    static func isEarlier(_ a: DaySample, _ b: DaySample) -> Bool {
        if a.sample.end != b.sample.end { return a.sample.end < b.sample.end }
        let ra = a.sample.revisionTime?.timeIntervalSince1970 ?? -.infinity
        let rb = b.sample.revisionTime?.timeIntervalSince1970 ?? -.infinity
        if ra != rb { return ra < rb }
        return a.sample.identity < b.sample.identity
    }

    /// `lowest`: by value; ties go to the later sample.
    static func isLower(_ a: DaySample, _ b: DaySample) -> Bool {
        let va = a.bpm ?? .infinity, vb = b.bpm ?? .infinity
        if va != vb { return va < vb }
        return isEarlier(b, a)
    }
}
