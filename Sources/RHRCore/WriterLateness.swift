/// Late writers (docs/design.md section 9): when a writer last delivered a resting value, and how late after its day
/// one usually arrives. Apple Watch writes a day's estimate hours after the time it carries; Fitbit writes to Health
/// Connect the next morning. Knowing a writer's usual lag tells a value that has not come yet from values that stopped.

/// One resting value as it arrived: the day it belongs to and when it came.
public struct Delivery: Sendable, Hashable {
    /// Which clock says when it came.
    public enum Clock: Sendable, Hashable {
        /// When the writer wrote it: HealthKit's `creationDate`, Health Connect's `lastModifiedTime`.
        case written
        /// When a live road of rhr's first received it, for values that carry neither.
        case received
    }

    /// Its local day (R5).
    public let day: LocalDay
    /// When its local day ends: the midnight after it, in the offset the value was written with.
    public let dayEnd: Double
    /// The time it carries: the end of its window (a Health Connect record's time).
    public let carried: Double
    public let deliveredAt: Timestamp
    public let clock: Clock

    public init(day: LocalDay, offsetSeconds: Int, carried: Double, deliveredAt: Timestamp, clock: Clock) {
        self.day = day
        dayEnd = day.adding(days: 1).startEpochSeconds - Double(offsetSeconds)
        self.carried = carried
        self.deliveredAt = deliveredAt
        self.clock = clock
    }

    /// A stored value as it arrived: written when the writer dated its writing, else received when a live road first
    /// received it (an export's snapshot was read when the export was made, not when the value came; a road's `asOf`
    /// is its last word, not its first). Nil for a value of implausible date (R13), whose day says nothing of its lag,
    /// and one with no such time.
    public init?(_ value: DaySample) {
        guard !value.implausibleDate else { return nil }
        let sample = value.sample
        let offset = sample.offsetSeconds ?? value.asOf?.offsetSeconds ?? 0
        let arrival: (Timestamp, Clock)
        if let written = sample.revisionTime {
            arrival = (Timestamp(date: written, offsetSeconds: value.asOf?.offsetSeconds ?? offset), .written)
        } else if !value.snapshot, let received = value.firstReceived {
            arrival = (received, .received)
        } else {
            return nil
        }
        self.init(day: value.day, offsetSeconds: offset, carried: sample.end.timeIntervalSince1970,
                  deliveredAt: arrival.0, clock: arrival.1)
    }

    /// Seconds it came after its day ended; negative when it came before.
    public var lagAfterDay: Double { deliveredAt.epochSeconds - dayEnd }
    /// Seconds it came after the time it carries.
    public var lagAfterTime: Double { deliveredAt.epochSeconds - carried }
}

/// How late one writer's resting values usually arrive, from the values it delivered.
public struct WriterLateness: Sendable, Hashable {
    public let writer: Writer
    public let count: Int
    /// The latest arrival, and the day of the value it brought.
    public let lastDelivered: Timestamp?
    public let lastDeliveredDay: LocalDay?
    /// The writer's newest plausibly dated day, whether or not its value says when it arrived: what `WriterStop`
    /// judges by.
    public let newestDay: LocalDay?
    /// Medians, in seconds, of how long after its day ended, and after the time it carries, a value came.
    public let medianLagAfterDay: Double?
    public let medianLagAfterTime: Double?
    /// The clock of the arrivals: written, received, or nil when they mix (then "delivered").
    public let clock: Delivery.Clock?
    /// How many days apart its values usually are: the median gap between its consecutive days, rounded up; 1 for a
    /// daily writer and one with fewer than two days (a scale weighed twice a week: 3 or 4).
    public let usualGapDays: Int

    /// `newestDay` and `days`: those of values that are no delivery too; the deliveries' own count either way.
    public init(writer: Writer, deliveries: [Delivery], newestDay: LocalDay? = nil, days: [LocalDay] = []) {
        self.writer = writer
        count = deliveries.count
        let last = deliveries.max { ($0.deliveredAt, $0.day) < ($1.deliveredAt, $1.day) }
        lastDelivered = last?.deliveredAt
        lastDeliveredDay = last?.day
        self.newestDay = (deliveries.map(\.day) + [newestDay].compactMap { $0 }).max()
        let distinct = Set(deliveries.map(\.day) + days).sorted()
        let gaps = zip(distinct, distinct.dropFirst()).map { Double($0.distance(to: $1)) }
        usualGapDays = WriterLateness.median(gaps).map { max(1, Int($0.rounded(.up))) } ?? 1
        medianLagAfterDay = WriterLateness.median(deliveries.map(\.lagAfterDay))
        medianLagAfterTime = WriterLateness.median(deliveries.map(\.lagAfterTime))
        let clocks = Set(deliveries.map(\.clock))
        clock = clocks.count == 1 ? clocks.first : nil
    }

    /// The same from a writer's stored values (`DaySample`s), every road's copies: a value several roads hold is one
    /// delivery, at its earliest arrival. Values of other writers are left out.
    public init(writer: Writer, values: [DaySample]) {
        var tally = Tally()
        for value in values where value.sample.writer == writer { tally.add(value) }
        self = tally.lateness(of: writer)
    }

    /// The writer's stored values taken one at a time: a value several roads hold is one delivery, at its earliest.
    private struct Tally {
        private var earliest: [SampleIdentity.WithinWriter: Delivery] = [:]
        private var newest: LocalDay?
        private var days = Set<LocalDay>()

        mutating func add(_ value: DaySample) {
            guard !value.implausibleDate else { return }
            newest = max(newest ?? value.day, value.day)
            days.insert(value.day)
            guard let delivery = Delivery(value) else { return }
            let key = SampleIdentity.withinWriter(value.sample)
            if earliest[key].map({ delivery.deliveredAt < $0.deliveredAt }) ?? true { earliest[key] = delivery }
        }

        func lateness(of writer: Writer) -> WriterLateness {
            WriterLateness(writer: writer, deliveries: Array(earliest.values), newestDay: newest, days: Array(days))
        }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// In how many whole days after its day ends a value of this writer usually arrives: 0 for one that comes before
    /// its day ends (Oura's morning value), 1 for one that comes within the next 24 hours (Apple Watch, Fitbit).
    public var usualLagDays: Int {
        guard let lag = medianLagAfterDay, lag > 0 else { return 0 }
        return Int((lag / 86_400).rounded(.up))
    }

    /// "written", "received", "delivered".
    public var clockWords: String {
        switch clock {
        case .written: return "written"
        case .received: return "received"
        case nil: return "delivered"
        }
    }

    /// "last written 3 Dec 08:14, for 2 Dec"; nil when it delivered nothing.
    public func lastDeliveredWords(thisYear: Int) -> String? {
        guard let lastDelivered, let lastDeliveredDay else { return nil }
        return "last \(clockWords) \(lastDelivered.text(thisYear: thisYear)), for \(lastDeliveredDay.text(thisYear: thisYear))"
    }

    /// "usually arrives about 12 h after its day ends (median of 30)"; nil when it delivered nothing.
    public var lagWords: String? {
        guard let lag = medianLagAfterDay else { return nil }
        return "usually arrives \(WriterLateness.durationWords(lag, relativeTo: "its day ends")) (median of \(count))"
    }

    /// "Jane’s Apple Watch: last written 3 Dec 08:14, for 2 Dec; usually arrives about 12 h after its day ends
    /// (median of 30)." Nil when it delivered nothing.
    public func words(thisYear: Int) -> String? {
        guard let last = lastDeliveredWords(thisYear: thisYear), let lag = lagWords else { return nil }
        return "\(writer.displayName): \(last); \(lag)."
    }

    /// "about 12 h after its day ends", "about 16 h before its day ends", "about 3 days after …", "as its day ends".
    static func durationWords(_ seconds: Double, relativeTo event: String) -> String {
        let hours = Int((abs(seconds) / 3600).rounded())
        if hours == 0 { return "as \(event)" }
        let side = seconds < 0 ? "before" : "after"
        if hours < 48 { return "about \(hours) h \(side) \(event)" }
        return "about \(Int((Double(hours) / 24).rounded())) days \(side) \(event)"
    }
}

/// A writer whose resting values stopped while its feed still delivers heart rate: the header's line. Descriptive
/// (R11): it says what arrives and what does not, and never why or whether that matters.
public struct WriterStop: Sendable, Hashable {
    public let writer: Writer
    /// The feed (stream) it came by, as the header names it.
    public let stream: String
    public let newestRestingDay: LocalDay
    public let heartRateThrough: LocalDay
    /// How many days after its day the writer's values usually still arrive, which the rule allows for.
    public let usualLagDays: Int

    /// Nil while the writer's values still arrive: heart rate may lead its newest resting day by
    /// `FeedFreshness.allowedLagDays` (today's value is not written yet) plus the writer's usual lag in whole days
    /// beyond the first, plus its usual gap between days beyond one (a writer every third day misses no value in the
    /// two days between). A writer that never delivered a resting value is not a resting writer: nil.
    public init?(_ lateness: WriterLateness, stream: String, heartRateThrough: LocalDay?) {
        guard let resting = lateness.newestDay, let heartRateThrough else { return nil }
        let allowed = FeedFreshness.allowedLagDays + max(0, lateness.usualLagDays - 1) + (lateness.usualGapDays - 1)
        guard FeedFreshness.restingStopped(newestResting: resting, newestHeartRate: heartRateThrough,
                                           allowedLagDays: allowed) else { return nil }
        writer = lateness.writer
        self.stream = stream
        newestRestingDay = resting
        self.heartRateThrough = heartRateThrough
        usualLagDays = lateness.usualLagDays
    }

    /// "Oura (com.ouraring.oura), Health Connect: resting values stopped after 27 Nov; http-phone still delivers heart
    /// rate through 30 Nov."
    public func words(thisYear: Int) -> String {
        "\(writer.displayName), \(writer.store.displayName): resting values stopped after "
            + "\(newestRestingDay.text(thisYear: thisYear)); \(stream) still delivers heart rate through "
            + "\(heartRateThrough.text(thisYear: thisYear))."
    }
}
