import RHRCore

/// The data prepared once per load so a key press only looks things up: the per-day values of every writer
/// under each aggregation (R7), the raw samples and revisions by day, the sedentary context series (R8), the
/// diagnosis for the empty states (R9) and the notes on limits (R10).
public final class DashboardIndex: Sendable {
    /// What was read; `samples` ordered by day, writer and time (the order `samples(on:)` returns them in).
    public let data: DashboardData
    /// Resting writers, ordered by store, then number, then name (`DaySeries`).
    public let writers: [Writer]
    /// Each writer's place in the palette and the keys: its lasting number less one (`data.writerNumbers`), so its
    /// key (1–9), glyph and colour never move when writers come; a writer without one follows the highest.
    public let slots: [Int]
    /// Heart-rate writers with sedentary samples: the context series.
    public let contextWriters: [Writer]
    public let diagnosis: DataDiagnosis
    /// The first and last day with a resting value.
    public let firstRestingDay: LocalDay?
    public let lastRestingDay: LocalDay?
    /// The first and last day with anything to chart (resting or context).
    public let firstDay: LocalDay?
    public let lastDay: LocalDay?
    /// Per store, the newest `asOf` of its streams: "HealthKit as of 12 Mar 21:00".
    public let storeAsOf: [(store: HealthStore, asOf: Timestamp)]
    /// The stores that hold anything, in order.
    public let stores: [HealthStore]
    /// Per writer (in `writers` order): its derivation and watch mark (`WriterFacts`).
    let facts: [WriterFacts]
    /// How late each writer's values come, worked out when first asked (`lateness(writer:)`).
    let latenessMemo: WriterLatenessMemo
    /// Writers whose resting values stopped on a phone feed that still delivers heart rate: header notes.
    let writerStops: [WriterStop]
    /// Health Connect's own app priority for vitals, when an export gave one.
    let appPriority: AppPriority?

    /// [aggregation][writer] → that writer's day values, sorted by day.
    let series: [[[DayValue]]]
    /// [context writer] → (day, sedentary minimum), sorted by day.
    let sedentary: [[(day: LocalDay, bpm: Double)]]
    /// Where each day's samples are in `data.samples`.
    let dayRanges: [LocalDay: Range<Int>]
    let revisionsByDay: [LocalDay: [RevisionEntry]]
    let heartRateByDay: [LocalDay: [HeartRateDaySummary]]
    /// Each series' range over the whole store, per zoom: the chart's fixed scale (`ChartRange.swift`).
    let ranges = ChartRanges()
    /// The chart's last series, drawn again while nothing they depend on moves (`ChartSeriesMemo`).
    let lastChart = ChartSeriesMemo()
    /// The writers (indexes) with a provisional value anywhere, and whether any value is out of range: marks the
    /// legend may have to explain wherever the chart scrolls (`ChartView.potentialMarks`).
    let provisionalWriters: [Int]
    let hasOutOfRange: Bool

    public convenience init(_ data: DashboardData) {
        // R7 through the one pipeline: samples grouped by day and writer, each group aggregated.
        let daySeries = DaySeries(data.samples, numbers: data.writerNumbers)
        var ordered = data
        ordered.samples = daySeries.samples
        let grouped = Self.group(daySeries)
        self.init(data: ordered, writers: daySeries.writers, series: grouped.series, dayRanges: grouped.dayRanges,
                  revisionsByDay: Dictionary(grouping: data.revisions, by: \.day),
                  heartRateByDay: Dictionary(grouping: data.heartRateDays, by: \.day))
    }

    /// Each (day, writer) group of the series aggregated under every aggregation (R7): lists come out sorted by
    /// day. And where each day's samples are in `series.samples`.
    static func group(_ daySeries: DaySeries) -> (series: [[[DayValue]]], dayRanges: [LocalDay: Range<Int>]) {
        var series = Aggregation.allCases.map { _ in Array(repeating: [DayValue](), count: daySeries.writers.count) }
        var dayRanges: [LocalDay: Range<Int>] = [:]
        for group in daySeries.groups {
            for (a, aggregation) in Aggregation.allCases.enumerated() {
                series[a][group.writer].append(daySeries.value(of: group, by: aggregation))
            }
            let start = dayRanges[group.day]?.lowerBound ?? group.range.lowerBound
            dayRanges[group.day] = start..<group.range.upperBound
        }
        return (series, dayRanges)
    }

    /// The parts that take the time (per-day values, grouped samples), and what is quickly derived from them
    /// and the rest of `data`: the sedentary series, first and last days, the diagnosis, the stores.
    /// `context`: the sedentary series when known already (the heart rate did not change), else made from
    /// `data.heartRateDays`.
    init(data: DashboardData, writers: [Writer], series: [[[DayValue]]], dayRanges: [LocalDay: Range<Int>],
         revisionsByDay: [LocalDay: [RevisionEntry]], heartRateByDay: [LocalDay: [HeartRateDaySummary]],
         context: (writers: [Writer], sedentary: [[(day: LocalDay, bpm: Double)]])? = nil, facts: [WriterFacts]? = nil,
         lateness: WriterLatenessMemo = WriterLatenessMemo()) {
        self.data = data
        self.writers = writers
        var next = data.writerNumbers.values.max() ?? 0
        self.slots = writers.map { w in
            if let n = data.writerNumbers[w.key] { return n - 1 }
            next += 1
            return next - 1
        }
        self.series = series
        let values = series.first ?? []
        self.provisionalWriters = values.indices.filter { values[$0].contains(where: \.provisional) }
        self.hasOutOfRange = values.contains { $0.contains { $0.outOfRange > 0 } }
        self.dayRanges = dayRanges
        self.revisionsByDay = revisionsByDay
        self.heartRateByDay = heartRateByDay

        if let context {
            self.contextWriters = context.writers
            self.sedentary = context.sedentary
        } else {
            // R8: the sedentary minimum per writer and day, merged over the summaries of that day.
            var minimum: [WriterKey: [LocalDay: Double]] = [:]
            var contextWriterByKey: [WriterKey: Writer] = [:]
            for h in data.heartRateDays {
                guard let m = h.sedentaryMin, !m.isNaN else { continue }
                contextWriterByKey[h.writer.key] = h.writer
                minimum[h.writer.key, default: [:]][h.day] = min(minimum[h.writer.key]?[h.day] ?? m, m)
            }
            let contextWriters = contextWriterByKey.values.sorted()
            self.contextWriters = contextWriters
            self.sedentary = contextWriters.map { w in
                (minimum[w.key] ?? [:]).map { (day: $0.key, bpm: $0.value) }.sorted { $0.day < $1.day }
            }
        }

        // Samples are ordered by day: the first and the last plausibly dated (R13) hold the range.
        let firstResting = data.samples.first { !$0.implausibleDate }?.day
        let lastResting = data.samples.last { !$0.implausibleDate }?.day
        self.firstRestingDay = firstResting
        self.lastRestingDay = lastResting
        let contextFirst = sedentary.compactMap { $0.first?.day }.min()
        let contextLast = sedentary.compactMap { $0.last?.day }.max()
        self.firstDay = [firstResting, contextFirst].compactMap { $0 }.min()
        self.lastDay = [lastResting, contextLast].compactMap { $0 }.max()

        // Resting samples make it the resting case whatever the contents say.
        let diagnosis = DataDiagnosis(data.contents, streams: data.streams)
        if !data.samples.isEmpty, case .resting = diagnosis {
            self.diagnosis = diagnosis
        } else if !data.samples.isEmpty {
            self.diagnosis = .resting(storesWithoutRestingWriter: [])
        } else if data.contents.isEmpty && !data.heartRateDays.isEmpty {
            // Heart rate but no contents given: count them from the summaries.
            self.diagnosis = DataDiagnosis(StoreContents.tally(samples: [], heartRate: data.heartRateDays))
        } else {
            self.diagnosis = diagnosis
        }

        self.storeAsOf = AsOfWording.newest(data.streams, zone: data.machineZone)
        var stores = Set(writers.map(\.store))
        stores.formUnion(data.contents.filter { !$0.isEmpty }.map(\.store))
        stores.formUnion(data.heartRateDays.map(\.writer.store))
        self.stores = stores.sorted()
        self.facts = facts ?? WriterFacts.of(data, writers: writers)
        latenessMemo = lateness
        writerStops = WriterFacts.stops(data)
        appPriority = AppPriority.newest(in: data.streams)
    }

    public var revision: Int64 { data.revision }

    /// How late writer `w`'s values come, over every road's copies.
    func lateness(writer w: Int) -> WriterLateness {
        latenessMemo.lateness(of: writers[w], in: data.samples)
    }
    public var hasResting: Bool { !writers.isEmpty }

    /// Writer `number` (1-based, its slot plus one), if there is one.
    public func writer(number: Int) -> Writer? {
        slots.firstIndex(of: number - 1).map { writers[$0] }
    }

    /// One writer's day values under an aggregation, sorted by day.
    public func values(writer index: Int, aggregation: Aggregation) -> [DayValue] {
        series[Self.position(aggregation)][index]
    }

    /// One writer's value on one day, if it has samples that day.
    public func value(writer index: Int, day: LocalDay, aggregation: Aggregation) -> DayValue? {
        let list = series[Self.position(aggregation)][index]
        let i = Self.lowerBound(list.count) { list[$0].day < day }
        return i < list.count && list[i].day == day ? list[i] : nil
    }

    /// The index of the first value on or after `day`.
    public func firstIndex(writer index: Int, onOrAfter day: LocalDay, aggregation: Aggregation) -> Int {
        let list = series[Self.position(aggregation)][index]
        return Self.lowerBound(list.count) { list[$0].day < day }
    }

    /// One context writer's sedentary minima, sorted by day.
    public func sedentaryMinima(contextWriter index: Int) -> [(day: LocalDay, bpm: Double)] { sedentary[index] }

    public func firstSedentaryIndex(contextWriter index: Int, onOrAfter day: LocalDay) -> Int {
        let list = sedentary[index]
        return Self.lowerBound(list.count) { list[$0].day < day }
    }

    /// The day's raw resting samples, by writer and time.
    public func samples(on day: LocalDay) -> [DaySample] { dayRanges[day].map { Array(data.samples[$0]) } ?? [] }
    public func revisions(on day: LocalDay) -> [RevisionEntry] { revisionsByDay[day] ?? [] }
    public func heartRate(on day: LocalDay) -> [HeartRateDaySummary] { heartRateByDay[day] ?? [] }

    /// The nearest days with resting samples before and after `day`.
    public func neighbours(of day: LocalDay) -> (before: LocalDay?, after: LocalDay?) {
        var before: LocalDay?, after: LocalDay?
        for w in writers.indices {
            let list = series[0][w]
            let i = Self.lowerBound(list.count) { list[$0].day < day }
            if i > 0 { before = max(before ?? list[i - 1].day, list[i - 1].day) }
            var j = i
            while j < list.count && list[j].day == day { j += 1 }
            if j < list.count { after = min(after ?? list[j].day, list[j].day) }
        }
        return (before, after)
    }

    /// R9 and R10, in words: a store with heart rate but no resting writer, and the limits the Health Connect
    /// feeds' permissions set. A changes token unused for more than 30 days (relative to `today`) too. Then the
    /// phone feeds' freshness (`FeedNotices`), and writers whose resting values stopped on one (`WriterStop`).
    public func notices(today: LocalDay) -> [String] {
        var notes: [String] = []
        if case .resting(let without) = diagnosis {
            notes += without.map { DataDiagnosis.explanation($0, streams: data.streams) }
        }
        for stream in data.streams {
            notes += stream.permissionNotes(today: today).map { "\(stream.noteName): \($0)." }
        }
        notes += FeedNotices.notes(data.streams, today: today, zone: data.machineZone)
        notes += writerStops.map { $0.words(thisYear: today.year) }
        return notes
    }

    static func position(_ aggregation: Aggregation) -> Int {
        switch aggregation {
        case .latest: return 0
        case .lowest: return 1
        case .mean: return 2
        }
    }

    /// The first index in 0..<count for which `isBefore` is false (binary search).
    static func lowerBound(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isBefore(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
