/// What one batch, or several summed, did to resting samples: what a `push` reply, `rhr import` and the folder
/// watch's imports count, all in `words`.
public struct SampleCounts: Sendable, Hashable {
    public var added = 0
    /// Samples whose value or details changed under the same identity.
    public var replaced = 0
    public var deleted = 0
    /// Samples delivered exactly as already stored.
    public var unchanged = 0
    /// Samples stored but flagged out of range (R6).
    public var outOfRange = 0

    public init() {}

    /// "31 added, 1 replaced, 1 deleted, 2 out of range (kept, excluded from the trend), 3 unchanged": the one wording
    /// of import counts (`rhr import`, `rhr push`, the daemon's HTTP answers, the folder watch's log and `rhr status`);
    /// out of range and unchanged only when there are some.
    public var words: String {
        "\(Wording.grouped(added)) added, \(Wording.grouped(replaced)) replaced, \(Wording.grouped(deleted)) deleted"
            + (outOfRange > 0 ? ", \(Wording.grouped(outOfRange)) out of range (kept, excluded from the trend)" : "")
            + (unchanged > 0 ? ", \(Wording.grouped(unchanged)) unchanged" : "")
    }

    /// "2 batches applied before": batches of a file or feed that were applied already (sync batches sent again).
    public static func appliedBefore(_ batches: Int) -> String {
        Wording.count(batches, "batch", plural: "batches") + " applied before"
    }

    public static func += (total: inout SampleCounts, more: SampleCounts) {
        total.added += more.added
        total.replaced += more.replaced
        total.deleted += more.deleted
        total.unchanged += more.unchanged
        total.outOfRange += more.outOfRange
    }
}
