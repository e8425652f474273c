/// What rhr expects of a Health Connect export database: the tables and columns it reads, looked up by name in every
/// file (`PRAGMA table_info`), whatever the database's version says. Fresh and upgraded databases order their columns
/// differently (an upgrade appends each new column), so nothing is ever read by position (docs/design.md section 2).
public enum HealthConnectSchema {
    /// The oldest `PRAGMA user_version` rhr reads: the platform's own MIN_SUPPORTED_DB_VERSION, below which it drops
    /// the tables and starts again rather than upgrade.
    public static let oldestVersion = 9
    /// The newest version rhr was tested with; a newer one is read all the same, and the import line says so.
    public static let newestKnownVersion = 20

    /// A table and the columns read from it. Optional columns are metadata rhr shows when present (read as null when
    /// a database lacks them); required ones make the record what it is. An optional table (`isOptional`) may be
    /// absent; when present, its required columns must be there.
    struct Table: Sendable {
        var name: String
        var required: [String]
        var optional: [String] = []
        var isOptional = false
        /// What rhr needs the table for, after "which rhr needs to": the plain words of an error naming it.
        var need: String
    }

    static let resting = Table(
        name: "resting_heart_rate_record_table",
        required: ["row_id", "uuid", "time", "zone_offset", "beats_per_minute", "app_info_id", "last_modified_time"],
        optional: ["device_info_id", "recording_method", "client_record_id", "client_record_version", providerColumn],
        need: "read resting heart rate records")
    static let applications = Table(
        name: "application_info_table", required: ["row_id", "package_name"], optional: ["app_name", "device_info_id"],
        need: "name the apps that wrote the records")
    static let devices = Table(
        name: "device_info_table", required: ["row_id"], optional: ["manufacturer", "model", "device_type", "display_name"],
        need: "name the devices records came from")
    static let heartRate = Table(
        name: "heart_rate_record_table", required: ["row_id", "start_time", "start_zone_offset", "app_info_id"],
        optional: [providerColumn], need: "read heart-rate records")
    static let heartRateSeries = Table(
        name: "heart_rate_record_series_table", required: ["parent_key", "beats_per_minute", "epoch_millis"],
        need: "read heart-rate samples")
    /// Device data providers (after version 20): the app behind each `device_data_provider_id`.
    static let providers = Table(
        name: "device_data_provider_metadata_table", required: ["row_id", "source_package_name"], isOptional: true,
        need: "name the apps of device data providers")

    /// The record tables' column naming the device data provider a record came through.
    static let providerColumn = "device_data_provider_id"

    static let tables = [resting, applications, devices, heartRate, heartRateSeries, providers]

    /// A person's clinical records (`medical_data_source_table`, `medical_resource_table`,
    /// `medical_resource_indices_table`, since version 15): never read, not even to date the export (section 8).
    static func isMedical(_ table: String) -> Bool { table.hasPrefix("medical_") }

    /// The tables and columns present, after the checks passed.
    struct Present {
        var version: Int
        var columns: [String: Set<String>]

        func has(_ table: Table) -> Bool { columns[table.name] != nil }

        func has(_ table: Table, _ column: String) -> Bool { columns[table.name]?.contains(column) ?? false }

        /// The column by name, or `NULL` when an optional column is absent.
        func select(_ table: Table, _ column: String) -> String {
            has(table, column) ? HealthConnectDatabase.quoted(column) : "NULL"
        }

        /// What the import line says of how the file was read: a version newer than rhr knows.
        var notes: [String] {
            version > HealthConnectSchema.newestKnownVersion ? ["version \(version), newer than rhr knows; read by column names"] : []
        }
    }

    /// Tables first (a file that is not a Health Connect export is told so by the table it lacks), then the
    /// version, then the columns.
    static func check(_ db: HealthConnectDatabase) throws(InputError) -> Present {
        let version = try db.userVersion()
        let names = try db.tableNames()
        if let missing = tables.first(where: { !$0.isOptional && !names.contains($0.name) }) {
            throw db.error("not a Health Connect export: it has no table \(missing.name), which rhr needs to \(missing.need)"
                + (version < oldestVersion ? " (schema version \(version))" : ""))
        }
        guard version >= oldestVersion else {
            throw db.error("Health Connect schema version \(version) is older than any rhr reads "
                + "(it reads version \(oldestVersion) and later)")
        }
        var columns: [String: Set<String>] = [:]
        for table in tables where names.contains(table.name) {
            let present = try db.columns(of: table.name)
            if let missing = table.required.first(where: { !present.contains($0) }) {
                throw db.error("table \(table.name) has no column \(missing), which rhr needs to \(table.need) "
                    + "(schema version \(version)): not a Health Connect export rhr can read")
            }
            columns[table.name] = present
        }
        return Present(version: version, columns: columns)
    }
}
