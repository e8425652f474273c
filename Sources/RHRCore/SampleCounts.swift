/// What one batch, or several summed, did with its resting samples: what a `push` reply, `rhr import` and the folder
/// watch's imports count, all in `words`. Each resting sample a delivery holds is counted once, under one outcome
/// (`accounted`): added, replaced, unchanged, overruled (by the rule that decides over it) or set aside. `deleted`
/// counts values already stored that the delivery took from the trend, and `outOfRange` flags some of the samples
/// counted: neither is a sample of the delivery's own (docs/design.md R14, *the account*).
public struct SampleCounts: Sendable, Hashable {
    public var added = 0
    /// Samples whose value or details changed under the same identity.
    public var replaced = 0
    public var deleted = 0
    /// Samples delivered exactly as already stored (or as the store already says them, by another road).
    public var unchanged = 0
    /// Samples stored but flagged out of range (R6): some of those counted above, not an outcome of their own.
    public var outOfRange = 0
    /// Samples kept while another delivery decides over them, by the rule that does: a fresher road decides their
    /// writer's day (R12); a file of the same instant made later holds them with another value (R12, *snapshots of one
    /// instant*); a deletion seen after their delivery takes them (R4).
    public var overruled = 0, overruledByLaterFile = 0, overruledByDeletion = 0
    /// Samples of an export older than one of its stream already imported, where that newer one covers their days
    /// (R12: an older export speaks only for what no newer one covers).
    public var setAside = 0

    public init() {}

    /// Every resting sample the counts account for: the sum of the outcomes.
    public var accounted: Int {
        added + replaced + unchanged + overruled + overruledByLaterFile + overruledByDeletion + setAside
    }

    /// "31 added, 1 replaced, 1 deleted, 3 unchanged, 2 overruled (a fresher delivery decides their days, R12), 40 set
    /// aside (a newer export covers their days); 2 out of range among them (kept, excluded from the trend)": the one
    /// wording of import counts (`rhr import`, `rhr push`, the daemon's HTTP answers, the folder watch's log and `rhr
    /// status`). Added, replaced and deleted always; the other outcomes, and out of range, when there are some.
    public var words: String {
        var parts = [Wording.grouped(added) + " added", Wording.grouped(replaced) + " replaced", Wording.grouped(deleted) + " deleted"]
        for (count, text) in [(unchanged, "unchanged"),
                              (overruled, "overruled (a fresher delivery decides their days, R12)"),
                              (overruledByLaterFile, "overruled (a file of the same instant made later decides, R12)"),
                              (overruledByDeletion, "overruled (deleted later, R4)"),
                              (setAside, "set aside (a newer export covers their days)")] where count > 0 {
            parts.append(Wording.grouped(count) + " " + text)
        }
        let flagged = outOfRange > 0 ? "; \(Wording.grouped(outOfRange)) out of range among them (kept, excluded from the trend)" : ""
        return parts.joined(separator: ", ") + flagged
    }

    /// "2 batches applied before": batches of a file or feed that were applied already (sync batches sent again).
    public static func appliedBefore(_ batches: Int) -> String {
        Wording.count(batches, "batch", plural: "batches") + " applied before"
    }

    /// Every count, for sums.
    static var all: [WritableKeyPath<SampleCounts, Int>] {
        [\.added, \.replaced, \.deleted, \.unchanged, \.outOfRange, \.overruled, \.overruledByLaterFile, \.overruledByDeletion,
         \.setAside]
    }

    public static func += (total: inout SampleCounts, more: SampleCounts) {
        for count in all { total[keyPath: count] += more[keyPath: count] }
    }
}
