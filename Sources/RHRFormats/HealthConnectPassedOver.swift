import Foundation
import RHRCore

/// R14 for a Health Connect export: a row rhr cannot use (a value of the wrong type, a time that is not one, a writer
/// it cannot name) is passed over, kept as its columns' text with its table and row id, and the rest of the file reads.
struct HealthConnectPassedOver {
    var log = PassedOverLog()
    /// The rows passed over, by table: a heart-rate record comes once per sample of its series, and is kept once.
    private var seen: [String: Set<Int64>] = [:]

    mutating func add(_ db: HealthConnectDatabase, table: String, rowId: Int64, kind: String, _ problem: BadRow) throws(InputError) {
        guard seen[table, default: []].insert(rowId).inserted else { return }
        log.add(kind: kind, reason: "row_id \(rowId): \(problem.words)", place: .row(rowId, of: table),
                raw: try db.rawRow(table: table, rowId: rowId))
    }
}

/// What is wrong with one row, in words ("time is text, not an integer").
struct BadRow: Error {
    var words: String
    init(_ words: String) { self.words = words }
}

extension HealthConnectDatabase {
    /// The row `rowId` of `table` as text, `column=value` in the table's order, each value as SQLite quotes it (a
    /// text in quotes, a blob as `X'…'`), at most 4 KiB each.
    func rawRow(table: String, rowId: Int64) throws(InputError) -> String {
        var columns: [String] = []
        try query("SELECT name FROM pragma_table_info(\(HealthConnectDatabase.literal(table))) ORDER BY cid") { row throws(InputError) in
            if let name = row.text(0) { columns.append(name) }
        }
        guard !columns.isEmpty else { return "" }
        let values = columns.map { column in
            let c = HealthConnectDatabase.quoted(column)
            return "CASE WHEN length(\(c)) > 4096 THEN quote(substr(\(c), 1, 4096)) || '…' ELSE quote(\(c)) END"
        }
        var raw = ""
        try query("SELECT \(values.joined(separator: ", ")) FROM \(HealthConnectDatabase.quoted(table)) WHERE row_id = \(rowId)") {
            row throws(InputError) in
            raw = columns.indices.map { "\(columns[$0])=\(row.text(Int32($0)) ?? "NULL")" }.joined(separator: ", ")
        }
        return raw
    }

    /// `'text'` with inner quotes doubled, for a table name given to a pragma function.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
