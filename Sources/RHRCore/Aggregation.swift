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

/// A stored resting sample placed on its local day, with the flags the rules give it and the road that holds it.
public struct DaySample: Sendable, Hashable {
    public var sample: RestingSample
    public var day: LocalDay
    /// R5: the offset was null and the machine's was assumed.
    public var offsetAssumed: Bool
    /// R3, relative to `asOf`.
    public var provisional: Bool
    /// When the road holding it was read: the export's date, the live stream's newest `asOf`, or for a phone feed's
    /// road the last request that carried the writer's day (R12).
    public var asOf: Timestamp?
    /// The stream of the road holding it.
    public var stream: String
    /// The road is one snapshot of an export stream (its `asOf` never moves), not a live stream's state (R12).
    public var snapshot: Bool
    /// R13: its time is implausible (judged against the `asOf` of the batch that delivered it).
    public var implausibleDate: Bool
    /// When its road first received it (late writers, docs/design.md section 9); nil when the store does not know
    /// (kept since schema 7).
    public var firstReceived: Timestamp?

    /// `implausibleDate` nil: judged by R13 against `asOf`.
    public init(sample: RestingSample, day: LocalDay, offsetAssumed: Bool = false, provisional: Bool = false,
                asOf: Timestamp? = nil, stream: String = "", snapshot: Bool = false, implausibleDate: Bool? = nil,
                firstReceived: Timestamp? = nil) {
        self.sample = sample
        self.day = day
        self.offsetAssumed = offsetAssumed
        self.provisional = provisional
        self.asOf = asOf
        self.stream = stream
        self.snapshot = snapshot
        self.implausibleDate = implausibleDate
            ?? !PlausibleTimeRule.isPlausible(start: sample.start, end: sample.end, asOf: asOf)
        self.firstReceived = firstReceived
    }

    public var bpm: Double? { sample.bpm }
    public var isInRange: Bool { sample.isInRange }
    /// Whether it may enter an aggregate: in range (R6) and plausibly dated (R13).
    public var isValid: Bool { !implausibleDate && sample.isInRange }
    /// The road that holds it (R12).
    public var road: Road { Road(stream: stream, asOf: asOf, snapshot: snapshot) }

    /// Whether it and `other` are held by the same road: what `road == other.road` says, without building both.
    @inline(__always)
    func sameRoad(as other: DaySample) -> Bool {
        snapshot == other.snapshot && asOf == other.asOf && stream == other.stream
    }
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
    /// Samples kept but excluded for an implausible date (R13).
    public var implausibleDate: Int
    public var provisional: Bool
    public var offsetAssumed: Bool
    /// When the chosen value was read (R3: provisional values are shown with it).
    public var asOf: Timestamp?

    public init(day: LocalDay, writer: Writer, aggregation: Aggregation, bpm: Double?, samples: Int,
                outOfRange: Int, implausibleDate: Int = 0, provisional: Bool, offsetAssumed: Bool, asOf: Timestamp? = nil) {
        self.day = day
        self.writer = writer
        self.aggregation = aggregation
        self.bpm = bpm
        self.samples = samples
        self.outOfRange = outOfRange
        self.implausibleDate = implausibleDate
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
