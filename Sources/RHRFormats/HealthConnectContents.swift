import Foundation
import RHRCore

/// The records of a Health Connect export database that rhr reads: resting heart rate records with their
/// writer and device, and heart-rate series summarised per writer and local day (for the empty state, R9).
struct HealthConnectContents {
    var resting: [RestingSample] = []
    var heartRate: [HeartRateDaySummary] = []
    var restingRecords = 0
    var heartRateSamples = 0
    var skipped: [String: Int] = [:]
    /// The newest `last_modified_time` of any record in any table that has one.
    var newestModification: Date?

    static func read(_ db: HealthConnectDatabase, schema: HealthConnectSchema.Present,
                     machineZone: TimeZone) throws(InputError) -> HealthConnectContents {
        var contents = HealthConnectContents()
        let writers = try readWriters(db, schema)
        let devices = try readDevices(db, schema)
        try contents.readResting(db, schema, writers: writers, devices: devices)
        try contents.readHeartRate(db, writers: writers, machineZone: machineZone)
        contents.newestModification = try newestModification(db)
        return contents
    }

    // MARK: - Writers and devices

    /// `application_info_table` row id → writer (R2: package name, and the app's name when known).
    private static func readWriters(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present) throws(InputError) -> [Int64: Writer] {
        let t = HealthConnectSchema.applications
        var writers: [Int64: Writer] = [:]
        let sql = "SELECT row_id, package_name, \(schema.select(t, "app_name")) FROM \(HealthConnectDatabase.quoted(t.name))"
        try db.query(sql) { row throws(InputError) in
            guard let id = row.int64(0) else { return }
            guard let package = row.text(1), !package.isEmpty else {
                throw db.error("\(t.name) row_id \(id): package_name is empty")
            }
            let appName = row.text(2).flatMap { $0.isEmpty ? nil : $0 }
            writers[id] = Writer(store: .healthConnect, name: package, appName: appName)
        }
        return writers
    }

    /// `device_info_table` row id → device (manufacturer, model, type).
    private static func readDevices(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present) throws(InputError) -> [Int64: Device] {
        let t = HealthConnectSchema.devices
        var devices: [Int64: Device] = [:]
        let sql = "SELECT row_id, \(schema.select(t, "manufacturer")), \(schema.select(t, "model")), "
            + "\(schema.select(t, "device_type")) FROM \(HealthConnectDatabase.quoted(t.name))"
        try db.query(sql) { row throws(InputError) in
            guard let id = row.int64(0) else { return }
            let device = Device(manufacturer: row.text(1).flatMap { $0.isEmpty ? nil : $0 },
                                model: row.text(2).flatMap { $0.isEmpty ? nil : $0 },
                                type: row.int64(3).map { Int($0) })
            if !device.isEmpty { devices[id] = device }
        }
        return devices
    }

    // MARK: - Resting heart rate

    private mutating func readResting(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present,
                                      writers: [Int64: Writer], devices: [Int64: Device]) throws(InputError) {
        let t = HealthConnectSchema.resting
        let sql = """
            SELECT row_id, typeof(uuid), length(uuid), lower(hex(uuid)), time, zone_offset, beats_per_minute,
                   app_info_id, last_modified_time, \(schema.select(t, "device_info_id")),
                   \(schema.select(t, "recording_method")), \(schema.select(t, "client_record_id")),
                   \(schema.select(t, "client_record_version"))
            FROM \(HealthConnectDatabase.quoted(t.name)) ORDER BY time, row_id
            """
        var samples: [RestingSample] = []
        try db.query(sql) { row throws(InputError) in
            let rowId = row.int64(0) ?? 0
            func bad(_ what: String) -> InputError { db.error("\(t.name) row_id \(rowId): \(what)") }
            guard row.text(1) == "blob", row.int64(2) == 16, let id = row.text(3) else {
                throw bad("uuid is not 16 bytes")
            }
            func date(_ millis: Int64, _ column: String) throws(InputError) -> Date {
                guard HealthConnectContents.plausibleMillis.contains(millis) else {
                    throw bad("\(column) \(millis) is not a time (milliseconds since 1970, years 1–9999)")
                }
                return HealthConnectContents.date(millis: millis)
            }
            guard let timeMillis = row.int64(4) else { throw bad("time is null") }
            let time = try date(timeMillis, "time")
            // A null offset stays nil: the store assumes the machine's and flags it (R5).
            let zoneOffset = row.int64(5).map { Int($0) }
            if let zoneOffset, !(-18 * 3600...18 * 3600).contains(zoneOffset) {
                throw bad("zone_offset \(zoneOffset) is not an offset in seconds")
            }
            guard let bpm = row.int64(6) else { throw bad("beats_per_minute is null") }
            guard let appId = row.int64(7) else { throw bad("app_info_id is null") }
            guard let writer = writers[appId] else { throw bad("app_info_id \(appId) has no row in application_info_table") }
            let lastModified = try row.int64(8).map { (millis) throws(InputError) in try date(millis, "last_modified_time") }
            let device = row.int64(9).flatMap { devices[$0] }
            let method = row.int64(10).flatMap { RecordingMethod(rawValue: Int($0)) }
            // Zero and values over 300 are kept as delivered; the store flags them (R6).
            samples.append(.healthConnect(
                id: id, writer: writer, time: time, zoneOffset: zoneOffset,
                beatsPerMinute: bpm, device: device, recordingMethod: method, lastModified: lastModified,
                clientRecordId: row.text(11).flatMap { $0.isEmpty ? nil : $0 }, clientRecordVersion: row.int64(12)))
        }
        resting = samples
        restingRecords = samples.count
    }

    // MARK: - Heart rate

    /// Each series sample counts on its own local day, in its record's start offset (R5), the machine's
    /// when that is null. Health Connect has no motion context: every sample counts as "not set".
    private mutating func readHeartRate(_ db: HealthConnectDatabase, writers: [Int64: Writer],
                                        machineZone: TimeZone) throws(InputError) {
        let sql = """
            SELECT h.row_id, h.app_info_id, h.start_zone_offset, s.epoch_millis, s.beats_per_minute
            FROM \(HealthConnectDatabase.quoted(HealthConnectSchema.heartRateSeries.name)) AS s
            JOIN \(HealthConnectDatabase.quoted(HealthConnectSchema.heartRate.name)) AS h ON h.row_id = s.parent_key
            """
        var summarizer = HeartRateSummarizer()
        var count = 0
        var unusable = 0
        try db.query(sql) { row throws(InputError) in
            let rowId = row.int64(0) ?? 0
            guard let appId = row.int64(1), let writer = writers[appId] else {
                throw db.error("heart_rate_record_table row_id \(rowId): app_info_id "
                    + (row.int64(1).map { "\($0) has no row in application_info_table" } ?? "is null"))
            }
            guard let millis = row.int64(3), HealthConnectContents.plausibleMillis.contains(millis),
                  let bpm = row.int64(4) else {
                unusable += 1
                return
            }
            let time = HealthConnectContents.date(millis: millis)
            let day = LocalDayRule.healthConnect(time: time, zoneOffset: row.int64(2).map { Int($0) },
                                                 machineZone: machineZone).day
            summarizer.add(writer: writer, day: day, bpm: Double(bpm), context: .notSet)
            count += 1
        }
        heartRate = summarizer.result
        heartRateSamples = count
        if unusable > 0 { skipped["heart-rate sample without a usable time or value"] = unusable }
    }

    // MARK: - Export time

    /// Damaged values in tables rhr does not read are passed over: they must not date the export.
    private static func newestModification(_ db: HealthConnectDatabase) throws(InputError) -> Date? {
        var newest: Int64?
        for table in try db.tableNames().sorted() where try db.columns(of: table).contains("last_modified_time") {
            try db.query("SELECT max(last_modified_time) FROM \(HealthConnectDatabase.quoted(table)) "
                + "WHERE last_modified_time BETWEEN \(plausibleMillis.lowerBound) AND \(plausibleMillis.upperBound)") { row throws(InputError) in
                if let value = row.int64(0) { newest = max(newest ?? value, value) }
            }
        }
        return newest.map(date(millis:))
    }

    static func date(millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// Epoch milliseconds of the years 1–9999, the dates every other input can write. A time outside them is
    /// damage, and would make instants no ISO-8601 text holds (`Timestamp.iso8601` traps beyond Int64 ms).
    static let plausibleMillis: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999
}
