// What applied batches did, added up as they are applied: an import line's counts without keeping every outcome.

/// The outcomes of applied batches, added up as they come (a file of a million batches keeps no million outcomes):
/// each store's counts on their own (R1), the batches applied before, the changed days and the store's revision after
/// them. What an import line (`ImportSummary`), a folder import (`WatchImport`) and the daemon's subscribers
/// (`RevisionTracker`) are told.
public struct BatchTally: Sendable, Equatable {
    public private(set) var samples: [HealthStore: SampleCounts] = [:]
    public private(set) var batches = 0
    /// Batches applied before (their cursor was seen): they changed nothing.
    public private(set) var duplicates = 0
    /// Batches that changed something, each of which moved the store's revision by one.
    public private(set) var changedBatches = 0
    public private(set) var changedDays: Set<LocalDay> = []
    /// The store's revision after the last of them.
    public private(set) var revision: Int64 = 0
    /// R14: records passed over and kept.
    public private(set) var passedOver = 0
    public private(set) var heartRateSummaries = 0
    /// R13: the times of their own the batches gave that could not be right, each once; past `futureDatedKept` of them,
    /// only counted (`moreFutureDated`), so that a file of a million batches from a wrong clock keeps no million notes.
    public private(set) var futureDated: Set<FutureDelivery> = []
    public private(set) var moreFutureDated = 0
    static let futureDatedKept = 8

    public init() {}

    /// The outcomes of `batches`, in order.
    public init(_ batches: [SyncBatch], _ outcomes: [BatchOutcome]) {
        for (batch, outcome) in zip(batches, outcomes) { add(outcome, of: batch.store) }
    }

    public mutating func add(_ outcome: BatchOutcome, of store: HealthStore) {
        batches += 1
        samples[store, default: SampleCounts()] += outcome.samples
        revision = max(revision, outcome.revision)
        passedOver += outcome.passedOver
        heartRateSummaries += outcome.heartRateSummaries
        for note in outcome.futureDated where !futureDated.contains(note) {
            if futureDated.count < Self.futureDatedKept { futureDated.insert(note) } else { moreFutureDated += 1 }
        }
        if outcome.duplicate {
            duplicates += 1
        } else if outcome.changedSomething {
            changedBatches += 1
            changedDays.formUnion(outcome.changedDays)
        }
    }

    /// "export dated 1 Jan 2099, later than this machine's clock: dated by when it was read (…)", one for each time
    /// kept, then how many more there were.
    public var futureDatedWords: [String] {
        var words = futureDated.map(\.words).sorted()
        if moreFutureDated > 0 {
            words.append("\(Wording.grouped(moreFutureDated)) more dated later than this machine's clock, "
                         + "each dated by when it was read")
        }
        return words
    }

    /// Every store's counts together.
    public var total: SampleCounts { samples.values.reduce(into: SampleCounts()) { $0 += $1 } }
}
