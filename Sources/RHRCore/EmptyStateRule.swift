import Foundation
/// What one store holds, as far as the empty state (R9) needs to know.
public struct StoreContents: Sendable, Hashable {
    public var store: HealthStore
    public var restingWriters: [Writer]
    public var restingSamples: Int
    public var heartRateSamples: Int
    public var heartRateWriters: [Writer]

    public init(store: HealthStore, restingWriters: [Writer] = [], restingSamples: Int = 0,
                heartRateSamples: Int = 0, heartRateWriters: [Writer] = []) {
        self.store = store
        self.restingWriters = restingWriters
        self.restingSamples = restingSamples
        self.heartRateSamples = heartRateSamples
        self.heartRateWriters = heartRateWriters
    }

    /// What each store holds, from counts per writer: the one place they are tallied, whether the store counts
    /// them (`HealthDatabase.contents()`) or the dashboard's live patch does from what it holds. Writers with a
    /// count of zero are left out; writers sorted; always one entry per store, in store order.
    public static func tally(resting: [(writer: Writer, samples: Int)],
                             heartRate: [(writer: Writer, samples: Int)]) -> [StoreContents] {
        var result: [HealthStore: StoreContents] = [:]
        for store in HealthStore.allCases { result[store] = StoreContents(store: store) }
        for (writer, count) in resting where count > 0 {
            result[writer.store]!.restingWriters.append(writer)
            result[writer.store]!.restingSamples += count
        }
        for (writer, count) in heartRate where count > 0 {
            result[writer.store]!.heartRateWriters.append(writer)
            result[writer.store]!.heartRateSamples += count
        }
        return HealthStore.allCases.map { store in
            var contents = result[store]!
            contents.restingWriters.sort()
            contents.heartRateWriters.sort()
            return contents
        }
    }

    /// The same from the samples and heart-rate summaries themselves: the samples that stand (R12: those of
    /// the road that decides each writer's day), and each summary's samples.
    public static func tally(samples: [DaySample], heartRate: [HeartRateDaySummary]) -> [StoreContents] {
        let series = DaySeries(samples)
        return tally(resting: perWriter(series.groups.lazy.map { (series.writers[$0.writer], DaySeries.standing(series.samples(in: $0)).count) }),
                     heartRate: perWriter(heartRate.lazy.map { ($0.writer, $0.total) }))
    }

    private static func perWriter(_ counts: some Sequence<(Writer, Int)>) -> [(writer: Writer, samples: Int)] {
        var totals: [WriterKey: (writer: Writer, samples: Int)] = [:]
        for (writer, n) in counts { totals[writer.key, default: (writer, 0)].samples += n }
        return Array(totals.values)
    }

    public var isEmpty: Bool { restingSamples == 0 && heartRateSamples == 0 }
    public var hasHeartRateWithoutResting: Bool { restingSamples == 0 && heartRateSamples > 0 }
}

/// R9: never an empty chart. Either there is nothing (onboarding), or something was imported that held no heart
/// data (said so, with what it was), or heart rate without any resting writer (said in words), or resting values,
/// possibly with a store that has heart rate but no resting writer.
public enum DataDiagnosis: Sendable, Hashable {
    case noData
    /// Imports or feeds reached the store, and none of them held a resting or heart-rate sample.
    case noHeartData(imported: [StreamState])
    case noRestingWriter([StoreContents])
    case resting(storesWithoutRestingWriter: [StoreContents])

    /// `streams`: the roads the store has heard from, which tell an empty store from one whose imports held
    /// nothing of heart rate.
    public init(_ stores: [StoreContents], streams: [StreamState] = []) {
        let withoutResting = stores.filter(\.hasHeartRateWithoutResting).sorted { $0.store < $1.store }
        if stores.allSatisfy(\.isEmpty) {
            self = streams.isEmpty ? .noData : .noHeartData(imported: streams.sorted { ($0.store, $0.stream) < ($1.store, $1.stream) })
        } else if stores.allSatisfy({ $0.restingSamples == 0 }) {
            self = .noRestingWriter(withoutResting)
        } else {
            self = .resting(storesWithoutRestingWriter: withoutResting)
        }
    }

    /// The words for a store with heart-rate samples and no resting writer (R9): what it holds, and that nothing
    /// makes a resting value of heart-rate samples. HealthKit's own resting heart rate is derived on an Apple Watch,
    /// which alone writes it; Health Connect derives none, and where a feed of `streams` reported its permissions
    /// without READ_RESTING_HEART_RATE (R10), that is named as the likely cause, not the writers.
    public static func explanation(_ contents: StoreContents, streams: [StreamState] = []) -> String {
        let writers = contents.heartRateWriters.map(\.displayName).sorted()
        let who = writers.isEmpty ? "" : " from " + Wording.list(writers)
        let holds = "\(contents.store.displayName) holds \(Wording.count(contents.heartRateSamples, "heart-rate sample"))\(who) "
            + "and no resting heart rate."
        switch contents.store {
        case .healthKit:
            return holds + " HealthKit's own resting heart rate is an estimate only an Apple Watch writes, from its "
                + "heart-rate readings; nothing makes one later from heart-rate samples, rhr included."
        case .healthConnect:
            if let cause = likelyCause(contents, streams: streams) { return holds + " The likely cause: " + cause + "." }
            return holds + " Health Connect does not derive resting heart rate from heart-rate samples: an app has to "
                + "write RestingHeartRate records, and none here did."
        }
    }

    /// R9 with R10: why a Health Connect store holds heart rate and no resting value when its feeds say: those that
    /// reported their permissions without READ_RESTING_HEART_RATE. Nil when none did, or the store has resting values.
    public static func likelyCause(_ contents: StoreContents, streams: [StreamState]) -> String? {
        guard contents.store == .healthConnect, contents.hasHeartRateWithoutResting else { return nil }
        let feeds = streams.filter { $0.store == .healthConnect && $0.permissionLimits.contains(.noRestingPermission) }
        guard !feeds.isEmpty else { return nil }
        return "\(Wording.list(feeds.map(\.noteName))) did not have READ_RESTING_HEART_RATE, so the bridge could not "
            + "read resting heart rate, whatever an app wrote; give the bridge that permission in Health Connect"
    }

    /// Why a HealthKit store can hold heart rate and no resting values: a sentence that leads in, then each reason.
    /// Only what the file itself can show, or what Apple documents (docs/design.md section 6 names Apple's pages);
    /// empty for Health Connect, which derives none anyway.
    public static func reasons(_ contents: StoreContents) -> [String] {
        guard contents.store == .healthKit else { return [] }
        var reasons = ["An export can hold heart rate without resting values when:",
                       "it was trimmed or resampled: cut down to some kinds of record, or rewritten with fewer samples;",
                       "another app or a shortcut made it, with only the kinds of record it was set to;"]
        let watches = contents.heartRateWriters.filter {
            ProvisionalRule.isAppleWatch(sourceName: $0.name, productType: $0.productType, bundleIdentifier: $0.bundleIdentifier)
        }
        if watches.isEmpty {
            reasons.append("no Apple Watch wrote to it: none of these writers is one.")
        } else {
            reasons.append("the watch had too few readings taken while you were still (not worn at rest): Apple says it "
                           + "works out a daily resting rate when enough background readings are available;")
            reasons.append("the watch does not record one: Apple lists resting rates for Series 1 or later, and "
                           + "HealthKit has had them since iOS 11 and watchOS 4.")
        }
        return reasons
    }

    /// The words for imports that held no heart data: what the store holds, and from which import; times in
    /// `zone`, the machine's clock, as everywhere rhr shows when data was read.
    public static func explanation(imported streams: [StreamState], thisYear: Int, zone: TimeZone) -> [String] {
        var lines = ["The store holds no resting heart rate and no heart rate: what was imported had none."]
        for stream in streams {
            let what = stream.origin.isEmpty ? stream.stream : stream.origin
            let when = stream.asOf.map { " " + AsOfWording.phrase($0.at(zone), thisYear: thisYear) } ?? ""
            lines.append("\(stream.store.displayName): \(what)\(when) (\(stream.stream)), with no resting or heart-rate records.")
        }
        return lines
    }
}
