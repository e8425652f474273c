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

    public var isEmpty: Bool { restingSamples == 0 && heartRateSamples == 0 }
    public var hasHeartRateWithoutResting: Bool { restingSamples == 0 && heartRateSamples > 0 }
}

/// R9: never an empty chart. Either there is nothing (onboarding), or heart rate without any resting writer
/// (said in words), or resting values, possibly with a store that has heart rate but no resting writer.
public enum DataDiagnosis: Sendable, Hashable {
    case noData
    case noRestingWriter([StoreContents])
    case resting(storesWithoutRestingWriter: [StoreContents])

    public init(_ stores: [StoreContents]) {
        let withoutResting = stores.filter(\.hasHeartRateWithoutResting).sorted { $0.store < $1.store }
        if stores.allSatisfy(\.isEmpty) {
            self = .noData
        } else if stores.allSatisfy({ $0.restingSamples == 0 }) {
            self = .noRestingWriter(withoutResting)
        } else {
            self = .resting(storesWithoutRestingWriter: withoutResting)
        }
    }

    /// The words for a store with heart-rate samples and no resting writer.
    public static func explanation(_ contents: StoreContents) -> String {
        let writers = contents.heartRateWriters.map(\.displayName).sorted()
        let who = writers.isEmpty ? "" : " from " + Wording.list(writers)
        let samples = Wording.count(contents.heartRateSamples, "heart-rate sample")
        return "\(contents.store.displayName) holds \(samples)\(who), but no app writes resting heart rate. "
            + "\(contents.store.displayName) does not derive resting heart rate from heart-rate samples, "
            + "so there is no resting value to show."
    }
}
