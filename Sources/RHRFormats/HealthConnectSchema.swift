/// What rhr expects of a Health Connect export database: the schema versions it knows, and the tables and
/// columns it reads, by name. Upgraded databases have `local_date_time` last and columns can come in another
/// order, so nothing is ever read by position.
public enum HealthConnectSchema {
    /// `PRAGMA user_version` values rhr reads: the Health Connect database versions known to exist (9–18).
    /// Within them rhr relies only on the tables and columns below, checked by name in every file; a version
    /// outside the range may have moved or redefined them, so it is refused rather than read on a guess.
    public static let knownVersions: ClosedRange<Int> = 9...18

    /// A table and the columns read from it. Optional columns are metadata rhr shows when present
    /// (read as null when a database lacks them); required ones make the record what it is.
    struct Table: Sendable {
        var name: String
        var required: [String]
        var optional: [String] = []
    }

    static let resting = Table(
        name: "resting_heart_rate_record_table",
        required: ["row_id", "uuid", "time", "zone_offset", "beats_per_minute", "app_info_id", "last_modified_time"],
        optional: ["device_info_id", "recording_method", "client_record_id", "client_record_version"])
    static let applications = Table(
        name: "application_info_table", required: ["row_id", "package_name"], optional: ["app_name"])
    static let devices = Table(
        name: "device_info_table", required: ["row_id"], optional: ["manufacturer", "model", "device_type"])
    static let heartRate = Table(
        name: "heart_rate_record_table", required: ["row_id", "start_time", "start_zone_offset", "app_info_id"])
    static let heartRateSeries = Table(
        name: "heart_rate_record_series_table", required: ["parent_key", "beats_per_minute", "epoch_millis"])

    static let tables = [resting, applications, devices, heartRate, heartRateSeries]

    /// The columns present per table, after the checks passed.
    struct Present {
        var columns: [String: Set<String>]

        func has(_ table: Table, _ column: String) -> Bool { columns[table.name]?.contains(column) ?? false }

        /// The column by name, or `NULL` when an optional column is absent.
        func select(_ table: Table, _ column: String) -> String {
            has(table, column) ? HealthConnectDatabase.quoted(column) : "NULL"
        }
    }

    /// Tables first (a file that is not a Health Connect export is told so by the table it lacks), then the
    /// version, then the columns.
    static func check(_ db: HealthConnectDatabase) throws(InputError) -> Present {
        let version = try db.userVersion()
        let names = try db.tableNames()
        if let missing = tables.first(where: { !names.contains($0.name) }) {
            throw db.error("not a Health Connect export: it has no table \(missing.name)"
                + (knownVersions.contains(version) ? "" : " (schema version \(version))"))
        }
        guard knownVersions.contains(version) else {
            throw db.error("Health Connect schema version \(version) is not one rhr knows "
                + "(it reads versions \(knownVersions.lowerBound)–\(knownVersions.upperBound))")
        }
        var columns: [String: Set<String>] = [:]
        for table in tables {
            let present = try db.columns(of: table.name)
            if let missing = table.required.first(where: { !present.contains($0) }) {
                throw db.error("table \(table.name) has no column \(missing) "
                    + "(schema version \(version)): not a Health Connect export rhr can read")
            }
            columns[table.name] = present
        }
        return Present(columns: columns)
    }
}
