import CArchive
import CSQLite
import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// Builds small Health Connect export databases in tests, with the platform's table layout, through the C
/// SQLite API (never through the sample script).
final class HealthConnectTestDatabase {
    /// Where `local_date_time` and the other columns sit in the resting table.
    enum Layout: String, CaseIterable, CustomStringConvertible {
        /// `local_date_time` among the others, beside `zone_offset`.
        case fresh
        /// Created without `local_date_time`, then upgraded with `ALTER TABLE … ADD COLUMN`: it comes last,
        /// the order the notes show.
        case upgraded
        /// The columns in another order altogether.
        case shuffled

        var description: String { rawValue }
    }

    let path: String
    private var db: OpaquePointer?
    /// The directory a `scratch` database lives in, kept as long as the database.
    private var directory: TemporaryDirectory?

    /// A database named `export.db` in a temporary directory of its own, removed with the database.
    static func scratch(version: Int = 17, layout: Layout = .upgraded) throws -> HealthConnectTestDatabase {
        let directory = try TemporaryDirectory()
        let database = try HealthConnectTestDatabase(path: directory.file("export.db"), version: version, layout: layout)
        database.directory = directory
        return database
    }

    /// Creates the tables a Health Connect export has. `omitTable` and `omitColumn` leave one out.
    init(path: String, version: Int = 17, layout: Layout = .upgraded, omitTable: String? = nil,
         omitColumn: (table: String, column: String)? = nil) throws {
        self.path = path
        try? FileManager.default.removeItem(atPath: path)
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw HealthConnectTestError("cannot create \(path)")
        }
        let shared: [(String, String)] = [
            ("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT"), ("uuid", "BLOB NOT NULL UNIQUE"),
            ("last_modified_time", "INTEGER"), ("client_record_id", "TEXT"), ("client_record_version", "TEXT"),
            ("device_info_id", "INTEGER"), ("app_info_id", "INTEGER"), ("recording_method", "INTEGER"),
            ("dedupe_hash", "BLOB UNIQUE"),
        ]
        var resting = shared + [("time", "INTEGER NOT NULL"), ("zone_offset", "INTEGER"), ("local_date", "INTEGER"),
                                ("beats_per_minute", "INTEGER NOT NULL")]
        let localDateTime = ("local_date_time", "INTEGER AS (time + 1000 * zone_offset)")
        // The generated column needs the two it is computed from.
        let computable = !(omitColumn?.table == "resting_heart_rate_record_table"
                           && ["time", "zone_offset"].contains(omitColumn?.column ?? ""))
        switch layout {
        case .fresh: resting.insert(localDateTime, at: resting.firstIndex { $0.0 == "zone_offset" }! + 1)
        case .upgraded: break
        case .shuffled:
            resting = [("beats_per_minute", "INTEGER NOT NULL"), ("zone_offset", "INTEGER"), localDateTime,
                       ("app_info_id", "INTEGER"), ("time", "INTEGER NOT NULL"), ("recording_method", "INTEGER"),
                       ("client_record_version", "TEXT"), ("uuid", "BLOB NOT NULL UNIQUE"),
                       ("device_info_id", "INTEGER"), ("local_date", "INTEGER"), ("client_record_id", "TEXT"),
                       ("last_modified_time", "INTEGER"), ("dedupe_hash", "BLOB UNIQUE"),
                       ("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT")]
        }
        let heartRate = shared + [("start_time", "INTEGER NOT NULL"), ("start_zone_offset", "INTEGER"),
                                  ("end_time", "INTEGER NOT NULL"), ("end_zone_offset", "INTEGER"), ("local_date", "INTEGER")]
        let tables: [(String, [(String, String)])] = [
            ("application_info_table", [("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT"), ("package_name", "TEXT NOT NULL UNIQUE"),
                                        ("app_name", "TEXT"), ("app_icon", "BLOB"), ("record_types_used", "TEXT")]),
            ("device_info_table", [("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT"), ("manufacturer", "TEXT"),
                                   ("model", "TEXT"), ("device_type", "INTEGER")]),
            ("resting_heart_rate_record_table", resting),
            ("heart_rate_record_table", heartRate),
            ("heart_rate_record_series_table", [("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT"),
                                                ("parent_key", "INTEGER NOT NULL REFERENCES heart_rate_record_table(row_id) ON DELETE CASCADE"),
                                                ("beats_per_minute", "INTEGER NOT NULL"), ("epoch_millis", "INTEGER NOT NULL")]),
            ("steps_record_table", shared + [("start_time", "INTEGER NOT NULL"), ("start_zone_offset", "INTEGER"),
                                             ("end_time", "INTEGER NOT NULL"), ("end_zone_offset", "INTEGER"), ("count", "INTEGER")]),
            ("change_logs_table", [("row_id", "INTEGER PRIMARY KEY AUTOINCREMENT"), ("record_type", "INTEGER"),
                                   ("operation_type", "INTEGER"), ("uuids", "BLOB"), ("change_log_time", "INTEGER")]),
        ]
        for (name, columns) in tables where name != omitTable {
            let kept = columns.filter {
                !(omitColumn?.table == name && omitColumn?.column == $0.0) && (computable || $0.0 != "local_date_time")
            }
            try exec("CREATE TABLE \(name) (" + kept.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")")
        }
        if layout == .upgraded && omitTable != "resting_heart_rate_record_table" && computable {
            try exec("ALTER TABLE resting_heart_rate_record_table ADD COLUMN local_date_time INTEGER AS (time + 1000 * zone_offset)")
        }
        try exec("PRAGMA user_version = \(version)")
    }

    private init(opening path: String) throws {
        self.path = path
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw HealthConnectTestError("cannot open \(path)")
        }
    }

    /// Opens a database built before, to change it.
    static func reopen(_ path: String) throws -> HealthConnectTestDatabase {
        try HealthConnectTestDatabase(opening: path)
    }

    deinit { sqlite3_close_v2(db) }

    /// Closes the database so the file is complete on disk.
    func close() {
        sqlite3_close_v2(db)
        db = nil
    }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw HealthConnectTestError("\(text) in \(sql)")
        }
    }

    @discardableResult
    func addApp(_ package: String, name: String?) throws -> Int64 {
        try exec("INSERT INTO application_info_table (package_name, app_name) VALUES (\(quote(package)), \(quote(name)))")
        return sqlite3_last_insert_rowid(db)
    }

    @discardableResult
    func addDevice(manufacturer: String?, model: String?, type: Int?) throws -> Int64 {
        try exec("INSERT INTO device_info_table (manufacturer, model, device_type) VALUES (\(quote(manufacturer)), \(quote(model)), \(type.map(String.init) ?? "NULL"))")
        return sqlite3_last_insert_rowid(db)
    }

    /// A resting record. `uuid` is 32 hex digits, the live feed's id without dashes. `provider` is a row of
    /// `device_data_provider_metadata_table` (`addDeviceDataProviders`).
    func addResting(uuid: String, time: Int64, offset: Int?, bpm: Int64, app: Int64, device: Int64? = nil,
                    method: Int? = nil, modified: Int64? = nil, clientId: String? = nil, clientVersion: String? = nil,
                    provider: Int64? = nil) throws {
        let localDate = offset.map { String((time / 1000 + Int64($0)) / 86_400) } ?? "NULL"
        try exec("""
            INSERT INTO resting_heart_rate_record_table (uuid, time, zone_offset, local_date, beats_per_minute, app_info_id,
              device_info_id, recording_method, last_modified_time, client_record_id, client_record_version\(provider == nil ? "" : ", device_data_provider_id"))
            VALUES (X'\(uuid)', \(time), \(sql(offset)), \(localDate), \(bpm), \(app), \(sql(device)), \(sql(method)),
              \(sql(modified ?? time)), \(quote(clientId)), \(quote(clientVersion))\(provider.map { ", \($0)" } ?? ""))
            """)
    }

    // MARK: - Newer databases

    /// What the device data providers upgrade adds, as ALTER TABLE adds it (each column last): the provider column of
    /// the record tables, the device's id and display name, the app's device, and the providers' table.
    func addDeviceDataProviders(metadataTable: Bool = true) throws {
        for table in ["resting_heart_rate_record_table", "heart_rate_record_table", "steps_record_table"] {
            try exec("ALTER TABLE \(table) ADD COLUMN device_data_provider_id INTEGER")
        }
        try exec("ALTER TABLE device_info_table ADD COLUMN device_id TEXT")
        try exec("ALTER TABLE device_info_table ADD COLUMN display_name TEXT")
        try exec("ALTER TABLE application_info_table ADD COLUMN device_info_id INTEGER")
        if metadataTable {
            try exec("CREATE TABLE device_data_provider_metadata_table (row_id INTEGER PRIMARY KEY, source_package_name TEXT NOT NULL)")
        }
    }

    /// A device a provider advertised, and the synthetic package Health Connect made for it: (device, app) row ids.
    func addProvidedDevice(type: String, manufacturer: String?, model: String?, deviceType: Int, displayName: String?,
                           deviceId: String) throws -> (device: Int64, app: Int64) {
        try exec("""
            INSERT INTO device_info_table (manufacturer, model, device_type, device_id, display_name)
            VALUES (\(quote(manufacturer)), \(quote(model)), \(deviceType), \(quote(deviceId)), \(quote(displayName)))
            """)
        let device = sqlite3_last_insert_rowid(db)
        let package = "com.android.healthconnect.\(type).d" + String(format: "%032x", device)
        try exec("INSERT INTO application_info_table (package_name, device_info_id) VALUES (\(quote(package)), \(device))")
        return (device, sqlite3_last_insert_rowid(db))
    }

    /// A row of `device_data_provider_metadata_table`.
    func addProvider(_ package: String) throws -> Int64 {
        try exec("INSERT INTO device_data_provider_metadata_table (source_package_name) VALUES (\(quote(package)))")
        return sqlite3_last_insert_rowid(db)
    }

    /// A row of `preference_table` (made on first use), as the platform keeps its settings.
    func addPreference(_ key: String, _ value: String) throws {
        try exec("CREATE TABLE IF NOT EXISTS preference_table (key TEXT NOT NULL UNIQUE, value TEXT)")
        try exec("INSERT INTO preference_table (key, value) VALUES (\(quote(key)), \(quote(value)))")
    }

    /// The medical-record tables with a clinic's records, last modified at `modified`.
    func addMedicalRecords(modified: Int64) throws {
        try exec("""
            CREATE TABLE medical_data_source_table (medical_data_source_row_id INTEGER PRIMARY KEY, app_info_id INTEGER NOT NULL,
              display_name TEXT NOT NULL, fhir_base_uri TEXT NOT NULL, fhir_version TEXT NOT NULL,
              data_source_uuid BLOB NOT NULL UNIQUE, last_modified_time INTEGER NOT NULL);
            CREATE TABLE medical_resource_table (medical_resource_row_id INTEGER PRIMARY KEY AUTOINCREMENT,
              fhir_resource_type INTEGER NOT NULL, fhir_resource_id TEXT NOT NULL, fhir_data TEXT NOT NULL,
              data_source_id INTEGER NOT NULL, last_modified_time INTEGER NOT NULL);
            CREATE TABLE medical_resource_indices_table (medical_resource_id INTEGER NOT NULL, medical_resource_type INTEGER NOT NULL);
            INSERT INTO medical_data_source_table VALUES (1, 1, 'Clinic', 'https://fhir.clinic.example/r4', '4.0.1', X'01', \(modified));
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO medical_resource_table (fhir_resource_type, fhir_resource_id, fhir_data, data_source_id, last_modified_time)
            SELECT 1, 'allergy-' || i, printf('{"resourceType":"AllergyIntolerance","note":"%.*c"}', 2000, 'x'), 1, \(modified) FROM n;
            """)
    }

    /// A heart-rate record with its series samples (epoch ms, bpm).
    func addHeartRate(uuid: String, app: Int64, startOffset: Int?, samples: [(Int64, Int64)], modified: Int64? = nil,
                      provider: Int64? = nil) throws {
        let start = samples.map(\.0).min() ?? 0
        let end = samples.map(\.0).max() ?? 0
        try exec("""
            INSERT INTO heart_rate_record_table (uuid, app_info_id, start_time, start_zone_offset, end_time, end_zone_offset,
              last_modified_time, recording_method\(provider == nil ? "" : ", device_data_provider_id"))
            VALUES (X'\(uuid)', \(app), \(start), \(sql(startOffset)), \(end), \(sql(startOffset)), \(modified ?? end), 2\(provider.map { ", \($0)" } ?? ""))
            """)
        let parent = sqlite3_last_insert_rowid(db)
        for (time, bpm) in samples {
            try exec("INSERT INTO heart_rate_record_series_table (parent_key, beats_per_minute, epoch_millis) VALUES (\(parent), \(bpm), \(time))")
        }
    }

    func addSteps(uuid: String, app: Int64, start: Int64, modified: Int64) throws {
        try exec("""
            INSERT INTO steps_record_table (uuid, app_info_id, start_time, end_time, last_modified_time, count)
            VALUES (X'\(uuid)', \(app), \(start), \(start + 60_000), \(modified), 100)
            """)
    }

    private func quote(_ text: String?) -> String {
        text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL"
    }

    private func sql<T: BinaryInteger>(_ value: T?) -> String { value.map { String($0) } ?? "NULL" }
}

struct HealthConnectTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Writes zips through libarchive, with the member times a test chooses.
enum HealthConnectTestZip {
    struct Member {
        var name: String
        var bytes: [UInt8]
        var modified: Date = Date(timeIntervalSince1970: 1_773_500_000)
    }

    static func write(_ path: String, members: [Member]) throws {
        guard let a = archive_write_new() else { throw HealthConnectTestError("archive_write_new") }
        defer { archive_write_free(a) }
        archive_write_set_format_zip(a)
        guard archive_write_open_filename(a, path) == ARCHIVE_OK else { throw HealthConnectTestError("cannot open \(path)") }
        for member in members {
            let entry = archive_entry_new()
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname(entry, member.name)
            archive_entry_set_size(entry, Int64(member.bytes.count))
            archive_entry_set_filetype(entry, 0o100000)   // AE_IFREG: a cast macro Swift cannot import
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_mtime(entry, time_t(member.modified.timeIntervalSince1970), 0)
            guard archive_write_header(a, entry) == ARCHIVE_OK else { throw HealthConnectTestError("archive_write_header") }
            let written = member.bytes.withUnsafeBytes { archive_write_data(a, $0.baseAddress, $0.count) }
            guard written == member.bytes.count else { throw HealthConnectTestError("archive_write_data") }
        }
        guard archive_write_close(a) == ARCHIVE_OK else { throw HealthConnectTestError("archive_write_close") }
    }

    static func bytes(of path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// Epoch milliseconds of an ISO-8601 date with an offset.
func epochMillis(_ iso: String) -> Int64 {
    Int64((Timestamp.parse(iso)!.epochSeconds * 1000).rounded())
}

let berlinZone = TimeZone(identifier: "Europe/Berlin")!
let tokyoZone = TimeZone(identifier: "Asia/Tokyo")!

