import RHRCore

extension BatchApplication {
    /// A live road's `asOf` follows its newest batch. When it moves on, R3 may end the provisional state of its
    /// recent days, and R12 may hand it writer-days another road decided: those days changed too.
    mutating func moveLiveRoad(_ layer: LayerRow) throws(StoreError) {
        guard !layer.snapshot, let previous = layer.previousAsOf, asOf > previous.epochSeconds else { return }
        // The road's origin stays its first batch's: the history names a road one way.
        try db.statement("UPDATE layer SET as_of = ?, as_of_offset = ? WHERE id = ?")
            .bind(.real(asOf), .integer(Int64(batch.asOf.offsetSeconds)), .integer(layer.id)).run()
        // A phone feed's road says nothing new of the days this request did not carry (`checkMovedWords`).
        if layer.byDay { return }
        if batch.asOf.localDay > previous.localDay {
            let firstOld = ProvisionalRule.firstProvisionalDay(readOn: previous.localDay)
            if try roadHasWatchSamples(layer.id, since: firstOld) {
                for d in firstOld...min(batch.asOf.localDay, previous.localDay.adding(days: 60)) { outcome.changedDays.insert(d) }
            }
        }
        // Only roads of the same store read between the old and the new asOf can change places with this one (a phone
        // feed's road by the words it dated in between, all before its own asOf).
        let passed = try db.statement("""
            SELECT 1 FROM layer l JOIN stream st ON st.id = l.stream_id
            WHERE l.id <> ?1 AND st.store = ?2 AND l.as_of >= ?3 AND (l.by_day = 1 OR l.as_of <= ?4) LIMIT 1
            """)
        passed.bind(.integer(layer.id), .text(batch.store.rawValue), .real(previous.epochSeconds), .real(asOf))
        guard try passed.step() else { return }
        for (table, standing) in [("sample", "s.current = 1 AND o.current = 1"), ("heart_rate", "1")] {
            let select = try db.statement("""
                SELECT DISTINCT s.day FROM \(table) s WHERE s.layer_id = ?1 AND EXISTS (
                    SELECT 1 FROM \(table) o JOIN layer ol ON ol.id = o.layer_id
                    WHERE o.day = s.day AND o.writer_id = s.writer_id AND o.layer_id <> ?1 AND \(standing)
                      AND \(BatchApplication.wordAsOf("o", "ol")) BETWEEN ?2 AND ?3)
                """)
            select.bind(.integer(layer.id), .real(previous.epochSeconds), .real(asOf))
            let day = try select.column("day")
            while try select.step() { outcome.changedDays.insert(LocalDay(daysSinceEpoch: Int(select.int(day)))) }
        }
    }

    /// When a road said what one of its rows says (R12): a phone feed's road, when it delivered the row; any other,
    /// when it was read. `row` and `layer` are the aliases of a `sample` or `heart_rate` row and its `layer`.
    static func wordAsOf(_ row: String, _ layer: String) -> String {
        "(CASE WHEN \(layer).by_day = 1 THEN \(row).as_of ELSE \(layer).as_of END)"
    }

    /// Where a word of a phone feed's road about a writer's day was delivered again as it was.
    struct MovedWord: Hashable {
        enum Table: String { case resting = "sample", heartRate = "heart_rate" }
        var table: Table
        var writer: Int64
        var day: Int64
    }

    mutating func noteMovedWord(_ table: MovedWord.Table, writer: Int64, day: Int64, from: Double) {
        guard from < asOf else { return }
        let key = MovedWord(table: table, writer: writer, day: day)
        movedWords[key] = max(movedWords[key] ?? from, from)
    }

    /// A phone feed's request that delivers a writer's day again as it was dates the road's word about that day
    /// anew. A reader sees the day differently only when that ends its provisional state (R3), makes its heart rate
    /// plausible (R13), or moves the word past another road's about the same writer's day (R12): those days changed;
    /// a repeated request changes nothing.
    mutating func checkMovedWords(_ layer: LayerRow) throws(StoreError) {
        let offset = layer.previousAsOf?.offsetSeconds ?? batch.asOf.offsetSeconds
        for (word, from) in movedWords.sorted(by: { ($0.key.day, $0.key.writer) < ($1.key.day, $1.key.writer) }) {
            let day = LocalDay(daysSinceEpoch: Int(word.day))
            if outcome.changedDays.contains(day) { continue }
            let before = Timestamp(epochSeconds: from, offsetSeconds: offset)
            switch word.table {
            case .resting:
                let isWatch = mayBeWatch(word.writer)
                if ProvisionalRule.isProvisional(store: batch.store, writerIsWatch: isWatch, day: day, asOf: before)
                    != ProvisionalRule.isProvisional(store: batch.store, writerIsWatch: isWatch, day: day, asOf: batch.asOf) {
                    outcome.changedDays.insert(day)
                    continue
                }
            case .heartRate:
                if PlausibleTimeRule.isPlausible(day: day, asOf: before) != PlausibleTimeRule.isPlausible(day: day, asOf: batch.asOf) {
                    outcome.changedDays.insert(day)
                    continue
                }
            }
            let standing = word.table == .resting ? "o.current = 1" : "1"
            let passed = try db.statement("""
                SELECT 1 FROM \(word.table.rawValue) o JOIN layer ol ON ol.id = o.layer_id
                WHERE o.day = ?1 AND o.writer_id = ?2 AND o.layer_id <> ?3 AND \(standing)
                  AND \(BatchApplication.wordAsOf("o", "ol")) BETWEEN ?4 AND ?5
                LIMIT 1
                """)
            passed.bind(.integer(word.day), .integer(word.writer), .integer(layer.id), .real(from), .real(asOf))
            if try passed.step() { outcome.changedDays.insert(day) }
        }
    }

    /// Whether R3 takes the values of a writer this batch delivered for a watch's (`ProvisionalRule.mayBeWatch`).
    func mayBeWatch(_ writerID: Int64) -> Bool {
        watchWriterIDs.contains(writerID)
            || writerIDs.contains { $0.value == writerID && ProvisionalRule.mayBeWatch($0.key, isWatch: false) }
    }

    /// Whether the road holds values of a writer R3 takes for a watch's (`ProvisionalRule.mayBeWatch`, in SQL) from
    /// `day` on.
    func roadHasWatchSamples(_ layerID: Int64, since day: LocalDay) throws(StoreError) -> Bool {
        let select = try db.statement("""
            SELECT 1 FROM sample s JOIN writer w ON w.id = s.writer_id
            WHERE s.layer_id = ? AND (w.is_watch = 1 OR (w.store = 'healthkit' AND w.name = ?)) AND s.day >= ? LIMIT 1
            """)
        select.bind(.integer(layerID), .text(Writer.unnamedHealthAutoExport), .integer(Int64(day.daysSinceEpoch)))
        return try select.step()
    }
}
