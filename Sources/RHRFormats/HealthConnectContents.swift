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
    /// R14: the rows passed over.
    var passedOver = HealthConnectPassedOver()
    /// R2: by package name, the raw spellings of it.
    var writerSpellings: [String: [String]] = [:]

    static func read(_ db: HealthConnectDatabase, schema: HealthConnectSchema.Present,
                     machineZone: TimeZone) throws(InputError) -> HealthConnectContents {
        var contents = HealthConnectContents()
        var writers = try HealthConnectWriters.read(db, schema)
        try contents.readResting(db, schema, writers: &writers)
        try contents.readHeartRate(db, schema, writers: &writers, machineZone: machineZone)
        contents.writerSpellings = writers.spellings.mapValues { $0.sorted() }
        return contents
    }

    // MARK: - Resting heart rate

    /// A bad row is passed over (R14), kept with its table and row id. Integer columns are selected with their type (`typedInteger`), so a row holding text there costs no more
    /// than a good one, however long the text.
    private mutating func readResting(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present,
                                      writers: inout HealthConnectWriters) throws(InputError) {
        let t = HealthConnectSchema.resting
        let integers = ["time", "zone_offset", "beats_per_minute", "app_info_id", "last_modified_time",
                        "device_info_id", "recording_method", HealthConnectSchema.providerColumn]
        let typed = integers.map { HealthConnectContents.typedInteger($0, present: schema.has(t, $0)) }
        let sql = """
            SELECT row_id,
                   CASE WHEN typeof(uuid) = 'blob' AND length(uuid) = 16 THEN lower(hex(uuid)) END AS id,
                   \(typed.joined(separator: ", ")),
                   \(schema.select(t, "client_record_id")) AS client_record_id,
                   CASE WHEN length(\(schema.select(t, "client_record_version"))) <= 32
                        THEN \(schema.select(t, "client_record_version")) END AS client_record_version
            FROM \(HealthConnectDatabase.quoted(t.name))
            """
        var found: [(time: Int64, rowId: Int64, sample: RestingSample)] = []
        try db.query(sql) { row throws(InputError) in
            let rowId = row.int64("row_id") ?? 0
            do throws(BadRow) {
                guard let id = row.text("id") else { throw BadRow("uuid is not 16 bytes") }
                let timeMillis = try HealthConnectContents.required(row, "time")
                let time = try HealthConnectContents.date(timeMillis, "time")
                // A null offset stays nil: the store assumes the machine's and flags it (R5).
                let zoneOffset = try HealthConnectContents.optional(row, "zone_offset").map { Int($0) }
                if let zoneOffset, !(-18 * 3600...18 * 3600).contains(zoneOffset) {
                    throw BadRow("zone_offset \(zoneOffset) is not an offset in seconds")
                }
                let bpm = try HealthConnectContents.required(row, "beats_per_minute")
                let (writer, device) = try writers.attribute(
                    app: try HealthConnectContents.required(row, "app_info_id"),
                    device: try HealthConnectContents.optional(row, "device_info_id"),
                    provider: try HealthConnectContents.optional(row, HealthConnectSchema.providerColumn))
                let lastModified = try HealthConnectContents.optional(row, "last_modified_time")
                    .map { (millis) throws(BadRow) in try HealthConnectContents.date(millis, "last_modified_time") }
                let method = try HealthConnectContents.optional(row, "recording_method").flatMap { RecordingMethod(rawValue: Int($0)) }
                // Zero and values over 300 are kept as delivered; the store flags them (R6).
                let sample = RestingSample.healthConnect(
                    id: id, writer: writer, time: time, zoneOffset: zoneOffset,
                    beatsPerMinute: bpm, device: device, recordingMethod: method, lastModified: lastModified,
                    clientRecordId: row.text("client_record_id").flatMap { $0.isEmpty ? nil : $0 },
                    clientRecordVersion: row.int64("client_record_version"))
                found.append((timeMillis, rowId, sample))
            } catch {
                try passedOver.add(db, table: t.name, rowId: rowId, kind: "Health Connect resting records rhr cannot read", error)
            }
        }
        // In time order, which the file need not keep.
        found.sort { ($0.time, $0.rowId) < ($1.time, $1.rowId) }
        resting = found.map(\.sample)
        restingRecords = resting.count
    }

    /// `typeof(c) AS c_type, CASE WHEN typeof(c) IN ('integer', 'real') THEN c END AS c`: a value of another type
    /// is told by its type alone, which SQLite finds without reading the value. An absent optional column is null.
    static func typedInteger(_ column: String, present: Bool = true, from table: String = "") -> String {
        guard present else { return "'null' AS \(column)_type, NULL AS \(column)" }
        let name = table + HealthConnectDatabase.quoted(column)
        return "typeof(\(name)) AS \(column)_type, CASE WHEN typeof(\(name)) IN ('integer', 'real') THEN \(name) END AS \(column)"
    }

    /// A typed integer column (`typedInteger`) that may be null.
    static func optional(_ row: HealthConnectDatabase.Row, _ column: String) throws(BadRow) -> Int64? {
        if let value = row.int64(column) { return value }
        switch row.text(column + "_type") {
        case "text": throw BadRow("\(column) is text, not an integer")
        case "blob": throw BadRow("\(column) is a blob, not an integer")
        case "real": throw BadRow("\(column) is not a whole number")
        default: return nil
        }
    }

    /// A typed integer column that must hold a value.
    static func required(_ row: HealthConnectDatabase.Row, _ column: String) throws(BadRow) -> Int64 {
        guard let value = try optional(row, column) else { throw BadRow("\(column) is null") }
        return value
    }

    static func date(_ millis: Int64, _ column: String) throws(BadRow) -> Date {
        guard plausibleMillis.contains(millis) else {
            throw BadRow("\(column) \(millis) is not a time (milliseconds since 1970, years 1–9999)")
        }
        return date(millis: millis)
    }

    // MARK: - Heart rate

    /// Each series sample counts on its own local day, in its record's start offset (R5), the machine's
    /// when that is null. Health Connect has no motion context: every sample counts as "not set".
    private mutating func readHeartRate(_ db: HealthConnectDatabase, _ schema: HealthConnectSchema.Present,
                                        writers: inout HealthConnectWriters, machineZone: TimeZone) throws(InputError) {
        let provider = HealthConnectSchema.providerColumn
        let typed = [("app_info_id", "h."), ("start_zone_offset", "h."), (provider, "h."), ("epoch_millis", "s."), ("beats_per_minute", "s.")]
            .map { HealthConnectContents.typedInteger($0.0, present: $0.0 != provider || schema.has(HealthConnectSchema.heartRate, provider),
                                                      from: $0.1) }
        let sql = """
            SELECT h.row_id AS row_id, \(typed.joined(separator: ", "))
            FROM \(HealthConnectDatabase.quoted(HealthConnectSchema.heartRateSeries.name)) AS s
            JOIN \(HealthConnectDatabase.quoted(HealthConnectSchema.heartRate.name)) AS h ON h.row_id = s.parent_key
            """
        var summarizer = HeartRateSummarizer()
        var count = 0
        var unusable = 0
        try db.query(sql) { row throws(InputError) in
            let rowId = row.int64("row_id") ?? 0
            do throws(BadRow) {
                let writer = try writers.attribute(app: try HealthConnectContents.required(row, "app_info_id"), device: nil,
                                                   provider: try HealthConnectContents.optional(row, provider)).writer
                // A sample without a usable time or value is passed over and counted.
                guard let millis = try? HealthConnectContents.required(row, "epoch_millis"),
                      HealthConnectContents.plausibleMillis.contains(millis),
                      let bpm = try? HealthConnectContents.required(row, "beats_per_minute") else {
                    unusable += 1
                    return
                }
                let time = HealthConnectContents.date(millis: millis)
                let offset = try HealthConnectContents.optional(row, "start_zone_offset").map { Int($0) }
                let day = LocalDayRule.healthConnect(time: time, zoneOffset: offset, machineZone: machineZone).day
                summarizer.add(writer: writer, day: day, bpm: Double(bpm), context: .notSet)
                count += 1
            } catch {
                try passedOver.add(db, table: HealthConnectSchema.heartRate.name, rowId: rowId,
                                   kind: "Health Connect heart-rate records rhr cannot read", error)
            }
        }
        heartRate = summarizer.result
        heartRateSamples = count
        if unusable > 0 { skipped["heart-rate sample without a usable time or value"] = unusable }
    }

    static func date(millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// Epoch milliseconds of the years 1–9999, the dates every other input can write. A time outside them is
    /// damage, and would make instants no ISO-8601 text holds (`Timestamp.iso8601` traps beyond Int64 ms).
    static let plausibleMillis: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999
}
