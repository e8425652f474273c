import Foundation
/// Why a value left the trend (R4, R12).
public enum RevisionReason: String, Sendable, Hashable, CaseIterable {
    /// The platform said it was deleted (an anchored HealthKit batch, a Health Connect changes batch).
    case deleted
    /// The same sample arrived again with another value: on its own road, or by a fresher road (R12).
    case replaced
    /// A newer export of its stream no longer had it, or had another value for the writer's day.
    case notInNewerExport = "not-in-newer-export"
    /// A full resync of its stream no longer had it.
    case fullResync = "full-resync"
    /// A fresher road holds other samples for the writer's day, and they stand instead (R12).
    case superseded
    /// The import that brought it was forgotten (`rhr imports forget`, docs/design.md section 5): `origin` names it.
    case forgotten
}

/// A value that left the trend, kept for the detail view and the summary: "draft 63 → 61 (bridge-iphone, 10 Feb
/// 13:00)". Each names the value that really replaced it on the road that replaced it (R12), never an equal one.
public struct RevisionEntry: Sendable, Hashable {
    public var writer: Writer
    public var day: LocalDay
    public var identity: String
    /// The old value in bpm, and as delivered.
    public var oldBPM: Double?
    public var oldValue: Double
    public var unit: String
    /// Whether the old value was provisional when it was last read (R3).
    public var wasProvisional: Bool
    public var reason: RevisionReason
    /// The value that took its place, when there is one: on the same road, or the deciding road's (R12).
    public var replacedByBPM: Double?
    /// When it happened: the `asOf` of the batch, export or road that removed or replaced it.
    public var at: Timestamp
    /// Where that came from: "Apple Health export", a file name, a bridge's stream.
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

    /// R12: a value "replaced" by an equal one is no revision.
    public var isRevision: Bool {
        guard let replacedByBPM, let oldBPM else { return true }
        return replacedByBPM != oldBPM
    }

    /// "draft 61 → 59 (bridge-iphone, 14 Mar 12:15)"; "58, deleted (iphone, 12 Mar 23:51)"; "57, not in the newer
    /// export (Apple Health export, 19 Jul 2019 10:36)"; "60 → 57, forgotten with import 4 (bobs-export.zip), 30 Mar
    /// 12:00": the year written when it is not `thisYear`; the time in
    /// `zone` (the machine's clock, as the dashboard and the summary show every moment something was read), else
    /// at the offset the road wrote.
    public func text(thisYear: Int, zone: TimeZone? = nil) -> String {
        let old = (wasProvisional ? "draft " : "") + (oldBPM.map { RestingValue.format($0) } ?? "\(oldValue) \(unit)")
        let when = (zone.map(at.at) ?? at).text(thisYear: thisYear)
        let place = origin.isEmpty ? when : "\(origin), \(when)"
        if let replacedByBPM, reason != .forgotten { return "\(old) → \(RestingValue.format(replacedByBPM)) (\(place))" }
        switch reason {
        case .deleted: return "\(old), deleted (\(place))"
        case .replaced: return "\(old), replaced (\(place))"
        case .notInNewerExport: return "\(old), not in the newer export (\(place))"
        case .fullResync: return "\(old), gone after a full resync (\(place))"
        case .superseded: return "\(old), superseded by a fresher road (\(place))"
        case .forgotten:
            return old + (replacedByBPM.map { " → \(RestingValue.format($0))" } ?? "") + ", forgotten with \(place)"
        }
    }

    /// The history's one order, whatever order the entries were found or imported in: by time, then writer, day,
    /// identity and values.
    public static func precedes(_ a: RevisionEntry, _ b: RevisionEntry) -> Bool {
        if a.at.epochSeconds != b.at.epochSeconds { return a.at.epochSeconds < b.at.epochSeconds }
        if a.writer.key != b.writer.key { return a.writer.key < b.writer.key }
        if a.day != b.day { return a.day < b.day }
        if a.identity != b.identity { return a.identity < b.identity }
        func number(_ v: Double) -> Double { v.isNaN ? -.infinity : v }
        let oa = number(a.oldBPM ?? a.oldValue), ob = number(b.oldBPM ?? b.oldValue)
        if oa != ob { return oa < ob }
        let ra = a.replacedByBPM ?? -.infinity, rb = b.replacedByBPM ?? -.infinity
        if ra != rb { return ra < rb }
        if a.reason != b.reason { return a.reason.rawValue < b.reason.rawValue }
        return a.origin < b.origin
    }
}
