import Foundation
import RHRCore

/// The revision history of a range of days (R4, R12), worked out from what each road holds, so that the same files
/// imported in any order give the same history:
/// - each road's own replacements and deletions, in its own order, as its batches recorded them ("draft 63 → 61"
///   on the bridge, then "61 → 60");
/// - within an export stream, what each snapshot said that the next newer snapshot covering it says otherwise;
/// - for each writer's day, what every other road's standing copies say against the road that decides (R12): the
///   deciding road's copy of the same sample, or its latest value of the day, that really replaced it;
/// - copies another road's deletion took (R4).
/// A value "replaced" by an equal value is no revision and is left out.
struct StoreHistory {
    let snapshot: StoreSnapshot
    let from: LocalDay?
    let to: LocalDay?

    private var db: SQLiteConnection { snapshot.db }

    /// One road's copy of a sample.
    private struct Copy {
        var layer: Int64
        /// When its road delivered it.
        var asOf: Double
        var current: Bool
        var row: SampleRow

        /// Its value in bpm when valid (R6, R13): what can stand in for another.
        var validBPM: Double? { row.isValid(deliveredAt: asOf) ? row.bpm : nil }
    }

    private struct Deletion {
        var at: Timestamp
        var origin: String
    }

    func entries() throws(StoreError) -> [RevisionEntry] {
        let writers = try snapshot.loadWriters()
        let layers = try snapshot.loadLayers()
        let copies = try loadCopies()
        let deletions = try loadDeletions()
        let maker = EntryMaker(writers: writers)
        let own = try ownHistory(writers)
        var found = own
        found += snapshotChanges(copies, layers, maker)
        found += supersessions(copies, layers, maker)
        // A road's own deletion and another road's copy of the same value taken by it are one revision.
        var seen = Set(own.filter { $0.reason == .deleted }.map(DeletionKey.init))
        for entry in takenByDeletions(copies, layers, deletions, maker) where seen.insert(DeletionKey(entry)).inserted {
            found.append(entry)
        }
        return found.filter(\.isRevision).sorted(by: RevisionEntry.precedes)
    }

    private struct DeletionKey: Hashable {
        var identity: String
        var old: UInt64
        var at: Double
        var origin: String
        init(_ e: RevisionEntry) {
            identity = e.identity
            old = (e.oldBPM ?? e.oldValue).bitPattern
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

    // MARK: - Across snapshots of one stream

    /// For each copy in an export's snapshot, what the next newer snapshot of its stream covering it says instead.
    private func snapshotChanges(_ copies: [Copy], _ layers: [Int64: StoreSnapshot.LayerEntry], _ maker: EntryMaker) -> [RevisionEntry] {
        var byLayer: [Int64: [String: Copy]] = [:]
        var dayCopies: [Int64: [WriterDayKey: [Copy]]] = [:]
        for c in copies where layers[c.layer]?.road.snapshot == true {
            byLayer[c.layer, default: [:]][c.row.identity] = c
            dayCopies[c.layer, default: [:]][WriterDayKey(c.row), default: []].append(c)
        }
        var streams: [Int64: [Int64]] = [:]
        for (id, layer) in layers where layer.road.snapshot { streams[layer.streamID, default: []].append(id) }
        var result: [RevisionEntry] = []
        for ids in streams.values where ids.count > 1 {
            let ordered = ids.sorted { layers[$0]!.road < layers[$1]!.road }
            var identities: [String: Copy] = [:]
            for id in ordered { for (identity, c) in byLayer[id] ?? [:] where identities[identity] == nil { identities[identity] = c } }
            for (identity, any) in identities {
                let covering = ordered.filter { layers[$0]!.covers(any.row.start) || byLayer[$0]?[identity] != nil }
                for (a, b) in zip(covering, covering.dropFirst()) {
                    guard let old = byLayer[a]?[identity], let newer = layers[b], let readAt = layers[a]?.road.asOf else { continue }
                    if let same = byLayer[b]?[identity] {
                        if old.row.sameValue(as: same.row) { continue }
                        result.append(maker.entry(old, .replaced, replacedBy: same.validBPM, by: newer, readAt: readAt))
                    } else {
                        let latest = EntryMaker.latestValid(dayCopies[b]?[WriterDayKey(old.row)] ?? [], maker.writers)
                        result.append(maker.entry(old, .notInNewerExport, replacedBy: latest?.row.bpm, by: newer, readAt: readAt))
                    }
                }
            }
        }
        return result
    }

    // MARK: - Across roads (R12)

    /// For each writer's day held by several roads, what the others' standing copies say against the deciding road.
    private func supersessions(_ copies: [Copy], _ layers: [Int64: StoreSnapshot.LayerEntry], _ maker: EntryMaker) -> [RevisionEntry] {
        var days: [WriterDayKey: [Int64: [Copy]]] = [:]
        for c in copies where c.current { days[WriterDayKey(c.row), default: [:]][c.layer, default: []].append(c) }
        var result: [RevisionEntry] = []
        for roads in days.values where roads.count > 1 {
            guard let deciding = roads.keys.max(by: { layers[$0]!.road < layers[$1]!.road }), let decider = layers[deciding]
            else { continue }
            let standing = roads[deciding]!
            var byIdentity: [String: Copy] = [:]
            for c in standing { byIdentity[c.row.identity] = c }
            let latest = EntryMaker.latestValid(standing, maker.writers)
            for (layerID, superseded) in roads where layerID != deciding {
                guard let readAt = layers[layerID]?.road.asOf else { continue }
                for old in superseded {
                    if let same = byIdentity[old.row.identity] {
                        if old.row.sameValue(as: same.row) { continue }
                        result.append(maker.entry(old, .replaced, replacedBy: same.validBPM, by: decider, readAt: readAt))
                    } else {
                        result.append(maker.entry(old, .superseded, replacedBy: latest?.row.bpm, by: decider, readAt: readAt))
                    }
                }
            }
        }
        return result
    }

    /// Copies a deletion took (R4) that are still their road's last word: not covered by a newer snapshot.
    private func takenByDeletions(_ copies: [Copy], _ layers: [Int64: StoreSnapshot.LayerEntry],
                                  _ deletions: [String: Deletion], _ maker: EntryMaker) -> [RevisionEntry] {
        var result: [RevisionEntry] = []
        for c in copies where !c.current {
            guard let layer = layers[c.layer], let writer = maker.writers[c.row.writerID] else { continue }
            let store = writer.writer.store.rawValue
            let deletion = [c.row.identity, c.row.uuid].compactMap { $0 }
                .compactMap { deletions[store + "|" + $0] }
                .filter { $0.at.epochSeconds > c.asOf }
                .max { $0.at.epochSeconds < $1.at.epochSeconds }
            guard let deletion else { continue }
            if layer.road.snapshot, layers.values.contains(where: {
                $0.streamID == layer.streamID && $0.road.snapshot && layer.road < $0.road && $0.covers(c.row.start)
            }) { continue }
            result.append(maker.entry(c, .deleted, replacedBy: nil, at: deletion.at, origin: deletion.origin,
                                      readAt: Timestamp(epochSeconds: c.asOf, offsetSeconds: deletion.at.offsetSeconds)))
        }
        return result
    }

    // MARK: - Reading

    private func loadCopies() throws(StoreError) -> [Copy] {
        let select = try db.statement("""
            SELECT layer_id, as_of, current, \(SampleRow.columns) FROM sample WHERE day >= ? AND day <= ?
            """)
        select.bind(StoreSnapshot.dayBounds(from, to))
        let layer = try select.column("layer_id"), asOf = try select.column("as_of"), current = try select.column("current"),
            columns = try SampleRow.Columns(select)
        var result: [Copy] = []
        while try select.step() {
            result.append(Copy(layer: select.int(layer), asOf: select.double(asOf), current: select.int(current) != 0,
                               row: SampleRow(select, columns)))
        }
        return result
    }

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
        init(_ row: SampleRow) {
            writer = row.writerID
            day = row.day
        }
    }

    /// Makes the entries: the writer looked up, "draft" judged by when the old copy was read (R3).
    private struct EntryMaker {
        let writers: [Int64: StoreSnapshot.WriterEntry]

        func entry(_ old: Copy, _ reason: RevisionReason, replacedBy: Double?, by road: StoreSnapshot.LayerEntry,
                   readAt: Timestamp) -> RevisionEntry {
            entry(old, reason, replacedBy: replacedBy, at: road.road.asOf ?? readAt, origin: road.origin, readAt: readAt)
        }

        func entry(_ old: Copy, _ reason: RevisionReason, replacedBy: Double?, at: Timestamp, origin: String,
                   readAt: Timestamp) -> RevisionEntry {
            let writer = writers[old.row.writerID]!
            let day = LocalDay(daysSinceEpoch: Int(old.row.day))
            return RevisionEntry(
                writer: writer.writer, day: day, identity: old.row.identity, oldBPM: old.row.bpm,
                oldValue: old.row.value ?? .nan, unit: old.row.unit,
                wasProvisional: ProvisionalRule.isProvisional(store: writer.writer.store, writerIsWatch: writer.isWatch,
                                                              day: day, asOf: readAt),
                reason: reason, replacedByBPM: replacedBy, at: at, origin: origin)
        }

        /// A road's latest valid copy of a writer's day, by R7's own rule (`DaySeries.isEarlier`).
        static func latestValid(_ copies: [Copy], _ writers: [Int64: StoreSnapshot.WriterEntry]) -> Copy? {
            var latest: (Copy, RestingSample)?
            for c in copies where c.validBPM != nil {
                guard let writer = writers[c.row.writerID] else { continue }
                let sample = c.row.sample(store: writer.writer.store, writer: writer.writer)
                if latest.map({ DaySeries.isEarlier($0.1, sample) }) ?? true { latest = (c, sample) }
            }
            return latest?.0
        }
    }
}
