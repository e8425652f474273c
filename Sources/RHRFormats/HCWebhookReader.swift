import Foundation
import RHRCore
import RHRJSON

/// Reads the JSON that HC Webhook posts: an open-source Android app that reads Health Connect and sends its
/// records to a URL every 15 minutes or more, with an optional 48-hour look-back (docs/design.md section 2).
///
/// The field names are the app's own, from its payload code: `SyncManager.buildJsonPayload` and
/// `putRecordMetadata` in github.com/mcnaveen/health-connect-webhook,
/// `app/src/main/java/com/hcwebhook/app/SyncManager.kt` (and `RecordMetadata` in `HealthConnectManager.kt`):
///
/// ```
/// {"timestamp":"2026-11-28T07:10:00Z","app_version":"…",
///  "resting_heart_rate":[{"bpm":57,"time":"2026-11-27T05:58:00Z",
///     "metadata":{"data_origin":"com.ouraring.oura","recording_method":"automatically_recorded",
///                 "device":{"manufacturer":"Oura","model":"Ring 4","type":4}}}],
///  "heart_rate":[{"bpm":71,"time":"…","metadata":{…}},                          every sample, or
///                {"time":"…","avg":70,"min":61,"max":88,"metadata":{…}}],       N-minute buckets
///  "steps":[…], …}
/// ```
///
/// - Store `healthconnect`; the writer is `metadata.data_origin` (older versions of the app send no metadata:
///   then `HC Webhook`). `recording_method` comes as the app's words (`actively_recorded`,
///   `automatically_recorded`, `manual_entry`, `unknown`) or as Health Connect's number (0–3).
/// - Times are UTC instants (`Instant.toString()`): no zone offset is sent, so the machine's offset is assumed
///   and the value flagged (R5). No record id is sent either: a record is known by writer, type and time, so a
///   look-back that sends it again changes nothing.
/// - Heart rate feeds the per-day counts of R8 and R9 (context not set: Health Connect has none), one count per
///   sample or per bucket (a bucket says neither how many samples it holds nor whether they came from one writer:
///   the app names the first one's), each under its own key (writer, type, time), so overlapping requests count
///   every sample once.
/// - Other types are counted and skipped.
public enum HCWebhookReader {
    /// The stream of a payload imported from a file (`rhr import`); over HTTP the token names it.
    public static let stream = "hc-webhook"
    /// The writer of records without metadata (versions of the app before June 2026).
    public static let defaultWriter = "HC Webhook"

    /// What a payload holds; `receivedAt` is when the daemon received it (R13's horizon, and the time a file road
    /// takes it as of). `label` stands for the path in errors. What it becomes is its road's
    /// (`PhonePayload.imported(on:)`).
    public static func payload(bytes: [UInt8], label: String, receivedAt: Timestamp? = nil,
                               options: ImportOptions) throws(InputError) -> PhonePayload {
        let root = try JSONDocument.parse(bytes, label: label)
        do {
            return try payload(JSONMembers(root, path: ""), label: label, receivedAt: receivedAt, options: options)
        } catch {
            throw InputError(path: label, place: InputPlace(path: error.path), message: error.message)
        }
    }

    /// A payload read as a file into `stream`: `asOf` is when the data was read (R3), the time the daemon received it;
    /// nil takes the payload's `timestamp` (when the app built it), else its newest record.
    public static func read(bytes: [UInt8], label: String, stream: String = stream, asOf: Timestamp? = nil,
                            options: ImportOptions) throws(InputError) -> ImportedFile {
        try payload(bytes: bytes, label: label, receivedAt: asOf, options: options)
            .imported(on: .file(stream: stream, readAt: Date()))
    }

    /// The record keys the app sends, one per Health Connect type it reads (`putJsonArray` in its `buildJsonPayload`,
    /// `SyncManager.kt`, July 2026). It posts nothing when it read no record, so every payload holds one of them.
    public static let recordKeys = [
        "resting_heart_rate", "heart_rate", "heart_rate_variability", "steps", "sleep", "distance", "active_calories",
        "total_calories", "weight", "height", "blood_pressure", "blood_glucose", "oxygen_saturation", "body_temperature",
        "skin_temperature", "respiratory_rate", "exercise", "hydration", "nutrition", "basal_metabolic_rate", "body_fat",
        "lean_body_mass", "vo2_max", "bone_mass", "menstruation_flow", "menstruation_period", "intermenstrual_bleeding",
        "ovulation_test", "cervical_mucus", "sexual_activity", "basal_body_temperature",
    ]

    /// Whether a JSON object is an HC Webhook payload: it holds one of the app's record keys, or, for a type the app
    /// reads in a later version, its `app_version` beside a list of records. What is not (`{"hello":"world"}`, Health
    /// Auto Export's JSON, a sync batch) is refused, so that a phone pointed at the wrong URL is told so instead of
    /// seeming to deliver (docs/design.md section 4b).
    public static func isPayload(_ object: JSONObject) -> Bool {
        if recordKeys.contains(where: object.contains(key:)) { return true }
        return object["app_version"]?.string != nil && object.values.contains { $0.array != nil }
    }

    /// A payload is read whole: one request of the app, which the daemon takes up to 64 MiB.
    public static let maxFileSize = 64 << 20

    /// A file of one payload, as `rhr import` reads it.
    public static func read(path: String, options: ImportOptions) throws(InputError) -> ImportedFile {
        let bytes = try ReadOnlyFile.head(path: path, count: maxFileSize + 1)
        guard bytes.count <= maxFileSize else {
            throw InputError(path: path, message: "larger than \(maxFileSize >> 20) MiB, more than one HC Webhook request holds")
        }
        return try read(bytes: bytes, label: path, options: options)
    }

    private static func payload(_ payload: JSONMembers, label: String, receivedAt given: Timestamp?,
                                options: ImportOptions) throws(JSONPathError) -> PhonePayload {
        var resting: [RestingSample] = []
        var heartRate = HeartRateSummarizer()
        var newest: Date?
        var skipped = 0, implausible = 0
        var passedOver = PassedOverLog(source: label)
        guard isPayload(payload.object) else {
            throw JSONPathError(path: payload.path, "not an HC Webhook payload: it holds none of the app's record keys "
                + "(resting_heart_rate, heart_rate, steps, … each a list of records) nor its app_version")
        }
        let sentAt = try payload.decode("timestamp", "an ISO-8601 instant", { $0.string.flatMap(Timestamp.parse) })
        // R13's horizon: a record dated past it (year 9999) moves no "as of" and makes no day of heart rate; a resting
        // one is kept, and flagged when read. Without a time of receipt or the app's, the machine's clock now.
        let horizon = given ?? sentAt ?? Timestamp(date: Date(), offsetSeconds: 0)

        // R14: a record rhr cannot use is passed over, kept as its JSON; the rest of the payload is read.
        func each(_ key: String, _ body: (JSONMembers) throws(JSONPathError) -> Void) throws(JSONPathError) {
            for (i, value) in (try payload.array(key) ?? []).enumerated() {
                let path = "\(key)[\(i)]"
                do throws(JSONPathError) {
                    try body(try JSONMembers(value, path: path))
                } catch {
                    passedOver.add(JSONPassOver.record("\(key) records", at: path, value: value, error: error, place: InputPlace(path: path)))
                }
            }
        }
        var spellings: [String: Set<String>] = [:]
        try each("resting_heart_rate") { (record) throws(JSONPathError) in
            let time = try instant(record)
            let (writer, device, method) = try provenance(record, spellings: &spellings)
            let bpm = try record.requiredNumber("bpm", why: "a resting heart rate record carries its value in bpm")
            resting.append(RestingSample(store: .healthConnect, writer: writer, device: device, start: time, end: time,
                                         offsetSeconds: nil, value: bpm, recordingMethod: method))
            if PlausibleTimeRule.isPlausible(start: time, end: time, asOf: horizon) { newest = max(newest ?? time, time) }
        }
        try each("heart_rate") { (record) throws(JSONPathError) in
            let time = try instant(record)
            let (writer, _, _) = try provenance(record, spellings: &spellings)
            let sample = try record.number("bpm"), bucket = try record.number("avg")
            guard let bpm = sample ?? bucket else {
                throw JSONPathError(path: record.path, "a heart rate record carries bpm (or avg, min and max); this one has neither")
            }
            guard PlausibleTimeRule.isPlausible(start: time, end: time, asOf: horizon) else {
                implausible += 1
                return
            }
            let day = LocalDayRule.healthConnect(time: time, zoneOffset: nil, machineZone: options.machineZone).day
            let key = SampleIdentity.naturalKey(type: "HeartRate", writer: writer.name, start: time, end: time)
            heartRate.add(writer: writer, day: day, bpm: bpm, context: .notSet, recordKey: key)
            newest = max(newest ?? time, time)
        }
        for (key, value) in payload.object where !["resting_heart_rate", "heart_rate"].contains(key) {
            if case .array(let records) = value { skipped += records.count }
        }

        var read = PhonePayload(label: label, kind: .hcWebhookJSON, machineZone: options.machineZone)
        read.resting = resting
        read.heartRate = heartRate.result
        read.passedOver = passedOver
        read.writerSpellings = spellings.mapValues { $0.sorted() }
        read.recordsRead = (try payload.array("resting_heart_rate")?.count ?? 0) + (try payload.array("heart_rate")?.count ?? 0)
            + skipped
        if skipped > 0 { read.skipped["records of other types"] = skipped }
        if implausible > 0 { read.skipped["heart-rate records dated outside the plausible range (R13)"] = implausible }
        read.receivedAt = given
        read.sentAt = sentAt
        read.newestRecord = newest
        read.horizon = horizon
        return read
    }

    /// `time`: an instant as `Instant.toString()` writes it (`2026-11-27T05:58:00Z`, with fractions of a second).
    private static func instant(_ record: JSONMembers) throws(JSONPathError) -> Date {
        try record.requiredDecode("time", #"an ISO-8601 instant like "2026-11-27T05:58:00Z""#) {
            $0.string.flatMap(Timestamp.parse)?.date
        }
    }

    /// The writer, the device and how the value was recorded, from `metadata` (R2).
    /// A name with a NUL or a control character names no writer: the record is passed over (R14).
    private static func provenance(_ record: JSONMembers, spellings: inout [String: Set<String>])
        throws(JSONPathError) -> (Writer, Device?, RecordingMethod?) {
        guard let metadata = try record.members("metadata") else {
            return (Writer(store: .healthConnect, name: defaultWriter), nil, nil)
        }
        let origin = try metadata.string("data_origin")?.trimmingCharacters(in: .whitespaces) ?? ""
        if let flaw = JSONPassOver.nameFlaw(origin, member: "data_origin") { throw metadata.error("data_origin", flaw) }
        let name = WriterNameRule.canonical(origin)
        if name != origin { spellings[name, default: []].insert(origin) }
        let writer = Writer(store: .healthConnect, name: name.isEmpty ? defaultWriter : name)
        let method = try metadata.decode("recording_method", #""actively_recorded", "automatically_recorded", "manual_entry", "unknown" or 0–3"#) {
            value -> RecordingMethod? in
            if let number = value.int64 { return RecordingMethod(rawValue: Int(number)) }
            return recordingMethods[value.string ?? ""]
        }
        var device: Device?
        if let fields = try metadata.members("device") {
            let type = try fields.integer("type").map { Int($0) }
            device = Device(manufacturer: try fields.string("manufacturer"), model: try fields.string("model"), type: type)
            if device?.isEmpty == true { device = nil }
        }
        return (writer, device, method)
    }

    /// The app's words for Health Connect's recording methods (`Metadata.toRecordMetadata` in its
    /// `HealthConnectManager.kt`).
    static let recordingMethods: [String: RecordingMethod] = [
        "unknown": .unknown, "actively_recorded": .activelyRecorded, "automatically_recorded": .automaticallyRecorded,
        "manual_entry": .manualEntry,
    ]
}
