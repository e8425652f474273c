import Foundation
import RHRCore

/// The revision history of a range of days (R4, R12), worked out from what each road holds, so that the same files
/// imported in any order give the same history:
/// - each road's own replacements and deletions, in its own order, as its batches recorded them ("draft 63 → 61"
///   on the bridge, then "61 → 60");
/// - for each writer's day, every copy the deciding road does not stand behind, against what the deciding road
///   says: its copy of the same sample, or its latest value of the day, that really replaced it (an older export's
///   values included: it is a road too, and a newer export of its stream supersedes it);
/// - copies another road's deletion took (R4).
/// A value "replaced" by an equal value is no revision and is left out; two roads' equal words about one value
/// are one entry.
struct StoreHistory {
    let snapshot: StoreSnapshot
    let from: LocalDay?
    let to: LocalDay?

    private var db: SQLiteConnection { snapshot.db }

    /// One road's copy of a sample: what the history needs of it.
    private struct Copy {
        var layer: Int64
        /// When its road delivered it.
        var asOf: Double
        var current: Bool
        var identity: String
        var uuid: String?
        var writer: Int64
        var day: Int64
        var start: Double
        var end: Double
        /// Nil for NaN.
        var value: Double?
        var unit: String
        var inRange: Bool
        var revisionTime: Double?

        var bpm: Double? { value.flatMap { try? RestingValue.bpm(value: $0, unit: unit) } }

        /// Its value in bpm when valid (R6, R13): what can stand in for another.
        var validBPM: Double? {
            guard inRange, PlausibleTimeRule.isPlausible(start: Date(timeIntervalSince1970: start),
                                                         end: Date(timeIntervalSince1970: end),
                                                         asOf: Timestamp(epochSeconds: asOf, offsetSeconds: 0)) else { return nil }
            return bpm
        }

        /// R7's `latest` order (`DaySeries.isEarlier`) on what a copy holds: by end, then creation or modification
        /// time, then identity.
        static func isEarlier(_ a: Copy, _ b: Copy) -> Bool {
            if a.end != b.end { return a.end < b.end }
            let ra = a.revisionTime ?? -.infinity, rb = b.revisionTime ?? -.infinity
            if ra != rb { return ra < rb }
            return a.identity < b.identity
        }
    }

    private struct Deletion {
        var at: Timestamp
        var origin: String
    }

    func entries() throws(StoreError) -> [RevisionEntry] {
        let writers = try snapshot.loadWriters()
        let layers = try snapshot.loadLayers()
        let maker = EntryMaker(writers: writers, layers: layers)
        var found = try ownHistory(writers)
        // One entry for one revision, whichever roads tell it: the first in the history's order. A deletion another
        // road's copy met is the deleting road's own entry when it held the value too.
        var seen = Set(found.map { EntryKey($0, replacement: true) })
        var ownDeletions = Set(found.filter { $0.reason == .deleted }.map { EntryKey($0, replacement: false) })
        for entry in try supersessions(maker).sorted(by: RevisionEntry.precedes) {
            if entry.reason == .deleted, !ownDeletions.insert(EntryKey(entry, replacement: false)).inserted { continue }
            if seen.insert(EntryKey(entry, replacement: true)).inserted { found.append(entry) }
        }
        return found.filter(\.isRevision).sorted(by: RevisionEntry.precedes)
    }

    /// What makes two entries the same revision: the value (and, when asked, what replaced it), when and where; not
    /// whether it was read as a draft.
    private struct EntryKey: Hashable {
        var writer: WriterKey
        var day: LocalDay
        var identity: String
        var old: UInt64
        var replacement: UInt64?
        var at: Double
        var origin: String
        init(_ e: RevisionEntry, replacement: Bool) {
            writer = e.writer.key
            day = e.day
            identity = e.identity
            old = (e.oldBPM ?? e.oldValue).bitPattern
            self.replacement = replacement ? e.replacedByBPM?.bitPattern : nil
            at = e.at.epochSeconds
            origin = e.origin
        }
    }

    // MARK: - Each road's own history

    /// What the roads' batches recorded of their own replacements and deletions; "draft" judged by when the old
    /// value was read, against the writer as the store knows it now (R3).
    private func ownHistory(_ writers: [Int64: StoreSnapshot.WriterEntry]) throws(StoreError) -> [RevisionEntry] {
        let select = try db.statement("""
            SELECT writer_id, day, identity, old_value, unit, was_provisional, reason, replaced_by_bpm, at, at_offset,
                   origin, old_as_of
            FROM revision WHERE day >= ? AND day <= ?
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let writerID = try select.column("writer_id"), day = try select.column("day"), identity = try select.column("identity"),
            oldValue = try select.column("old_value"), unitColumn = try select.column("unit"),
            wasProvisional = try select.column("was_provisional"), reasonColumn = try select.column("reason"),
            replacedBy = try select.column("replaced_by_bpm"), at = try select.column("at"),
            atOffset = try select.column("at_offset"), origin = try select.column("origin"), oldAsOf = try select.column("old_as_of")
        var result: [RevisionEntry] = []
        while try select.step() {
            guard let writer = writers[select.int(writerID)],
                  let reason = RevisionReason(rawValue: select.text(reasonColumn)) else { continue }
            let value = select.optionalDouble(oldValue) ?? .nan
            let unit = select.text(unitColumn)
            let localDay = LocalDay(daysSinceEpoch: Int(select.int(day)))
            let provisional = select.optionalDouble(oldAsOf).map {
                ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.isWatch, day: localDay,
                                              asOf: Timestamp(epochSeconds: $0, offsetSeconds: Int(select.int(atOffset))))
            } ?? (select.int(wasProvisional) != 0)
            result.append(RevisionEntry(
                writer: writer.writer, day: localDay, identity: select.text(identity),
                oldBPM: try? RestingValue.bpm(value: value, unit: unit), oldValue: value, unit: unit,
                wasProvisional: provisional, reason: reason, replacedByBPM: select.optionalDouble(replacedBy),
                at: Timestamp(epochSeconds: select.double(at), offsetSeconds: Int(select.int(atOffset))),
                origin: select.text(origin)))
        }
        return result
    }

    // MARK: - Across roads (R12)

    /// The copies of the writer-days where something stands aside: held by more than one road, or holding a copy
    /// that no longer stands.
    private func contestedCopies() throws(StoreError) -> [WriterDayKey: [Copy]] {
        let select = try db.statement("""
            WITH contested AS (
                SELECT writer_id, day FROM sample WHERE day >= ?1 AND day <= ?2
                GROUP BY writer_id, day HAVING count(DISTINCT layer_id) > 1 OR min(current) = 0)
            SELECT s.layer_id, s.as_of, s.current, s.identity, s.uuid, s.writer_id, s.day, s.start, s."end", s.value,
                   s.unit, s.in_range, s.store, s.created, s.last_modified
            FROM contested c JOIN sample s ON s.writer_id = c.writer_id AND s.day = c.day
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let layer = try select.column("layer_id"), asOf = try select.column("as_of"), current = try select.column("current"),
            identity = try select.column("identity"), uuid = try select.column("uuid"), writer = try select.column("writer_id"),
            day = try select.column("day"), start = try select.column("start"), end = try select.column("end"),
            value = try select.column("value"), unit = try select.column("unit"), inRange = try select.column("in_range"),
            store = try select.column("store"), created = try select.column("created"),
            lastModified = try select.column("last_modified")
        var result: [WriterDayKey: [Copy]] = [:]
        while try select.step() {
            let healthKit = select.text(store) == HealthStore.healthKit.rawValue
            let copy = Copy(layer: select.int(layer), asOf: select.double(asOf), current: select.int(current) != 0,
                            identity: select.text(identity), uuid: select.optionalText(uuid), writer: select.int(writer),
                            day: select.int(day), start: select.double(start), end: select.double(end),
                            value: select.optionalDouble(value), unit: select.text(unit), inRange: select.int(inRange) != 0,
                            revisionTime: select.optionalDouble(healthKit ? created : lastModified))
            result[WriterDayKey(writer: copy.writer, day: copy.day), default: []].append(copy)
        }
        return result
    }

    /// For each contested writer-day: every copy not of the deciding road, current or covered by a newer snapshot of
    /// its stream, against what the deciding road says; and every copy a deletion took.
    private func supersessions(_ maker: EntryMaker) throws(StoreError) -> [RevisionEntry] {
        let deletions = try loadDeletions()
        var result: [RevisionEntry] = []
        for copies in try contestedCopies().values {
            var byLayer: [Int64: [Copy]] = [:]
            for c in copies where c.current { byLayer[c.layer, default: []].append(c) }
            // A phone feed's road speaks for the day as of its newest word about it (R12).
            let roads = byLayer.mapValues { held in held.map(\.asOf).max() }.map { layer, dayAsOf in
                (layer: layer, road: maker.road(layer, dayAsOf: dayAsOf))
            }
            let deciding = roads.max { $0.road < $1.road }?.layer
            let standing = deciding.flatMap { byLayer[$0] } ?? []
            var byIdentity: [String: Copy] = [:]
            for c in standing { byIdentity[c.identity] = c }
            let latest = standing.filter { $0.validBPM != nil }.max(by: Copy.isEarlier)
            for old in copies where old.layer != deciding {
                if !old.current, let deletion = maker.deletion(of: old, in: deletions) {
                    // Taken by a deletion (R4): unless a newer snapshot of its stream covers it, which says the rest.
                    if maker.newerSnapshot(covering: old) == nil {
                        result.append(maker.entry(old, .deleted, replacedBy: nil, at: deletion.at, origin: deletion.origin,
                                                  readAt: Timestamp(epochSeconds: old.asOf, offsetSeconds: deletion.at.offsetSeconds)))
                    }
                    continue
                }
                let readAt = maker.road(old.layer, dayAsOf: old.asOf).asOf ?? Timestamp(epochSeconds: old.asOf, offsetSeconds: 0)
                let reason: RevisionReason = old.current ? .superseded : .notInNewerExport
                if let deciding, let decider = maker.layers[deciding] {
                    // When: the later of the two words, the old copy and the one that replaced it, both as
                    // delivered; not the deciding road's newest read, which a live road moves on with every batch.
                    let replacing = byIdentity[old.identity] ?? latest
                    let word = replacing?.asOf ?? standing.map(\.asOf).max() ?? old.asOf
                    let at = Timestamp(epochSeconds: max(word, old.asOf), offsetSeconds: decider.road.asOf?.offsetSeconds ?? 0)
                    if let same = byIdentity[old.identity] {
                        result.append(maker.entry(old, .replaced, replacedBy: same.validBPM, at: at, origin: decider.origin,
                                                  readAt: readAt))
                    } else {
                        result.append(maker.entry(old, reason, replacedBy: latest?.validBPM, at: at, origin: decider.origin,
                                                  readAt: readAt))
                    }
                } else if let newer = maker.newerSnapshot(covering: old) {
                    // Nothing stands that day: the newer export of its stream that covers it no longer has it.
                    result.append(maker.entry(old, .notInNewerExport, replacedBy: nil, by: newer, readAt: readAt))
                }
            }
        }
        return result
    }

    // MARK: - Reading

    /// Every deletion the store remembers, by "store|key".
    private func loadDeletions() throws(StoreError) -> [String: Deletion] {
        let select = try db.statement("SELECT store, key, at, at_offset, origin FROM tombstone")
        let store = try select.column("store"), key = try select.column("key"), at = try select.column("at"),
            offset = try select.column("at_offset"), origin = try select.column("origin")
        var result: [String: Deletion] = [:]
        while try select.step() {
            result[select.text(store) + "|" + select.text(key)] = Deletion(
                at: Timestamp(epochSeconds: select.double(at), offsetSeconds: Int(select.int(offset))), origin: select.text(origin))
        }
        return result
    }

    private struct WriterDayKey: Hashable {
        var writer: Int64
        var day: Int64
    }

    /// Makes the entries: the writer looked up, "draft" judged by when the old copy was read (R3).
    private struct EntryMaker {
        let writers: [Int64: StoreSnapshot.WriterEntry]
        let layers: [Int64: StoreSnapshot.LayerEntry]

        func road(_ layer: Int64, dayAsOf: Double?) -> Road {
            layers[layer]?.road(dayAsOf: dayAsOf) ?? Road(stream: "", asOf: nil, snapshot: false)
        }

        /// The newest snapshot of a copy's stream, newer than its own road, that covers it; nil when none does.
        func newerSnapshot(covering copy: Copy) -> StoreSnapshot.LayerEntry? {
            guard let own = layers[copy.layer], own.road.snapshot else { return nil }
            return layers.values.filter {
                $0.isNewerSnapshot(of: own.streamID, than: own.road.asOf?.epochSeconds ?? -.infinity) && $0.covers(copy.start)
            }.max { $0.road < $1.road }
        }

        /// The deletion that took a copy: of its identity or its UUID, seen after it was delivered.
        func deletion(of copy: Copy, in deletions: [String: Deletion]) -> Deletion? {
            guard let writer = writers[copy.writer] else { return nil }
            let store = writer.writer.store.rawValue
            return [copy.identity, copy.uuid].compactMap { $0 }.compactMap { deletions[store + "|" + $0] }
                .filter { $0.at.epochSeconds > copy.asOf }
                .max { $0.at.epochSeconds < $1.at.epochSeconds }
        }

        func entry(_ old: Copy, _ reason: RevisionReason, replacedBy: Double?, by layer: StoreSnapshot.LayerEntry,
                   readAt: Timestamp) -> RevisionEntry {
            entry(old, reason, replacedBy: replacedBy, at: layer.road.asOf ?? readAt, origin: layer.origin, readAt: readAt)
        }

        func entry(_ old: Copy, _ reason: RevisionReason, replacedBy: Double?, at: Timestamp, origin: String,
                   readAt: Timestamp) -> RevisionEntry {
            let writer = writers[old.writer]!
            let day = LocalDay(daysSinceEpoch: Int(old.day))
            return RevisionEntry(
                writer: writer.writer, day: day, identity: old.identity, oldBPM: old.bpm, oldValue: old.value ?? .nan,
                unit: old.unit,
                wasProvisional: ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.isWatch,
                                                              day: day, asOf: readAt),
                reason: reason, replacedByBPM: replacedBy, at: at, origin: origin)
        }
    }
}
