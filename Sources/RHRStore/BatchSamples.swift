import RHRCore

extension BatchApplication {
    /// Every road's copy of an identity.
    func copies(of identity: String) throws(StoreError) -> [StoredCopy] {
        let select = try db.statement(StoredCopy.selectByIdentity)
        select.bind(.text(batch.store.rawValue), .text(identity))
        let columns = try StoredCopy.Columns(select)
        var result: [StoredCopy] = []
        while try select.step() { result.append(StoredCopy(select, columns)) }
        return result
    }

    /// Notes, before it changes, whether an identity stood anywhere.
    mutating func touch(_ identity: String, _ copies: [StoredCopy]) {
        if touched[identity] == nil { touched[identity] = copies.contains(where: \.current) }
    }

    mutating func touch(_ identity: String) throws(StoreError) {
        if touched[identity] == nil { touch(identity, try copies(of: identity)) }
    }

    mutating func upsert(_ sample: RestingSample, layer: LayerRow) throws(StoreError) {
        let writer = try writerID(sample.writer, isWatch: isWatch(sample))
        let row = SampleRow(sample, writerID: writer, machineZone: database.machineZone)
        carriedDays.insert(StoreSnapshot.WriterDay(writer: writer, day: row.day))
        if !row.inRange { outcome.outOfRange += 1 }
        let all = facts.storeHasSamples ? try copies(of: row.identity) : []
        touch(row.identity, all)
        // A deletion of its UUID seen before it arrived takes its identity too, on every road (R4).
        if facts.storeHasTombstones, let uuid = row.uuid, uuid != row.identity, let deletion = try tombstone(uuid) {
            try recordTombstone(row.identity, at: deletion.at, offset: deletion.offset, origin: deletion.origin,
                                delivery: try deletingDelivery(uuid))
        }
        // A newer snapshot of this stream holds the same value for it: this older export's copy adds nothing, to the
        // trend or to the history (the newer copy says the same), and is not kept.
        if let newer = all.first(where: { facts.newerSnapshots[$0.layer]?.covers(row.start) == true && $0.row.sameValue(as: row) }) {
            // Kept aside under the newer one's delivery: forgetting it gives this copy back (`BatchDeliveries`).
            try setAside(incoming: row, heldBy: newer.layer)
            if let own = all.first(where: { $0.layer == layer.id }) {
                try removeCopy(own.id, identity: own.row.identity, day: own.row.day)
            }
            outcome.unchanged += 1
            return
        }
        let standing = try standing(identity: row.identity, uuid: row.uuid, deliveredAt: asOf, start: row.start)
        let current = standing == .stands
        if !current { maybeGone.insert(row.identity) }
        let incoming = version(row)
        if let own = all.first(where: { $0.layer == layer.id }) {
            // A snapshot's road is one instant: another file of it (or the same file changed) brought this copy.
            if layer.snapshot && !(own.row == row && own.madeAt == incoming.madeAt && own.madeIn == incoming.madeIn) {
                try settleTie(own: own, incoming: incoming, layer: layer, standing: standing)
                return
            }
            if own.row == row && own.asOf == asOf && own.current == current {
                count(standing, unchanged: true, row)
                return
            }
            if own.row == row {
                // Delivered again, unchanged: only when the road last said it moves.
                count(standing, unchanged: true, row)
                try db.statement("UPDATE sample SET as_of = ?, current = ?, \(SampleRow.keepFirst) WHERE id = ?")
                    .bind(.real(asOf), .bool(current), .integer(own.id)).run()
                if own.current != current || row.isValid(deliveredAt: own.asOf) != row.isValid(deliveredAt: asOf) {
                    outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
                }
                if layer.byDay { noteMovedWord(.resting, writer: row.writerID, day: row.day, from: own.asOf) }
                return
            } else {
                if !own.row.sameValue(as: row) {
                    try recordRevision(of: own.row, reason: .replaced, replacedBy: row.inRange ? row.bpm : nil,
                                       oldAsOf: readAt(own, layer: layer), pending: nil)
                }
                if current { countStanding(row, added: false) } else { count(standing, unchanged: false, row) }
            }
            try db.statement(SampleRow.update)
                .bind([.real(asOf), .bool(current), .null, .null] + row.bindings + [.integer(own.id)]).run()
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(own.row.day)))
            outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
            return
        }
        try db.statement(SampleRow.insert)
            .bind([.integer(layer.id), .text(batch.store.rawValue), .real(asOf), .bool(current),
                   .double(layer.snapshot ? incoming.madeAt : nil), .string(layer.snapshot ? incoming.madeIn : nil)]
                  + row.bindings).run()
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(row.day)))
        // Counted against what the store held of it: another road's copy of the same value is no addition, and a
        // copy that does not stand (an older export imported late, R12) changes no value.
        guard current else {
            count(standing, unchanged: false, row)
            return
        }
        if let standing = all.filter(\.current).max(by: { $0.asOf < $1.asOf }) {
            if standing.row.sameValue(as: row) { outcome.unchanged += 1 } else { countStanding(row, added: false) }
        } else {
            countStanding(row, added: true)
        }
    }

    /// Whether a copy stands in its road, and if not, what took it.
    enum Standing { case stands, deletedLater, newerSnapshot }

    /// Whether a copy delivered at `deliveredAt` stands in its road: no later deletion took it (R4), and, in a
    /// snapshot, no newer snapshot of the same stream covers its start.
    func standing(identity: String, uuid: String?, deliveredAt: Double, start: Double) throws(StoreError) -> Standing {
        if facts.storeHasTombstones {
            let deleted = try db.statement("""
                SELECT 1 FROM tombstone WHERE store = ?1 AND key IN (?2, ?3) AND at > ?4 LIMIT 1
                """)
            deleted.bind(.text(batch.store.rawValue), .text(identity), .string(uuid), .real(deliveredAt))
            if try deleted.step() { return .deletedLater }
        }
        return facts.newerSnapshots.values.contains { $0.covers(start) } ? .newerSnapshot : .stands
    }

    /// The account (docs/design.md R14) of a sample that does not stand in its road, or stands as it stood.
    mutating func count(_ standing: Standing, unchanged: Bool, _ row: SampleRow) {
        switch standing {
        case .stands: if unchanged { outcome.unchanged += 1 } else { countStanding(row, added: false) }
        case .deletedLater: outcome.overruledByDeletion += 1
        case .newerSnapshot: outcome.setAside += 1
        }
    }

    /// A sample that stands in its road and changes what it holds: added or replaced, unless another road decides its
    /// writer's day, which `countOverruled` finds at the end.
    mutating func countStanding(_ row: SampleRow, added: Bool) {
        let key = StoreSnapshot.WriterDay(writer: row.writerID, day: row.day)
        if added { standingChanges[key, default: (0, 0)].added += 1 } else { standingChanges[key, default: (0, 0)].replaced += 1 }
    }

    /// R12: of the samples that stand in this road and change it, those whose writer's day a fresher road decides are
    /// overruled; the others are added or replaced.
    mutating func countOverruled(_ layer: LayerRow) throws(StoreError) {
        guard !standingChanges.isEmpty else { return }
        let select = try db.statement("""
            SELECT layer_id, max(as_of) AS delivered FROM sample WHERE writer_id = ? AND day = ? AND current = 1
            GROUP BY layer_id
            """)
        let layerColumn = try select.column("layer_id"), delivered = try select.column("delivered")
        var layers: [Int64: StoreSnapshot.LayerEntry]?
        for (key, counts) in standingChanges.sorted(by: { ($0.key.day, $0.key.writer) < ($1.key.day, $1.key.writer) }) {
            var held: [(layer: Int64, dayAsOf: Double)] = []
            if facts.storeHasSamples {
                select.reset()
                select.bind(.integer(key.writer), .integer(key.day))
                while try select.step() { held.append((select.int(layerColumn), select.double(delivered))) }
            }
            if held.contains(where: { $0.layer != layer.id }) {
                if layers == nil { layers = try StoreSnapshot(db: db).loadLayers() }
                let roads = held.compactMap { h in layers?[h.layer].map { (layer: h.layer, road: $0.road(dayAsOf: h.dayAsOf)) } }
                if let deciding = Road.deciding(roads, road: \.road), deciding.layer != layer.id {
                    outcome.overruled += counts.added + counts.replaced
                    continue
                }
            }
            outcome.added += counts.added
            outcome.replaced += counts.replaced
        }
    }

    /// R4 for the same export again, or a full resync: what the road said before and no longer says leaves it.
    mutating func removeUndelivered(layer: LayerRow, delivered: Set<String>) throws(StoreError) {
        let select = try db.statement("SELECT \(StoredCopy.columns()) FROM sample WHERE layer_id = ?")
        select.bind(.integer(layer.id))
        var gone: [StoredCopy] = []
        let columns = try StoredCopy.Columns(select)
        while try select.step() {
            let copy = StoredCopy(select, columns)
            if !delivered.contains(copy.row.identity) { gone.append(copy) }
        }
        for copy in gone {
            try touch(copy.row.identity)
            if batch.fullResync {
                try recordRevision(of: copy.row, reason: .fullResync, replacedBy: nil, oldAsOf: layer.previousAsOf,
                                   pending: layer.id)
            }
            try removeCopy(copy.id, identity: copy.row.identity, day: copy.row.day)
        }
    }

    /// A Health Auto Export request (`SyncBatch.DayFeed.replacesDays`): for each writer and local day its resting
    /// points fall on, what the road held and the request no longer carries leaves the road (Apple deleted or replaced
    /// it, R4), kept in its history; other writers' days, and other days, keep theirs (a request of one source's points,
    /// or a window that starts after a day's estimate, says nothing of them). A copy a deletion took already stays as
    /// it is, for the history.
    mutating func replaceCarriedDays(layer: LayerRow, delivered: Set<String>) throws(StoreError) {
        let select = try db.statement("""
            SELECT \(StoredCopy.columns()) FROM sample WHERE layer_id = ? AND day = ? AND writer_id = ? AND current = 1
            """)
        let columns = try StoredCopy.Columns(select)
        for carried in carriedDays.sorted(by: { ($0.day, $0.writer) < ($1.day, $1.writer) }) {
            select.reset()
            select.bind(.integer(layer.id), .integer(carried.day), .integer(carried.writer))
            var gone: [StoredCopy] = []
            while try select.step() {
                let copy = StoredCopy(select, columns)
                if !delivered.contains(copy.row.identity) { gone.append(copy) }
            }
            for copy in gone {
                try touch(copy.row.identity)
                // A phone feed's road (`byDay`): when it delivered the copy.
                try recordRevision(of: copy.row, reason: .deleted, replacedBy: nil, oldAsOf: readAt(copy, layer: layer),
                                   pending: layer.id)
                try removeCopy(copy.id, identity: copy.row.identity, day: copy.row.day)
            }
        }
    }

    /// When the road last read a copy of its own (R3 says "draft" by it): a phone feed's, when it delivered it; a
    /// live stream's or a snapshot's, its `asOf` before this batch.
    func readAt(_ copy: StoredCopy, layer: LayerRow) -> Timestamp? {
        guard layer.byDay else { return layer.previousAsOf }
        return Timestamp(epochSeconds: copy.asOf, offsetSeconds: layer.previousAsOf?.offsetSeconds ?? 0)
    }

    mutating func removeCopy(_ rowID: Int64, identity: String, day: Int64) throws(StoreError) {
        maybeGone.insert(identity)
        try db.statement("DELETE FROM sample WHERE id = ?").bind(.integer(rowID)).run()
        outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(day)))
    }
}
