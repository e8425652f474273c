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

/// Counts and lists in words, for every place that prints them.
public enum Wording {
    /// "1 heart-rate sample", "12,408 heart-rate samples".
    public static func count(_ n: Int, _ noun: String) -> String {
        "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// "12,408".
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }

    public static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        case 2: return "\(items[0]) and \(items[1])"
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }
}
