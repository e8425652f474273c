import Foundation

/// What a Health Connect database says of when it was exported (R12, docs/design.md section 2): two lower bounds,
/// the later of which dates it.
struct HealthConnectExportTime {
    /// The newest `last_modified_time` of any record in any table that has the column, the medical ones aside.
    var newestModification: Date?
    /// `preference_table`'s `last_successful_export_key`: the platform writes it once an export has gone out, so the
    /// copy an export holds keeps the time of the export before it.
    var previousExport: Date?

    var latest: Date? { [newestModification, previousExport].compactMap { $0 }.max() }

    static let preferences = "preference_table"
    static let previousExportKey = "last_successful_export_key"

    static func read(_ db: HealthConnectDatabase) throws(InputError) -> HealthConnectExportTime {
        let tables = try db.tableNames()
        return HealthConnectExportTime(newestModification: try newestModification(db, tables: tables),
                                       previousExport: try previousExport(db, tables: tables))
    }

    /// Damaged values are passed over: they must not date the export. Medical tables are never read (section 8).
    private static func newestModification(_ db: HealthConnectDatabase, tables: Set<String>) throws(InputError) -> Date? {
        let range = HealthConnectContents.plausibleMillis
        var newest: Int64?
        for table in tables.sorted() where !HealthConnectSchema.isMedical(table) {
            guard try db.columns(of: table).contains("last_modified_time") else { continue }
            try db.query("SELECT max(last_modified_time) FROM \(HealthConnectDatabase.quoted(table)) "
                + "WHERE last_modified_time BETWEEN \(range.lowerBound) AND \(range.upperBound)") { row throws(InputError) in
                if let value = row.int64(0) { newest = max(newest ?? value, value) }
            }
        }
        return newest.map(HealthConnectContents.date(millis:))
    }

    /// The value is the export's epoch milliseconds as text; anything else says nothing.
    private static func previousExport(_ db: HealthConnectDatabase, tables: Set<String>) throws(InputError) -> Date? {
        guard tables.contains(preferences), try db.columns(of: preferences).isSuperset(of: ["key", "value"]) else { return nil }
        var millis: Int64?
        try db.query("SELECT value FROM \(HealthConnectDatabase.quoted(preferences)) "
            + "WHERE key = \(HealthConnectDatabase.literal(previousExportKey))") { row throws(InputError) in
            millis = row.text(0).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        }
        guard let millis, HealthConnectContents.plausibleMillis.contains(millis) else { return nil }
        return HealthConnectContents.date(millis: millis)
    }
}
