import RHRJSON
import Foundation
import RHRCore

/// Sync batches as JSON (docs/design.md section 4): what a phone bridge sends, in a file or over the socket.
///
/// Decoding is strict about what it knows and lenient about what it does not: a known key of the wrong type
/// is an error naming its JSON path (`upserted[3].start: not an ISO-8601 date`), an unknown key is ignored so
/// that newer bridges can add fields. An optional key whose value is `null` counts as absent.
public enum SyncBatchJSON {
    // MARK: - Decoding

    /// Decodes a parsed batch. `machineZone` is the zone assumed for Health Connect records without an offset
    /// (R5); `origin` names the road for the revision history (a file name, a bridge).
    /// `SyncBatch.validate()` runs last and its error is passed on.
    public static func decode(_ value: JSONValue, machineZone: TimeZone, origin: String = "") throws(BatchError) -> SyncBatch {
        let batch: SyncBatch
        do {
            batch = try read(value, machineZone: machineZone, origin: origin)
        } catch {
            throw BatchError(path: error.path, error.message)
        }
        try batch.validate()
        return batch
    }

    private static func read(_ value: JSONValue, machineZone: TimeZone, origin: String) throws(JSONPathError) -> SyncBatch {
        guard case .object(let object) = value else {
            throw JSONPathError(path: "", "a batch must be a JSON object, not \(value.kindName)")
        }
        let top = JSONMembers(object)

        let storeValue = try top.required("store")
        guard let storeName = storeValue.string, let store = HealthStore(rawValue: storeName) else {
            throw top.error("store", #"expected "healthkit" or "healthconnect""#)
        }
        let stream = try top.requiredString("stream")
        let asOf = try top.requiredDate("asOf")

        var cursor: SyncBatch.Cursor?
        if let members = try top.members("cursor") {
            cursor = SyncBatch.Cursor(previous: try members.stringOrNull("previous"), next: try members.stringOrNull("next"))
        }
        let fullResync = try top.bool("fullResync") ?? false

        var batch = SyncBatch(store: store, stream: stream, asOf: asOf, cursor: cursor, fullResync: fullResync, origin: origin)

        // R14: an upsert rhr cannot use is passed over, kept as its JSON with its path; the batch applies without it.
        for (i, element) in (try top.array("upserted") ?? []).enumerated() {
            let path = "upserted[\(i)]"
            // Each decoder adds its record only once all of it has read: a record that throws adds nothing.
            do throws(JSONPathError) {
                let record = try JSONMembers(element, path: path)
                switch store {
                case .healthKit:
                    try decodeHealthKit(record, into: &batch)
                case .healthConnect:
                    try decodeHealthConnect(record, machineZone: machineZone, into: &batch)
                }
            } catch {
                batch.passedOver.add(JSONPassOver.record("\(store.displayName) upserts", at: path, value: element, error: error,
                                                         place: InputPlace(path: path)))
            }
        }

        for (i, id) in (try top.strings("deleted") ?? []).enumerated() {
            if let flaw = TextGate.flaw(in: id) {
                batch.passedOver.add(kind: "deletions whose id holds a control character", reason: "deleted[\(i)]: holds \(flaw.words)",
                                     place: InputPlace(path: "deleted[\(i)]"), raw: JSONWriter.string(.string(id)))
            } else {
                batch.deleted.append(id)
            }
        }

        if let permissions = try top.strings("grantedPermissions") {
            guard store == .healthConnect else {
                throw top.error("grantedPermissions", "only a Health Connect batch carries permissions")
            }
            batch.grantedPermissions = permissions
        }
        return batch
    }

    // MARK: HealthKit

    static let healthKitTypes = #"expected "restingHeartRate" or "heartRate""#

    private static func decodeHealthKit(_ record: JSONMembers, into batch: inout SyncBatch) throws(JSONPathError) {
        let type = try record.requiredString("type")
        guard type == "restingHeartRate" || type == "heartRate" else {
            throw record.error("type", "\"\(type)\" is not a HealthKit type (\(healthKitTypes))")
        }
        let uuid = try record.string("uuid", nonEmpty: true)
        let start = try record.requiredDate("start")
        let end = try record.requiredDate("end")
        if end.epochSeconds < start.epochSeconds { throw record.error("end", "before start") }
        let value = try record.requiredNumber("value")
        let unit = try record.requiredString("unit")
        let bpm: Double
        do {
            bpm = try RestingValue.bpm(value: value, unit: unit)
        } catch {
            throw record.error("unit", error.description)
        }

        if let uuid, let flaw = TextGate.flaw(in: uuid) { throw record.error("uuid", "holds \(flaw.words)") }
        let source = try record.requiredMembers("source")
        let writer = Writer(store: .healthKit, name: try writerName(source, "name", into: &batch),
                            bundleIdentifier: try source.string("bundleIdentifier"),
                            productType: try source.string("productType"))
        let metadata = try record.members("metadata")
        let zoneName = try metadata?.string("HKTimeZone")

        if type == "heartRate" {
            let context = try motionContext(metadata)
            let day = LocalDayRule.healthKit(start: start.date, end: end.date, writtenOffset: start.offsetSeconds,
                                             timeZone: zoneName.flatMap(ZoneNames.zone))
            let key = uuid ?? SampleIdentity.naturalKey(type: "heartRate", writer: writer.name, start: start.date, end: end.date)
            var summary = HeartRateDaySummary(writer: writer, day: day, recordKey: key)
            summary.add(bpm: bpm, context: context)
            batch.heartRate.append(summary)
            return
        }

        var device: Device?
        if let members = try record.members("device") {
            let parsed = Device(name: try members.string("name"), manufacturer: try members.string("manufacturer"),
                                model: try members.string("model"), hardware: try members.string("hardwareVersion"),
                                software: try members.string("softwareVersion"))
            device = parsed.isEmpty ? nil : parsed
        }
        batch.resting.append(RestingSample(
            store: .healthKit, uuid: uuid, writer: writer, device: device, start: start.date, end: end.date,
            offsetSeconds: start.offsetSeconds, timeZoneIdentifier: zoneName, value: value, unit: unit,
            created: try record.date("creationDate")?.date))
    }

    /// A writer's name at `key`, folded by `WriterNameRule` with its raw spelling kept in the batch (R2); a name with a
    /// NUL or another control character names no writer (R14).
    static func writerName(_ members: JSONMembers, _ key: String, into batch: inout SyncBatch) throws(JSONPathError) -> String {
        let raw = try members.requiredString(key)
        if let flaw = JSONPassOver.nameFlaw(raw, member: key) { throw members.error(key, flaw) }
        let name = WriterNameRule.canonical(raw)
        if name != raw, !(batch.writerSpellings[name]?.contains(raw) ?? false) {
            batch.writerSpellings[name, default: []].append(raw)
            batch.writerSpellings[name]?.sort()
        }
        return name
    }

    /// R8: `HKMetadataKeyHeartRateMotionContext`, a number or a numeric string; absent means not set.
    private static func motionContext(_ metadata: JSONMembers?) throws(JSONPathError) -> MotionContext {
        let key = "HKMetadataKeyHeartRateMotionContext"
        guard let metadata, let value = metadata.value(key) else { return .notSet }
        let raw: Int64?
        switch value {
        case .number(let number): raw = number.int64
        case .string(let text): raw = Int64(text.trimmingCharacters(in: .whitespaces))
        default: raw = nil
        }
        guard let raw, let context = MotionContext(rawValue: Int(raw)) else {
            throw metadata.error(key, "expected 0 (not set), 1 (sedentary) or 2 (active)")
        }
        return context
    }

    // MARK: Health Connect

    static let healthConnectTypes = #"expected "RestingHeartRate" or "HeartRate""#

    private static func decodeHealthConnect(_ record: JSONMembers, machineZone: TimeZone, into batch: inout SyncBatch) throws(JSONPathError) {
        let type = try record.requiredString("type")
        switch type {
        case "RestingHeartRate":
            let time = try record.requiredDate("time")
            let zoneOffset = try record.zoneOffset("zoneOffset")
            let bpm = try record.requiredInteger("beatsPerMinute")
            let metadata = try HealthConnectMetadata(try record.requiredMembers("metadata"), into: &batch)
            batch.resting.append(RestingSample.healthConnect(
                id: metadata.id, writer: metadata.writer, time: time.date, zoneOffset: zoneOffset, beatsPerMinute: bpm,
                device: metadata.device, recordingMethod: metadata.recordingMethod, lastModified: metadata.lastModified,
                clientRecordId: metadata.clientRecordId, clientRecordVersion: metadata.clientRecordVersion))
        case "HeartRate":
            let start = try record.requiredDate("startTime")
            let end = try record.requiredDate("endTime")
            if end.epochSeconds < start.epochSeconds { throw record.error("endTime", "before startTime") }
            let startOffset = try record.zoneOffset("startZoneOffset")
            _ = try record.zoneOffset("endZoneOffset")
            let metadata = try HealthConnectMetadata(try record.requiredMembers("metadata"), into: &batch)
            let recordKey = SampleIdentity.normalisedRecordId(metadata.id)
            // R5: each sample's day in the record's start offset, the machine's when there is none.
            var summarizer = HeartRateSummarizer()
            for sample in try record.requiredObjects("samples") {
                let time = try sample.requiredDate("time")
                let bpm = try sample.requiredInteger("beatsPerMinute")
                let day = LocalDayRule.healthConnect(time: time.date, zoneOffset: startOffset, machineZone: machineZone).day
                summarizer.add(writer: metadata.writer, day: day, bpm: Double(bpm), context: .notSet, recordKey: recordKey)
            }
            batch.heartRate.append(contentsOf: summarizer.result)
        default:
            throw record.error("type", "\"\(type)\" is not a Health Connect type (\(healthConnectTypes))")
        }
    }

    /// A Jetpack `Metadata` object.
    private struct HealthConnectMetadata {
        var id: String
        var writer: Writer
        var device: Device?
        var recordingMethod: RecordingMethod?
        var lastModified: Date?
        var clientRecordId: String?
        var clientRecordVersion: Int64?

        init(_ metadata: JSONMembers, into batch: inout SyncBatch) throws(JSONPathError) {
            id = try metadata.requiredString("id")
            if let flaw = TextGate.flaw(in: id) { throw metadata.error("id", "holds \(flaw.words)") }
            var appName = try metadata.string("appName")
            let packageName: String
            switch try metadata.required("dataOrigin") {
            case .string(let name):
                guard !name.isEmpty else { throw metadata.error("dataOrigin", "must not be empty") }
                packageName = try SyncBatchJSON.writerName(metadata, "dataOrigin", into: &batch)
            case .object(let object):
                let origin = JSONMembers(object, path: metadata.childPath("dataOrigin"))
                packageName = try SyncBatchJSON.writerName(origin, "packageName", into: &batch)
                appName = try origin.string("appName") ?? appName
            default:
                throw metadata.error("dataOrigin", #"expected a package name or an object with "packageName""#)
            }
            writer = Writer(store: .healthConnect, name: packageName, appName: appName)
            if let method = try metadata.integer("recordingMethod") {
                guard let known = RecordingMethod(rawValue: Int(exactly: method) ?? -1) else {
                    throw metadata.error("recordingMethod", "expected 0, 1, 2 or 3")
                }
                recordingMethod = known
            }
            lastModified = try metadata.date("lastModifiedTime")?.date
            clientRecordId = try metadata.string("clientRecordId")
            clientRecordVersion = try metadata.integer("clientRecordVersion")
            if let members = try metadata.members("device") {
                var type: Int?
                if let value = try members.integer("type") {
                    guard let known = Int(exactly: value), known >= 0 else {
                        throw members.error("type", "expected a device type (0 unknown … 8 smart display)")
                    }
                    type = known
                }
                let parsed = Device(manufacturer: try members.string("manufacturer"), model: try members.string("model"), type: type)
                device = parsed.isEmpty ? nil : parsed
            }
        }
    }

    // MARK: - Encoding

    /// The batch in the same format, for files and the socket: cursor, full resync, resting samples of
    /// either store, deletions and permissions.
    ///
    /// Heart-rate day summaries are left out: a summary cannot be turned back into the samples it counted.
    /// Nor are `snapshot`, `watchWriters` or `origin` written: the format has no place for them. A Health
    /// Connect sample is written with its (normalised) record id, so it needs one; a HealthKit sample without
    /// an offset is written at +00:00; an empty device is not written.
    public static func encode(_ batch: SyncBatch) -> JSONValue {
        var top = JSONObject()
        top["store"] = .string(batch.store.rawValue)
        top["stream"] = .string(batch.stream)
        top["asOf"] = .string(batch.asOf.iso8601)
        if let cursor = batch.cursor {
            top["cursor"] = ["previous": cursor.previous.map(JSONValue.string) ?? .null,
                             "next": cursor.next.map(JSONValue.string) ?? .null]
        }
        top["fullResync"] = .bool(batch.fullResync)
        top["upserted"] = .array(batch.resting.map(encode))
        top["deleted"] = .array(batch.deleted.map(JSONValue.string))
        if let permissions = batch.grantedPermissions {
            top["grantedPermissions"] = .array(permissions.map(JSONValue.string))
        }
        return .object(top)
    }

    private static func encode(_ sample: RestingSample) -> JSONValue {
        var record = JSONObject()
        let offset = sample.offsetSeconds ?? 0
        switch sample.store {
        case .healthKit:
            record["type"] = "restingHeartRate"
            if let uuid = sample.uuid { record["uuid"] = .string(uuid) }
            record["start"] = date(sample.start, offset: offset)
            record["end"] = date(sample.end, offset: offset)
            record["value"] = number(sample.value)
            record["unit"] = .string(sample.unit)
            var source = JSONObject()
            source["name"] = .string(sample.writer.name)
            source["bundleIdentifier"] = sample.writer.bundleIdentifier.map(JSONValue.string)
            source["productType"] = sample.writer.productType.map(JSONValue.string)
            record["source"] = .object(source)
            if let device = sample.device, !device.isEmpty {
                var fields = JSONObject()
                fields["name"] = device.name.map(JSONValue.string)
                fields["manufacturer"] = device.manufacturer.map(JSONValue.string)
                fields["model"] = device.model.map(JSONValue.string)
                fields["hardwareVersion"] = device.hardware.map(JSONValue.string)
                fields["softwareVersion"] = device.software.map(JSONValue.string)
                record["device"] = .object(fields)
            }
            if let created = sample.created { record["creationDate"] = date(created, offset: offset) }
            if let zone = sample.timeZoneIdentifier { record["metadata"] = ["HKTimeZone": .string(zone)] }
        case .healthConnect:
            record["type"] = "RestingHeartRate"
            record["time"] = date(sample.start, offset: offset)
            record["zoneOffset"] = sample.offsetSeconds.map(offsetValue) ?? .null
            record["beatsPerMinute"] = number(sample.value)
            var metadata = JSONObject()
            metadata["id"] = .string(sample.uuid ?? "")
            if let appName = sample.writer.appName {
                metadata["dataOrigin"] = ["packageName": .string(sample.writer.name), "appName": .string(appName)]
            } else {
                metadata["dataOrigin"] = .string(sample.writer.name)
            }
            if let modified = sample.lastModified { metadata["lastModifiedTime"] = date(modified, offset: 0) }
            if let method = sample.recordingMethod { metadata["recordingMethod"] = .number(JSONNumber(method.rawValue)) }
            metadata["clientRecordId"] = sample.clientRecordId.map(JSONValue.string)
            metadata["clientRecordVersion"] = sample.clientRecordVersion.map { .number(JSONNumber($0)) }
            if let device = sample.device, device.type != nil || device.manufacturer != nil || device.model != nil {
                var fields = JSONObject()
                fields["type"] = device.type.map { .number(JSONNumber($0)) }
                fields["manufacturer"] = device.manufacturer.map(JSONValue.string)
                fields["model"] = device.model.map(JSONValue.string)
                metadata["device"] = .object(fields)
            }
            record["metadata"] = .object(metadata)
        }
        return .object(record)
    }

    /// ISO-8601 in the given offset (`Timestamp.iso8601` writes an offset of odd seconds at UTC, keeping the instant).
    private static func date(_ date: Date, offset: Int) -> JSONValue {
        .string(Timestamp(date: date, offsetSeconds: offset).iso8601)
    }

    /// Whole values as integers (`58`, not `58.0`), others as doubles.
    private static func number(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 0x1p53 { return .number(JSONNumber(Int64(value))) }
        return .number(JSONNumber(value))
    }

    /// `"+01:00"`, or seconds when the offset is not whole minutes.
    private static func offsetValue(_ seconds: Int) -> JSONValue {
        seconds % 60 == 0 ? .string(Timestamp.offsetText(seconds)) : .number(JSONNumber(seconds))
    }
}

// MARK: - The members only batches have

extension JSONMembers {
    /// An ISO-8601 date with its offset; a date without one is refused (rhr never guesses a written date's zone).
    func date(_ key: String) throws(JSONPathError) -> Timestamp? {
        guard let value = value(key) else { return nil }
        guard let text = value.string, let timestamp = Timestamp.parse(text) else {
            if let text = value.string, Timestamp.parse(text + "Z") != nil {
                throw error(key, "not an ISO-8601 date: the offset (Z or ±HH:MM) is missing")
            }
            throw error(key, "not an ISO-8601 date")
        }
        return timestamp
    }

    func requiredDate(_ key: String) throws(JSONPathError) -> Timestamp {
        guard let timestamp = try date(key) else {
            throw error(key, object[key] == nil ? "missing" : "not an ISO-8601 date")
        }
        return timestamp
    }

    /// Health Connect zone offsets: `"+01:00"` or seconds; null or absent means unknown.
    func zoneOffset(_ key: String) throws(JSONPathError) -> Int? {
        guard let value = value(key) else { return nil }
        let seconds: Int?
        switch value {
        case .string(let text): seconds = Timestamp.parseOffset(text)
        case .number(let number): seconds = number.int64.flatMap { Int(exactly: $0) }
        default: seconds = nil
        }
        guard let seconds, (-18 * 3600...18 * 3600).contains(seconds) else {
            throw error(key, #"expected a UTC offset such as "+01:00", or seconds, or null"#)
        }
        return seconds
    }
}
