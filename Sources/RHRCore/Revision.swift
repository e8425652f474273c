/// Why a value left the trend (R4).
public enum RevisionReason: String, Sendable, Hashable, CaseIterable {
    /// The platform said it was deleted (an anchored HealthKit batch, a Health Connect changes batch).
    case deleted
    /// The same sample arrived again with another value.
    case replaced
    /// A newer export of the store no longer had it.
    case notInNewerExport = "not-in-newer-export"
    /// A full resync of its stream no longer had it.
    case fullResync = "full-resync"
}

/// A deleted or replaced value, kept for the detail view: "draft 62, replaced by 59 in the export of 14 Mar".
public struct RevisionEntry: Sendable, Hashable {
    public var writer: Writer
    public var day: LocalDay
    public var identity: String
    /// The old value in bpm, and as delivered.
    public var oldBPM: Double?
    public var oldValue: Double
    public var unit: String
    /// Whether the old value was provisional when it was last read.
    public var wasProvisional: Bool
    public var reason: RevisionReason
    /// The value of the same writer and day that took its place, when there is one.
    public var replacedByBPM: Double?
    /// When it happened: the `asOf` of the batch that removed or replaced it.
    public var at: Timestamp
    /// The batch's origin: "export of 14 Mar", a file name, a bridge's stream.
    public var origin: String

    public init(writer: Writer, day: LocalDay, identity: String, oldBPM: Double?, oldValue: Double, unit: String,
                wasProvisional: Bool, reason: RevisionReason, replacedByBPM: Double?, at: Timestamp, origin: String) {
        self.writer = writer
        self.day = day
        self.identity = identity
        self.oldBPM = oldBPM
        self.oldValue = oldValue
        self.unit = unit
        self.wasProvisional = wasProvisional
        self.reason = reason
        self.replacedByBPM = replacedByBPM
        self.at = at
        self.origin = origin
    }

    /// "draft 62, replaced by 59 in the export of 14 Mar"; "58, deleted by the writer (iphone, 12 Mar 23:51)".
    public var text: String {
        let old = (wasProvisional ? "draft " : "") + (oldBPM.map { RestingValue.format($0) } ?? "\(oldValue) \(unit)")
        let replacement = replacedByBPM.map { ", replaced by " + RestingValue.format($0) } ?? ""
        let place = origin.isEmpty ? at.shortText : "\(origin), \(at.shortText)"
        switch reason {
        case .deleted:
            return replacement.isEmpty ? "\(old), deleted (\(place))" : "\(old)\(replacement) (\(place))"
        case .replaced:
            return "\(old)\(replacement.isEmpty ? ", replaced" : replacement) (\(place))"
        case .notInNewerExport:
            return replacement.isEmpty ? "\(old), gone from the \(origin.isEmpty ? "newer export" : origin) (\(at.shortText))"
                : "\(old)\(replacement) in the \(origin.isEmpty ? "newer export" : origin)"
        case .fullResync:
            return "\(old), gone after a full resync (\(place))"
        }
    }
}
