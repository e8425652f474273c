/// What one batch, or several summed, did to resting samples: what a `push` reply, `rhr import` and the folder
/// watch's imports count.
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

    public static func += (total: inout SampleCounts, more: SampleCounts) {
        total.added += more.added
        total.replaced += more.replaced
        total.deleted += more.deleted
        total.unchanged += more.unchanged
        total.outOfRange += more.outOfRange
    }
}
