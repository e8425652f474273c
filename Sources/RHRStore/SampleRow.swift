import Foundation
import RHRCore

/// A resting sample as one road holds it in the `sample` table: the delivered fields plus the day rule's result.
/// The road (`layer_id`), when it delivered the sample (`as_of`) and whether it still stands in its road
/// (`current`) are columns of their own, outside `Column`, which `StoredCopy` reads with the row.
struct SampleRow: Equatable {
    var identity: String
    var uuid: String?
    var writerID: Int64
    var day: Int64
    var offsetAssumed: Bool
    var start, end: Double
    var offsetSeconds: Int64?
    var timeZone: String?
    /// Nil for NaN: SQLite stores NaN as NULL.
    var value: Double?
    var unit: String
    var inRange: Bool
    var recordingMethod: Int64?
    var created, lastModified: Double?
    var clientRecordId: String?
    var clientRecordVersion: Int64?
    /// Nil when the platform named no part of it; kept in the `device_…` columns.
    var device: Device?

    init(_ sample: RestingSample, writerID: Int64, machineZone: TimeZone) {
        let placed = LocalDayRule.day(of: sample, machineZone: machineZone)
        identity = sample.identity.key
        uuid = sample.uuid
        self.writerID = writerID
        day = Int64(placed.day.daysSinceEpoch)
        offsetAssumed = placed.offsetAssumed
        start = sample.start.timeIntervalSince1970
        end = sample.end.timeIntervalSince1970
        offsetSeconds = sample.offsetSeconds.map(Int64.init)
        timeZone = sample.timeZoneIdentifier
        value = sample.value.isNaN ? nil : sample.value
        unit = sample.unit
        inRange = sample.isInRange
        recordingMethod = sample.recordingMethod.map { Int64($0.rawValue) }
        created = sample.created?.timeIntervalSince1970
        lastModified = sample.lastModified?.timeIntervalSince1970
        clientRecordId = sample.clientRecordId
        clientRecordVersion = sample.clientRecordVersion
        device = sample.device.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The columns after `id`, `layer_id`, `store`, `as_of` and `current`, in table order: what `init(_:_:)` reads
    /// and `bindings` binds.
    enum Column: Int, CaseIterable {
        case identity, uuid, writerID, day, offsetAssumed, start, end, offsetSeconds, timeZone, value, unit, inRange,
             recordingMethod, created, lastModified, clientRecordId, clientRecordVersion, deviceName,
             deviceManufacturer, deviceModel, deviceHardware, deviceSoftware, deviceType

        /// The column's name in the table: the case's name in snake case (`writerID` → `writer_id`).
        var name: String {
            var name = ""
            for ch in "\(self)".replacingOccurrences(of: "ID", with: "Id") {
                if ch.isUppercase { name += "_" + ch.lowercased() } else { name.append(ch) }
            }
            return name
        }
    }

    static let columnNames = Column.allCases.map(\.name)

    /// `columnNames` as a SELECT lists them (`end` is a keyword, so quoted); `qualifiedColumns` each prefixed
    /// with `s.` for queries that join.
    static let columns = columnNames.map(quoted).joined(separator: ", ")
    static let qualifiedColumns = columns(prefix: "s.")
    static func columns(prefix: String) -> String { columnNames.map { prefix + quoted($0) }.joined(separator: ", ") }
    private static func quoted(_ name: String) -> String { name == "end" ? "\"end\"" : name }

    /// A new copy was first received as it was delivered (`first_as_of` takes `as_of`'s parameter, `?3`). After
    /// `current`: when its file was made and its name (`SnapshotTie`).
    static let insert = "INSERT INTO sample(layer_id, store, as_of, current, made_at, made_in, first_as_of, \(columns)) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?3, " + Array(repeating: "?", count: columnNames.count).joined(separator: ", ") + ")"
    /// As delivered again: `as_of`, `current`, `made_at`, `made_in`, the columns, then the row's id.
    static let update = "UPDATE sample SET as_of = ?, current = ?, made_at = ?, made_in = ?, \(keepFirst), "
        + columnNames.map { "\(quoted($0)) = ?" }.joined(separator: ", ") + " WHERE id = ?"
    /// A copy delivered again keeps its first delivery, unless this one came earlier (applied out of order); one
    /// whose first delivery is not known (stored before schema 7) keeps not knowing it. `?1` is the new `as_of`.
    static let keepFirst = "first_as_of = min(first_as_of, ?1)"

    /// Where each `Column` is in one statement's result, found by name once per statement.
    struct Columns {
        private let found: [SQLColumn]

        init(_ s: SQLiteStatement) throws(StoreError) {
            var found: [SQLColumn] = []
            // The names worked out once (`columnNames`): a statement's columns are found for every sample applied.
            for name in SampleRow.columnNames { found.append(try s.column(name)) }
            self.found = found
        }

        subscript(_ column: Column) -> SQLColumn { found[column.rawValue] }
    }

    /// Reads the current row of a statement that selects `columns`.
    init(_ s: SQLiteStatement, _ c: Columns) {
        identity = s.text(c[.identity])
        uuid = s.optionalText(c[.uuid])
        writerID = s.int(c[.writerID])
        day = s.int(c[.day])
        offsetAssumed = s.int(c[.offsetAssumed]) != 0
        start = s.double(c[.start])
        end = s.double(c[.end])
        offsetSeconds = s.optionalInt(c[.offsetSeconds])
        timeZone = s.optionalText(c[.timeZone])
        value = s.optionalDouble(c[.value])
        unit = s.text(c[.unit])
        inRange = s.int(c[.inRange]) != 0
        recordingMethod = s.optionalInt(c[.recordingMethod])
        created = s.optionalDouble(c[.created])
        lastModified = s.optionalDouble(c[.lastModified])
        clientRecordId = s.optionalText(c[.clientRecordId])
        clientRecordVersion = s.optionalInt(c[.clientRecordVersion])
        let device = Device(name: s.optionalText(c[.deviceName]), manufacturer: s.optionalText(c[.deviceManufacturer]),
                            model: s.optionalText(c[.deviceModel]), hardware: s.optionalText(c[.deviceHardware]),
                            software: s.optionalText(c[.deviceSoftware]), type: s.optionalInt(c[.deviceType]).map(Int.init))
        self.device = device.isEmpty ? nil : device
    }

    /// Values to bind for `columns`, in order.
    var bindings: [SQLValue] {
        [.text(identity), .string(uuid), .integer(writerID), .integer(day), .bool(offsetAssumed), .real(start),
         .real(end), .int64(offsetSeconds), .string(timeZone), .double(value), .text(unit), .bool(inRange),
         .int64(recordingMethod), .double(created), .double(lastModified), .string(clientRecordId),
         .int64(clientRecordVersion), .string(device?.name), .string(device?.manufacturer), .string(device?.model),
         .string(device?.hardware), .string(device?.software), .int64(device?.type.map(Int64.init))]
    }

    var bpm: Double? { SampleRow.bpm(value: value, unit: unit) }

    static func bpm(value: Double?, unit: String) -> Double? { value.flatMap { try? RestingValue.bpm(value: $0, unit: unit) } }

    /// Whether it may enter an aggregate: in range (R6) and plausibly dated against `asOf`, when it was delivered (R13).
    func isValid(deliveredAt asOf: Double) -> Bool {
        inRange && PlausibleTimeRule.isPlausible(start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
                                                 asOf: Timestamp(epochSeconds: asOf, offsetSeconds: 0))
    }

    /// The same value as `other`, in bpm (R12: a value "replaced" by an equal one is no revision).
    func sameValue(as other: SampleRow) -> Bool { SampleRow.sameValue((value, unit), (other.value, other.unit)) }

    /// The rule `sameValue(as:)` applies, for callers that read only the value and the unit: equal in bpm, or, where
    /// neither reads as bpm, the same number.
    static func sameValue(_ a: (value: Double?, unit: String), _ b: (value: Double?, unit: String)) -> Bool {
        let bpm = SampleRow.bpm(value: a.value, unit: a.unit)
        return bpm == SampleRow.bpm(value: b.value, unit: b.unit) && (bpm != nil || a.value == b.value)
    }

    /// The `id`s of the rows `pairs` selects (`id`, `old_value`, `old_unit`, `new_value`, `new_unit`) whose old and new
    /// values are the same (`sameValue`): one copy a newer one holds unchanged.
    static func sameValueIDs(_ pairs: SQLiteStatement) throws(StoreError) -> [Int64] {
        let id = try pairs.column("id"), oldValue = try pairs.column("old_value"), oldUnit = try pairs.column("old_unit"),
            newValue = try pairs.column("new_value"), newUnit = try pairs.column("new_unit")
        var same: [Int64] = []
        while try pairs.step() {
            if sameValue((pairs.optionalDouble(oldValue), pairs.text(oldUnit)), (pairs.optionalDouble(newValue), pairs.text(newUnit))) {
                same.append(pairs.int(id))
            }
        }
        return same
    }

    /// Back to the core's value, with the writer the caller looked up.
    func sample(store: HealthStore, writer: Writer) -> RestingSample {
        // The stored uuid is normalised already; set it after init, which would normalise it again.
        var sample = RestingSample(
            store: store, uuid: nil, writer: writer, device: device,
            start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
            offsetSeconds: offsetSeconds.map(Int.init), timeZoneIdentifier: timeZone, value: value ?? .nan, unit: unit,
            recordingMethod: recordingMethod.flatMap { RecordingMethod(rawValue: Int($0)) },
            created: created.map(Date.init(timeIntervalSince1970:)),
            lastModified: lastModified.map(Date.init(timeIntervalSince1970:)),
            clientRecordId: clientRecordId, clientRecordVersion: clientRecordVersion)
        sample.uuid = uuid
        sample.isDuplicate = SampleIdentity.isDuplicate(identity)
        return sample
    }
}
