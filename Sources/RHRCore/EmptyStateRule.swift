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

    /// The words for a store with heart-rate samples and no resting writer. HealthKit does derive one, Apple's estimate
    /// from an Apple Watch's heart rate (R15, issue 28); Health Connect derives none; rhr never does.
    public static func explanation(_ contents: StoreContents) -> String {
        let writers = contents.heartRateWriters.map(\.displayName).sorted()
        let who = writers.isEmpty ? "" : " from " + Wording.list(writers)
        let samples = Wording.count(contents.heartRateSamples, "heart-rate sample")
        switch contents.store {
        case .healthKit:
            return "HealthKit holds \(samples)\(who), but no resting heart rate: neither Apple’s estimate, which the "
                + "system makes from an Apple Watch’s heart rate, nor a value an app wrote. rhr does not derive one from "
                + "heart-rate samples, so there is no resting value to show."
        case .healthConnect:
            return "Health Connect holds \(samples)\(who), but no app writes resting heart rate. Health Connect does not "
                + "derive resting heart rate from heart-rate samples, nor does rhr, so there is no resting value to show."
        }
    }

    /// The words for imports that held no heart data: what the store holds, and from which import; times in
    /// `zone`, the machine's clock, as everywhere rhr shows when data was read.
    public static func explanation(imported streams: [StreamState], thisYear: Int, zone: TimeZone) -> [String] {
        var lines = ["The store holds no resting heart rate and no heart rate: what was imported had none."]
        for stream in streams {
            let what = stream.origin.isEmpty ? stream.stream : stream.origin
            let when = stream.asOf.map { " as of \($0.at(zone).text(thisYear: thisYear))" } ?? ""
            lines.append("\(stream.store.displayName): \(what)\(when) (\(stream.stream)), with no resting or heart-rate records.")
        }
        return lines
    }
}
