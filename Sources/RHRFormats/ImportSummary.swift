import RHRCore

/// What an import changed, in the words `rhr import` prints after each file, and the daemon's HTTP feeds answer
/// with (docs/design.md section 4b): "Apple Health export (XML): 1,204,311 records read; HealthKit resting samples
/// 31 added, 1 replaced, 1 deleted, 2 out of range (kept, excluded from the trend)" (`SampleCounts.words`). A file of
/// sync batches may hold both stores: each gets its own counts, named (R1).
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
        return line
    }
}
