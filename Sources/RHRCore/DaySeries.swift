/// The one way from stored resting samples to per-day values (R7): the samples grouped by local day and
/// writer, and each group's one value under an aggregation, with its flags (R3 provisional, R5 offset
/// assumed, R6 out of range) and sample counts. `rhr summary`, `rhr export`, the daemon's `days` reply, the
/// dashboard's index and its live patch all go through it, so a day reads the same everywhere.
///
/// A `Group` (one store's writer on one day: R1 keeps stores apart, the writer names its store) holds the samples
/// of every road that has that writer's day; `standing(_:)` keeps the deciding road's (R12) before R7 aggregates,
/// so the rule holds for every aggregation and every reader.
public struct DaySeries: Sendable {
    /// One writer's samples of one local day.
    public struct Group: Sendable, Hashable {
        public var day: LocalDay
        /// The writer's place in `writers`.
        public var writer: Int
        /// Where its samples are in `samples`.
        public var range: Range<Int>
    }

    /// The writers of the samples, by store, then number (`numbers`; the unnumbered after), then name.
    public let writers: [Writer]
    /// The samples in the series' order: by day, writer (its place in `writers`), start, end and identity.
    public let samples: [DaySample]
    /// One entry per day and writer with samples, in the order of `samples`: by day, then store and writer.
    public let groups: [Group]

    /// `numbers`: the writers' lasting numbers (the dashboard's, kept in the store), which order a store's writers.
    public init(_ samples: [DaySample], numbers: [WriterKey: Int] = [:]) {
        // Writers numbered once: from here on samples are sorted and grouped by integers, not strings.
        var position: [WriterKey: Int] = [:]
        var found: [Writer] = []
        var writerOf = [Int](repeating: 0, count: samples.count)
        for (i, s) in samples.enumerated() {
            let key = s.sample.writer.key
            if let p = position[key] {
                writerOf[i] = p
            } else {
                position[key] = found.count
                writerOf[i] = found.count
                found.append(s.sample.writer)
            }
        }
        let writers = numbers.isEmpty ? found.sorted() : found.sorted { a, b in
            (a.store.rawValue, numbers[a.key] ?? Int.max, a.name) < (b.store.rawValue, numbers[b.key] ?? Int.max, b.name)
        }
        var rank = [Int](repeating: 0, count: found.count)
        for (r, w) in writers.enumerated() { rank[position[w.key]!] = r }
        for i in writerOf.indices { writerOf[i] = rank[writerOf[i]] }

        let order = samples.indices.sorted { a, b in
            DaySeries.precedes(samples[a], writerOf[a], samples[b], writerOf[b])
        }
        let ordered = order.map { samples[$0] }
        var groups: [Group] = []
        var start = 0
        while start < ordered.count {
            let day = ordered[start].day, writer = writerOf[order[start]]
            var end = start + 1
            while end < ordered.count && ordered[end].day == day && writerOf[order[end]] == writer { end += 1 }
            groups.append(Group(day: day, writer: writer, range: start..<end))
            start = end
        }
        self.writers = writers
        self.samples = ordered
        self.groups = groups
    }

    public func samples(in group: Group) -> ArraySlice<DaySample> { samples[group.range] }

    /// The group's one value under `aggregation`.
    public func value(of group: Group, by aggregation: Aggregation) -> DayValue {
        // A group holds at least one sample, so there is always a value (perhaps one without a valid bpm).
        DaySeries.aggregate(samples(in: group), by: aggregation)!
    }

    /// Every group's value, ordered by day, then store and writer: a row of `rhr export` each.
    public func values(by aggregation: Aggregation) -> [DayValue] {
        groups.map { value(of: $0, by: aggregation) }
    }

    // MARK: - The rules on one group

    /// R12: which of one writer's samples of one day stand: those of the road `Road.deciding` picks, the one whose
    /// knowledge of the day is freshest; the other roads' samples are superseded, for every aggregation at once and for
    /// every reader. Samples of one road, the usual case, come back as they are.
    public static func standing(_ samples: ArraySlice<DaySample>) -> ArraySlice<DaySample> {
        guard let first = samples.first, samples.contains(where: { !$0.sameRoad(as: first) }),
              let deciding = Road.deciding(samples, road: \.road) else { return samples }
        return ArraySlice(samples.filter { $0.sameRoad(as: deciding) })
    }

    /// The road that decides one writer's day (R12), nil without samples.
    public static func decidingRoad(_ samples: ArraySlice<DaySample>) -> Road? {
        standing(samples).first?.road
    }

    /// R7 on one writer's samples of one day, those that stand (R12). Out-of-range (R6) and implausibly dated (R13)
    /// samples are counted, never aggregated; nil without samples.
    public static func aggregate(_ group: ArraySlice<DaySample>, by aggregation: Aggregation) -> DayValue? {
        let samples = standing(group)
        guard let first = samples.first else { return nil }
        let valid = samples.filter(\.isValid)
        let outOfRange = samples.count(where: { !$0.isInRange })
        let implausible = samples.count(where: \.implausibleDate)
        let chosen: [DaySample]
        var bpm: Double?
        switch aggregation {
        case .latest:
            if let pick = valid.max(by: { isEarlier($0.sample, $1.sample) }) { chosen = [pick]; bpm = pick.bpm } else { chosen = [] }
        case .lowest:
            if let pick = valid.min(by: isLower) { chosen = [pick]; bpm = pick.bpm } else { chosen = [] }
        case .mean:
            chosen = valid
            if !valid.isEmpty { bpm = valid.reduce(0) { $0 + ($1.bpm ?? 0) } / Double(valid.count) }
        }
        // A day with no valid sample still says what its samples were.
        let flagged = chosen.isEmpty ? Array(samples) : chosen
        return DayValue(day: first.day, writer: first.sample.writer, aggregation: aggregation, bpm: bpm,
                        samples: valid.count, outOfRange: outOfRange, implausibleDate: implausible,
                        provisional: flagged.contains(where: \.provisional),
                        offsetAssumed: flagged.contains(where: \.offsetAssumed),
                        asOf: flagged.compactMap(\.asOf).max())
    }

    /// The same on samples in any order (tests, one-off uses).
    public static func aggregate(_ samples: [DaySample], by aggregation: Aggregation) -> DayValue? {
        aggregate(samples[...], by: aggregation)
    }

    /// R7's `latest`, the one place its order is written: by end time, ties by creation (HealthKit) or
    /// last-modified (Health Connect) time, then by identity, so the choice never depends on input order.
    /// The store's revision history names a replacement by it too.
    public static func isEarlier(_ a: RestingSample, _ b: RestingSample) -> Bool {
        if a.end != b.end { return a.end < b.end }
        let ra = a.revisionTime?.timeIntervalSince1970 ?? -.infinity
        let rb = b.revisionTime?.timeIntervalSince1970 ?? -.infinity
        if ra != rb { return ra < rb }
        return a.identity < b.identity
    }

    /// `lowest`: by value; ties go to the later sample.
    static func isLower(_ a: DaySample, _ b: DaySample) -> Bool {
        let va = a.bpm ?? .infinity, vb = b.bpm ?? .infinity
        if va != vb { return va < vb }
        return isEarlier(b.sample, a.sample)
    }

    /// The series' order of samples: by day, writer (numbered by store and name) and time; the identity, then the
    /// road holding it (two roads may hold one sample, R12), break ties, so the order never depends on the order
    /// the store returned them in.
    public static func precedes(_ a: DaySample, _ writerA: Int, _ b: DaySample, _ writerB: Int) -> Bool {
        if a.day != b.day { return a.day < b.day }
        if writerA != writerB { return writerA < writerB }
        let sa = a.sample, sb = b.sample
        if sa.start != sb.start { return sa.start < sb.start }
        if sa.end != sb.end { return sa.end < sb.end }
        let ia = sa.identity, ib = sb.identity
        if ia != ib { return ia < ib }
        return b.road < a.road
    }
}
