import Foundation
import RHRCore

/// The revision history of a range of days (R4, R12), worked out from what each road holds, so that the same files
/// imported in any order give the same history:
/// - each road's own replacements and deletions, in its own order, as its batches recorded them ("draft 63 → 61"
///   on the bridge, then "61 → 60");
/// - for each writer's day, every copy the deciding road does not stand behind, against what the deciding road
///   says: its copy of the same sample, or its latest value of the day, that really replaced it (an older export's
///   values included: it is a road too, and a newer export of its stream supersedes it);
/// - copies another road's deletion took (R4);
/// - each other file's value where a file of the same instant made later stands (`SnapshotTie`).
/// A value "replaced" by an equal value is no revision and is left out; two roads' equal words about one value
/// are one entry.
struct StoreHistory {
    let snapshot: StoreSnapshot
    let from: LocalDay?
    let to: LocalDay?

    private var db: SQLiteConnection { snapshot.db }

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
        for entry in try sameInstantEntries(writers: writers, layers: layers) where seen.insert(EntryKey(entry, replacement: true)).inserted {
            found.append(entry)
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
                ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.mayBeWatch, day: localDay,
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
    private func contestedCopies() throws(StoreError) -> [WriterDayKey: [StoredCopy]] {
        let select = try db.statement("""
            WITH contested AS (
                SELECT writer_id, day FROM sample WHERE day >= ?1 AND day <= ?2
                GROUP BY writer_id, day HAVING count(DISTINCT layer_id) > 1 OR min(current) = 0)
            SELECT \(StoredCopy.columns(prefix: "s."))
            FROM contested c JOIN sample s ON s.writer_id = c.writer_id AND s.day = c.day
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let columns = try StoredCopy.Columns(select)
        var result: [WriterDayKey: [StoredCopy]] = [:]
        while try select.step() {
            let copy = StoredCopy(select, columns)
            result[WriterDayKey(writer: copy.row.writerID, day: copy.row.day), default: []].append(copy)
        }
        return result
    }

    /// For each contested writer-day: every copy not of the deciding road, current or covered by a newer snapshot of
    /// its stream, against what the deciding road says; and every copy a deletion took.
    private func supersessions(_ maker: EntryMaker) throws(StoreError) -> [RevisionEntry] {
        let deletions = try loadDeletions()
        var result: [RevisionEntry] = []
        for copies in try contestedCopies().values {
            var byLayer: [Int64: [StoredCopy]] = [:]
            for c in copies where c.current { byLayer[c.layer, default: []].append(c) }
            // A phone feed's road speaks for the day as of its newest word about it (R12).
            let roads = byLayer.mapValues { held in held.map(\.asOf).max() }.map { layer, dayAsOf in
                (layer: layer, road: maker.road(layer, dayAsOf: dayAsOf))
            }
            let deciding = Road.deciding(roads, road: \.road)?.layer
            let standing = deciding.flatMap { byLayer[$0] } ?? []
            var byIdentity: [String: StoredCopy] = [:]
            for c in standing { byIdentity[c.row.identity] = c }
            let latest = standing.filter { $0.validBPM != nil }.max(by: maker.isEarlier)
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
                    let replacing = byIdentity[old.row.identity] ?? latest
                    let word = replacing?.asOf ?? standing.map(\.asOf).max() ?? old.asOf
                    let at = Timestamp(epochSeconds: max(word, old.asOf), offsetSeconds: decider.road.asOf?.offsetSeconds ?? 0)
                    if let same = byIdentity[old.row.identity] {
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
        func newerSnapshot(covering copy: StoredCopy) -> StoreSnapshot.LayerEntry? {
            guard let own = layers[copy.layer], own.road.snapshot else { return nil }
            return layers.values.filter {
                $0.isNewerSnapshot(of: own.streamID, than: own.road.asOf?.epochSeconds ?? -.infinity) && $0.covers(copy.row.start)
            }.max { $0.road < $1.road }
        }

        /// R7's `latest` order on two copies of one writer's day: `DaySeries.isEarlier`, the one place it is written,
        /// on the samples they hold.
        func isEarlier(_ a: StoredCopy, _ b: StoredCopy) -> Bool {
            DaySeries.isEarlier(sample(a), sample(b))
        }

        private func sample(_ copy: StoredCopy) -> RestingSample {
            let writer = writers[copy.row.writerID]!.writer
            return copy.row.sample(store: writer.store, writer: writer)
        }

        /// The deletion that took a copy: of its identity or its UUID, seen after it was delivered.
        func deletion(of copy: StoredCopy, in deletions: [String: Deletion]) -> Deletion? {
            guard let writer = writers[copy.row.writerID] else { return nil }
            let store = writer.writer.store.rawValue
            return [copy.row.identity, copy.row.uuid].compactMap { $0 }.compactMap { deletions[store + "|" + $0] }
                .filter { $0.at.epochSeconds > copy.asOf }
                .max { $0.at.epochSeconds < $1.at.epochSeconds }
        }

        func entry(_ old: StoredCopy, _ reason: RevisionReason, replacedBy: Double?, by layer: StoreSnapshot.LayerEntry,
                   readAt: Timestamp) -> RevisionEntry {
            entry(old, reason, replacedBy: replacedBy, at: layer.road.asOf ?? readAt, origin: layer.origin, readAt: readAt)
        }

        func entry(_ old: StoredCopy, _ reason: RevisionReason, replacedBy: Double?, at: Timestamp, origin: String,
                   readAt: Timestamp) -> RevisionEntry {
            let writer = writers[old.row.writerID]!
            let day = LocalDay(daysSinceEpoch: Int(old.row.day))
            return RevisionEntry(
                writer: writer.writer, day: day, identity: old.row.identity, oldBPM: old.row.bpm, oldValue: old.row.value ?? .nan,
                unit: old.row.unit,
                wasProvisional: ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.mayBeWatch,
                                                              day: day, asOf: readAt),
                reason: reason, replacedByBPM: replacedBy, at: at, origin: origin)
        }
    }
}
