import RHRCore

/// What an import changed, in the words `rhr import` prints after each file, and the daemon's HTTP feeds answer
/// with (docs/design.md section 4b): "Apple Health export (XML): 1,204,311 records read; HealthKit resting samples
/// 31 added, 1 replaced, 1 deleted; 2 out of range among them (kept, excluded from the trend); 1,150,000 heart-rate
/// readings (kept as day summaries, R8); 54,280 skipped: records of other types" (`SampleCounts.words`). The counts
/// are the account of the records read (docs/design.md R14): each is a resting sample (under what became of it), a
/// heart-rate reading, passed over or skipped, and they add up to the records read; `deleted` counts values already
/// stored that the file took away. A file of sync batches may hold both stores: each gets its own counts, named (R1).
public enum ImportSummary {
    /// `outcomes` are those of `imported.batches`, in order.
    public static func words(_ imported: ImportedFile, _ outcomes: [BatchOutcome]) -> String {
        words(imported, BatchTally(imported.batches, outcomes))
    }

    /// `tally`: what applying the file's batches did (all of them, streamed or not).
    public static func words(_ imported: ImportedFile, _ tally: BatchTally) -> String {
        let totals = tally.samples
        func counts(_ total: SampleCounts) -> String { "resting samples " + total.words }
        let perStore = HealthStore.allCases.compactMap { store in totals[store].map { "\(store.displayName) " + counts($0) } }
        var line = "\(imported.kind): \(Wording.count(imported.recordsRead, "record")) read; "
            + (perStore.isEmpty ? counts(SampleCounts()) : perStore.joined(separator: "; "))
        if imported.heartRateRead > 0 {
            line += "; " + Wording.count(imported.heartRateRead, "heart-rate reading") + " (kept as day summaries, R8)"
        }
        let duplicates = tally.duplicates
        if duplicates > 0 { line += "; " + SampleCounts.appliedBefore(duplicates) }
        for (reason, count) in imported.skipped.sorted(by: { $0.key < $1.key }) {
            line += "; \(Wording.grouped(count)) skipped: \(reason)"
        }
        let passedOver = imported.passedOver
        if !passedOver.isEmpty {
            line += "; " + PassedOverLog.words(passedOver.total)
        }
        for note in imported.notes { line += "; " + note }
        for note in tally.futureDatedWords { line += "; " + note }
        return line
    }
}
