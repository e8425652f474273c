import RHRCore

/// What an import changed, in the words `rhr import` prints after each file, the folder watch logs (`WatchImport`) and
/// the daemon's HTTP feeds answer with (docs/design.md section 4b): "Apple Health export (XML): 1,204,311 records read;
/// HealthKit resting samples 31 added, 1 replaced, 1 deleted; 2 out of range among them (kept, excluded from the trend);
/// 1,150,000 heart-rate readings (kept as day summaries, R8); 54,280 skipped: records of other types"
/// (`SampleCounts.words`). The counts are the account of the records read (docs/design.md R14): each is a resting sample
/// (under what became of it), a heart-rate reading, passed over or skipped, and they add up to the records read;
/// `deleted` counts values already stored that the file took away. A file of sync batches may hold both stores: each
/// gets its own counts, named (R1).
public struct ImportSummary: Sendable, Equatable {
    /// What the file was read as: "Apple Health export (XML)".
    public var kind: String
    public var records = 0
    /// Each store's resting samples, by what became of them; a store the file held nothing of is absent.
    public var samples: [HealthStore: SampleCounts] = [:]
    public var heartRateReadings = 0
    /// Batches applied before (sync batches sent again).
    public var duplicates = 0
    /// Records of types rhr does not read, by reason.
    public var skipped: [String: Int] = [:]
    /// R14: records passed over, kept in the store.
    public var passedOver = 0
    /// How the file was read ("no <ExportDate>: taken as of …"), and R13's words on its times that could not be right.
    public var notes: [String] = []

    public init(kind: String) { self.kind = kind }

    /// `tally`: what applying the file's batches did (all of them, streamed or not).
    public init(_ imported: ImportedFile, _ tally: BatchTally) {
        kind = imported.kind.description
        records = imported.recordsRead
        samples = tally.samples
        heartRateReadings = imported.heartRateRead
        duplicates = tally.duplicates
        skipped = imported.skipped
        passedOver = imported.passedOver.total
        notes = imported.notes + tally.futureDatedWords
    }

    /// `outcomes` are those of `imported.batches`, in order.
    public static func words(_ imported: ImportedFile, _ outcomes: [BatchOutcome]) -> String {
        words(imported, BatchTally(imported.batches, outcomes))
    }

    public static func words(_ imported: ImportedFile, _ tally: BatchTally) -> String {
        ImportSummary(imported, tally).words
    }

    /// The line, without the file's name.
    public var words: String {
        func counts(_ total: SampleCounts) -> String { "resting samples " + total.words }
        let perStore = HealthStore.allCases.compactMap { store in samples[store].map { "\(store.displayName) " + counts($0) } }
        var line = "\(kind): \(Wording.count(records, "record")) read; "
            + (perStore.isEmpty ? counts(SampleCounts()) : perStore.joined(separator: "; "))
        if heartRateReadings > 0 {
            line += "; " + Wording.count(heartRateReadings, "heart-rate reading") + " (kept as day summaries, R8)"
        }
        if duplicates > 0 { line += "; " + SampleCounts.appliedBefore(duplicates) }
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
            line += "; \(Wording.grouped(count)) skipped: \(reason)"
        }
        if passedOver > 0 { line += "; " + PassedOverLog.words(passedOver) }
        for note in notes { line += "; " + note }
        return line
    }
}
