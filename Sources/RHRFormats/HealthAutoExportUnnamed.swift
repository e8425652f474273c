import RHRCore

/// Health Auto Export values that name no writer (docs/design.md section 2): one rule for whose they are,
/// applied once a payload (a file, a request's body) is read whole. When its points name exactly one Apple Watch (by
/// its name, as R3 tells one; a combined source is no single writer), they are that watch's: its own estimate relayed
/// without its name, one line, not a second one beside it. Otherwise they stay the writer `Health Auto Export`, which
/// the labels call a writer Health Auto Export did not name. Nobody knows it for a watch (the batch marks none, so its
/// label and derivation stay a writer not named), but it may be one: R3 counts its values as a possible watch's, so
/// their last two days are provisional (`ProvisionalRule.mayBeWatch`, by its name, where a value is read).
extension HealthAutoExportContents {
    mutating func attributeUnnamed() {
        guard hasUnnamed, namedWatches.count == 1, let name = namedWatches.first else { return }
        let unnamed = WriterKey(store: .healthKit, name: HealthAutoExportReader.defaultWriter)
        let watch = Writer(store: .healthKit, name: name)
        for i in resting.indices where resting[i].writer.key == unnamed { resting[i].writer = watch }
        heartRate.reassign(unnamed, to: watch)
    }
}
