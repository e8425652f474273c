import RHRJSON
import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

// MARK: - Fixtures

enum Fixtures {
    static let utc = TimeZone(identifier: "UTC")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// docs/design.md section 4's example, one line.
    static let designExample = #"{"store":"healthkit","stream":"iphone","asOf":"2026-11-29T08:00:00+01:00","#
        + #""cursor":{"previous":"YW5jaG9yLTE=","next":"YW5jaG9yLTI="},"fullResync":false,"#
        + #""upserted":[{"type":"restingHeartRate","uuid":"6F1C","start":"2026-11-28T00:03:12+01:00","#
        + #""end":"2026-11-28T23:48:44+01:00","value":58,"unit":"count/min","#
        + #""source":{"name":"Jane’s Apple Watch","bundleIdentifier":"com.apple.health.7A1B","productType":"Watch7,1"},"#
        + #""device":{"name":"Apple Watch","manufacturer":"Apple Inc.","model":"Watch"},"#
        + #""metadata":{"HKTimeZone":"Europe/Berlin"}}],"deleted":["0C9D"]}"#

    /// A valid HealthKit batch: a resting sample at upserted[0], a heart-rate sample at upserted[1].
    static var healthKit: JSONValue {
        var batch = try! JSONParser.parse(designExample)
        batch = batch.setting("upserted.1", [
            "type": "heartRate", "uuid": "HR-1", "start": "2026-11-28T10:00:00+01:00", "end": "2026-11-28T10:00:00+01:00",
            "value": 62, "unit": "count/min", "source": ["name": "Jane’s Apple Watch"],
            "metadata": ["HKMetadataKeyHeartRateMotionContext": 1],
        ])
        return batch
    }

    /// A valid Health Connect batch: a resting record at upserted[0], a heart-rate record at upserted[1].
    static var healthConnect: JSONValue {
        [
            "store": "healthconnect", "stream": "pixel", "asOf": "2026-11-29T08:00:00Z",
            "upserted": [
                ["type": "RestingHeartRate", "time": "2026-11-28T06:12:00Z", "zoneOffset": "+01:00", "beatsPerMinute": 57,
                 "metadata": ["id": "0A1B2C3D-0000-4000-8000-00000000000A", "dataOrigin": "com.ouraring.oura",
                              "lastModifiedTime": "2026-11-28T07:00:00Z", "recordingMethod": 2,
                              "device": ["type": 4, "manufacturer": "Oura", "model": "Ring"]]],
                ["type": "HeartRate", "startTime": "2026-11-28T09:00:00Z", "endTime": "2026-11-28T09:10:00Z",
                 "startZoneOffset": "+01:00", "endZoneOffset": "+01:00",
                 "samples": [["time": "2026-11-28T09:00:00Z", "beatsPerMinute": 60],
                             ["time": "2026-11-28T09:05:00Z", "beatsPerMinute": 64]],
                 "metadata": ["id": "FEED-BEEF", "dataOrigin": "com.fitbit.FitbitMobile"]],
            ],
            "grantedPermissions": ["android.permission.health.READ_RESTING_HEART_RATE"],
        ]
    }

    static func date(_ text: String) -> Date { Timestamp.parse(text)!.date }
}

extension JSONValue {
    /// A copy with the member at a dotted path (`upserted.0.metadata.id`) replaced, added, or removed (nil).
    /// An index one past an array's end appends.
    func setting(_ path: String, _ newValue: JSONValue?) -> JSONValue {
        setting(path.split(separator: ".").map(String.init)[...], newValue)
    }

    private func setting(_ path: ArraySlice<String>, _ newValue: JSONValue?) -> JSONValue {
        guard let first = path.first else { return newValue ?? .null }
        let rest = path.dropFirst()
        switch self {
        case .object(var object):
            if rest.isEmpty {
                object[first] = newValue
            } else {
                object[first] = (object[first] ?? [:]).setting(rest, newValue)
            }
            return .object(object)
        case .array(var elements):
            let i = Int(first)!
            if rest.isEmpty {
                if let newValue { if i == elements.count { elements.append(newValue) } else { elements[i] = newValue } }
                else { elements.remove(at: i) }
            } else {
                elements[i] = elements[i].setting(rest, newValue)
            }
            return .array(elements)
        default:
            return self
        }
    }
}

/// A change to a valid batch that makes it invalid, and the exact message.
struct BadBatch: Sendable, CustomTestStringConvertible {
    var batch: JSONValue
    var message: String
    var testDescription: String { message }

    /// `remove` deletes the member; otherwise it is set to `value`.
    static func healthKit(_ path: String, _ value: JSONValue?, _ message: String) -> BadBatch {
        BadBatch(batch: Fixtures.healthKit.setting(path, value), message: message)
    }

    static func healthConnect(_ path: String, _ value: JSONValue?, _ message: String) -> BadBatch {
        BadBatch(batch: Fixtures.healthConnect.setting(path, value), message: message)
    }
}

// MARK: - Refused batches

@Suite("SyncBatchJSON: refused batches")
struct SyncBatchJSONRefusalTests {
    static let topLevel: [BadBatch] = [
        BadBatch(batch: [], message: "a batch must be a JSON object, not an array"),
        BadBatch(batch: "x", message: "a batch must be a JSON object, not a string"),
        .healthKit("store", nil, "store: missing"),
        .healthKit("store", "apple", #"store: expected "healthkit" or "healthconnect""#),
        .healthKit("store", "HealthKit", #"store: expected "healthkit" or "healthconnect""#),
        .healthKit("store", 1, #"store: expected "healthkit" or "healthconnect""#),
        .healthKit("store", .null, #"store: expected "healthkit" or "healthconnect""#),
        .healthKit("stream", nil, "stream: missing"),
        .healthKit("stream", "", "stream: must not be empty"),
        .healthKit("stream", 5, "stream: expected a string, found an integer"),
        .healthKit("stream", .null, "stream: expected a string, found null"),
        .healthKit("asOf", nil, "asOf: missing"),
        .healthKit("asOf", "yesterday", "asOf: not an ISO-8601 date"),
        .healthKit("asOf", 1_764_399_600, "asOf: not an ISO-8601 date"),
        .healthKit("asOf", .null, "asOf: not an ISO-8601 date"),
        .healthKit("asOf", "2026-11-29T08:00:00", "asOf: not an ISO-8601 date: the offset (Z or ±HH:MM) is missing"),
        .healthKit("asOf", "2026-11-31T08:00:00Z", "asOf: not an ISO-8601 date"),
        .healthKit("cursor", "abc", "cursor: expected an object, found a string"),
        .healthKit("cursor.previous", 1, "cursor.previous: expected a string or null, found an integer"),
        .healthKit("cursor.next", [], "cursor.next: expected a string or null, found an array"),
        .healthKit("fullResync", "yes", "fullResync: expected true or false, found a string"),
        .healthKit("fullResync", 1, "fullResync: expected true or false, found an integer"),
        .healthKit("upserted", [:] as JSONValue, "upserted: expected an array, found an object"),
        .healthKit("deleted", "0C9D", "deleted: expected an array, found a string"),
        .healthKit("deleted.1", 2, "deleted[1]: expected a string, found an integer"),
        .healthKit("deleted.1", "", "deleted[1]: must not be empty"),
        .healthKit("grantedPermissions", ["android.permission.health.READ_HEART_RATE"],
                   "grantedPermissions: only a Health Connect batch carries permissions"),
        .healthConnect("grantedPermissions", "all", "grantedPermissions: expected an array, found a string"),
        .healthConnect("grantedPermissions.0", true, "grantedPermissions[0]: expected a string, found a boolean"),
    ]

    static let healthKitUpserts: [BadBatch] = [
        .healthKit("upserted.0.type", nil, "upserted[0].type: missing"),
        .healthKit("upserted.0.type", 3, "upserted[0].type: expected a string, found an integer"),
        .healthKit("upserted.0.type", "RestingHeartRate",
                   #"upserted[0].type: "RestingHeartRate" is not a HealthKit type (expected "restingHeartRate" or "heartRate")"#),
        .healthKit("upserted.1.type", "stepCount",
                   #"upserted[1].type: "stepCount" is not a HealthKit type (expected "restingHeartRate" or "heartRate")"#),
        .healthKit("upserted.0.uuid", 5, "upserted[0].uuid: expected a string, found an integer"),
        .healthKit("upserted.0.uuid", "", "upserted[0].uuid: must not be empty"),
        .healthKit("upserted.0.start", nil, "upserted[0].start: missing"),
        .healthKit("upserted.0.start", "2026-11-28", "upserted[0].start: not an ISO-8601 date"),
        .healthKit("upserted.0.start", "28/11/2026 00:03", "upserted[0].start: not an ISO-8601 date"),
        .healthKit("upserted.0.start", "2026-11-28T00:03:12",
                   "upserted[0].start: not an ISO-8601 date: the offset (Z or ±HH:MM) is missing"),
        .healthKit("upserted.0.end", "2026-11-28T25:00:00+01:00", "upserted[0].end: not an ISO-8601 date"),
        .healthKit("upserted.0.end", "2026-11-27T23:00:00+01:00", "upserted[0].end: before start"),
        .healthKit("upserted.0.value", nil, "upserted[0].value: missing"),
        .healthKit("upserted.1", 1, "upserted[1]: expected an object, found an integer"),
        .healthKit("upserted.0.source.name", "Jane\u{0}s Watch", #"upserted[0].source.name: name "Jane<null>s Watch" holds a NUL (U+0000) at character 5"#),
        .healthKit("upserted.0.uuid", "6F1C\u{0}", "upserted[0].uuid: holds a NUL (U+0000) at character 5"),
        .healthKit("upserted.0.value", "58", "upserted[0].value: expected a number, found a string"),
        .healthKit("upserted.0.value", .null, "upserted[0].value: expected a number, found null"),
        .healthKit("upserted.0.unit", nil, "upserted[0].unit: missing"),
        .healthKit("upserted.0.unit", 1, "upserted[0].unit: expected a string, found an integer"),
        .healthKit("upserted.0.unit", "kg",
                   #"upserted[0].unit: unit "kg" is not a heart rate unit (expected count/min, count/s or count/h)"#),
        .healthKit("upserted.1.unit", "count",
                   #"upserted[1].unit: unit "count" is not a heart rate unit (expected count/min, count/s or count/h)"#),
        .healthKit("upserted.0.source", nil, "upserted[0].source: missing"),
        .healthKit("upserted.0.source", "Watch", "upserted[0].source: expected an object, found a string"),
        .healthKit("upserted.0.source.name", nil, "upserted[0].source.name: missing"),
        .healthKit("upserted.0.source.name", "", "upserted[0].source.name: must not be empty"),
        .healthKit("upserted.1.source.name", 7, "upserted[1].source.name: expected a string, found an integer"),
        .healthKit("upserted.0.source.bundleIdentifier", 1, "upserted[0].source.bundleIdentifier: expected a string, found an integer"),
        .healthKit("upserted.0.source.productType", [], "upserted[0].source.productType: expected a string, found an array"),
        .healthKit("upserted.0.device", "Apple Watch", "upserted[0].device: expected an object, found a string"),
        .healthKit("upserted.0.device.model", 1, "upserted[0].device.model: expected a string, found an integer"),
        .healthKit("upserted.0.device.hardwareVersion", false, "upserted[0].device.hardwareVersion: expected a string, found a boolean"),
        .healthKit("upserted.0.creationDate", "now", "upserted[0].creationDate: not an ISO-8601 date"),
        .healthKit("upserted.0.metadata", [], "upserted[0].metadata: expected an object, found an array"),
        .healthKit("upserted.0.metadata.HKTimeZone", 1, "upserted[0].metadata.HKTimeZone: expected a string, found an integer"),
        .healthKit("upserted.1.value", nil, "upserted[1].value: missing"),
        .healthKit("upserted.1.metadata.HKMetadataKeyHeartRateMotionContext", "x",
                   "upserted[1].metadata.HKMetadataKeyHeartRateMotionContext: expected 0 (not set), 1 (sedentary) or 2 (active)"),
        .healthKit("upserted.1.metadata.HKMetadataKeyHeartRateMotionContext", 3,
                   "upserted[1].metadata.HKMetadataKeyHeartRateMotionContext: expected 0 (not set), 1 (sedentary) or 2 (active)"),
        .healthKit("upserted.1.metadata.HKMetadataKeyHeartRateMotionContext", 1.5,
                   "upserted[1].metadata.HKMetadataKeyHeartRateMotionContext: expected 0 (not set), 1 (sedentary) or 2 (active)"),
        .healthKit("upserted.1.metadata.HKMetadataKeyHeartRateMotionContext", true,
                   "upserted[1].metadata.HKMetadataKeyHeartRateMotionContext: expected 0 (not set), 1 (sedentary) or 2 (active)"),
        .healthKit("upserted.1.end", "2026-11-28T09:59:59+01:00", "upserted[1].end: before start"),
    ]

    static let healthConnectUpserts: [BadBatch] = [
        .healthConnect("upserted.0.type", "restingHeartRate",
                       #"upserted[0].type: "restingHeartRate" is not a Health Connect type (expected "RestingHeartRate" or "HeartRate")"#),
        .healthConnect("upserted.0.type", nil, "upserted[0].type: missing"),
        .healthConnect("upserted.0.time", nil, "upserted[0].time: missing"),
        .healthConnect("upserted.0.time", 1_764_310_320_000, "upserted[0].time: not an ISO-8601 date"),
        .healthConnect("upserted.0.zoneOffset", "+25:00", #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.0.zoneOffset", "Europe/Berlin", #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.0.zoneOffset", 3600.5, #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.0.zoneOffset", 100_000, #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        // The most negative Int64 has no absolute value: refused, not a trap.
        .healthConnect("upserted.0.zoneOffset", .number(JSONNumber(Int64.min)),
                       #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.0.zoneOffset", true, #"upserted[0].zoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.0.beatsPerMinute", nil, "upserted[0].beatsPerMinute: missing"),
        .healthConnect("upserted.0.beatsPerMinute", 57.5, "upserted[0].beatsPerMinute: expected an integer, found a number"),
        .healthConnect("upserted.0.beatsPerMinute", "57", "upserted[0].beatsPerMinute: expected an integer, found a string"),
        .healthConnect("upserted.0.beatsPerMinute", .null, "upserted[0].beatsPerMinute: expected an integer, found null"),
        .healthConnect("upserted.0.metadata", nil, "upserted[0].metadata: missing"),
        .healthConnect("upserted.0.metadata", "x", "upserted[0].metadata: expected an object, found a string"),
        .healthConnect("upserted.0.metadata.id", nil, "upserted[0].metadata.id: missing"),
        .healthConnect("upserted.0.metadata.id", "a\u{0}b", "upserted[0].metadata.id: holds a NUL (U+0000) at character 2"),
        .healthConnect("upserted.0.metadata.dataOrigin", "com.oura\u{7}", #"upserted[0].metadata.dataOrigin: dataOrigin "com.oura<bell>" holds a control character (U+0007) at character 9"#),
        .healthConnect("upserted.0.metadata.id", "", "upserted[0].metadata.id: must not be empty"),
        .healthConnect("upserted.0.metadata.id", 7, "upserted[0].metadata.id: expected a string, found an integer"),
        .healthConnect("upserted.0.metadata.dataOrigin", nil, "upserted[0].metadata.dataOrigin: missing"),
        .healthConnect("upserted.0.metadata.dataOrigin", "", "upserted[0].metadata.dataOrigin: must not be empty"),
        .healthConnect("upserted.0.metadata.dataOrigin", 5,
                       #"upserted[0].metadata.dataOrigin: expected a package name or an object with "packageName""#),
        .healthConnect("upserted.0.metadata.dataOrigin", [:] as JSONValue, "upserted[0].metadata.dataOrigin.packageName: missing"),
        .healthConnect("upserted.0.metadata.dataOrigin", ["packageName": 1], "upserted[0].metadata.dataOrigin.packageName: expected a string, found an integer"),
        .healthConnect("upserted.0.metadata.appName", 1, "upserted[0].metadata.appName: expected a string, found an integer"),
        .healthConnect("upserted.0.metadata.recordingMethod", 4, "upserted[0].metadata.recordingMethod: expected 0, 1, 2 or 3"),
        .healthConnect("upserted.0.metadata.recordingMethod", -1, "upserted[0].metadata.recordingMethod: expected 0, 1, 2 or 3"),
        .healthConnect("upserted.0.metadata.recordingMethod", "2", "upserted[0].metadata.recordingMethod: expected an integer, found a string"),
        .healthConnect("upserted.0.metadata.lastModifiedTime", 1, "upserted[0].metadata.lastModifiedTime: not an ISO-8601 date"),
        .healthConnect("upserted.0.metadata.clientRecordId", 1, "upserted[0].metadata.clientRecordId: expected a string, found an integer"),
        .healthConnect("upserted.0.metadata.clientRecordVersion", "3", "upserted[0].metadata.clientRecordVersion: expected an integer, found a string"),
        .healthConnect("upserted.0.metadata.device", 4, "upserted[0].metadata.device: expected an object, found an integer"),
        .healthConnect("upserted.0.metadata.device.type", "ring", "upserted[0].metadata.device.type: expected an integer, found a string"),
        .healthConnect("upserted.0.metadata.device.type", -1,
                       "upserted[0].metadata.device.type: expected a device type (0 unknown … 8 smart display)"),
        .healthConnect("upserted.0.metadata.device.model", 1, "upserted[0].metadata.device.model: expected a string, found an integer"),
        .healthConnect("upserted.1.startTime", nil, "upserted[1].startTime: missing"),
        .healthConnect("upserted.1.endTime", "later", "upserted[1].endTime: not an ISO-8601 date"),
        .healthConnect("upserted.1.endTime", "2026-11-28T08:59:59Z", "upserted[1].endTime: before startTime"),
        .healthConnect("upserted.1.startZoneOffset", "+1", #"upserted[1].startZoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.1.endZoneOffset", [], #"upserted[1].endZoneOffset: expected a UTC offset such as "+01:00", or seconds, or null"#),
        .healthConnect("upserted.1.samples", nil, "upserted[1].samples: missing"),
        .healthConnect("upserted.1.samples", [:] as JSONValue, "upserted[1].samples: expected an array, found an object"),
        .healthConnect("upserted.1.samples.1", 5, "upserted[1].samples[1]: expected an object, found an integer"),
        .healthConnect("upserted.1.samples.0.time", nil, "upserted[1].samples[0].time: missing"),
        .healthConnect("upserted.1.samples.1.time", "2026-11-28 09:05", "upserted[1].samples[1].time: not an ISO-8601 date"),
        .healthConnect("upserted.1.samples.1.beatsPerMinute", 61.5, "upserted[1].samples[1].beatsPerMinute: expected an integer, found a number"),
        .healthConnect("upserted.1.metadata.id", nil, "upserted[1].metadata.id: missing"),
        // The brief's example: a second resting record with a fractional value.
        .healthConnect("upserted.1", ["type": "RestingHeartRate", "time": "2026-11-28T06:12:00Z", "beatsPerMinute": 57.5,
                                      "metadata": ["id": "b", "dataOrigin": "com.ouraring.oura"]],
                       "upserted[1].beatsPerMinute: expected an integer, found a number"),
    ]

    @Test("an upsert that does not decode is passed over with its path and reason; the batch applies without it (R14)",
          arguments: healthKitUpserts + healthConnectUpserts)
    func passedOver(_ bad: BadBatch) throws {
        for value in [bad.batch, try? JSONParser.parse(JSONWriter.bytes(bad.batch))] {
            let batch = try SyncBatchJSON.decode(value ?? .null, machineZone: Fixtures.utc)
            #expect(batch.passedOver.records.map(\.reason) == [bad.message])
            let place = String(bad.message.prefix { $0 != "." && $0 != ":" })
            #expect(batch.passedOver.records.first?.place == place, "\(bad.message)")
            #expect(batch.resting.count + batch.heartRate.count >= 1)
        }
    }

    @Test("top-level keys", arguments: topLevel)
    func refused(_ bad: BadBatch) {
        // As a value, and the same through the text form.
        for value in [bad.batch, try? JSONParser.parse(JSONWriter.bytes(bad.batch))] {
            do {
                let batch = try SyncBatchJSON.decode(value ?? .null, machineZone: Fixtures.utc)
                Issue.record("accepted: \(batch)")
            } catch {
                #expect(error.description == bad.message)
            }
        }
    }
}

// MARK: - Accepted batches

@Suite("SyncBatchJSON: decoding")
struct SyncBatchJSONTests {
    @Test("the fixtures are valid")
    func fixtures() throws {
        _ = try SyncBatchJSON.decode(Fixtures.healthKit, machineZone: Fixtures.utc)
        _ = try SyncBatchJSON.decode(Fixtures.healthConnect, machineZone: Fixtures.utc)
    }

    @Test("docs/design.md's HealthKit example")
    func designExample() throws {
        let batch = try SyncBatchJSON.decode(try JSONParser.parse(Fixtures.designExample), machineZone: Fixtures.utc,
                                             origin: "bridge")
        #expect(batch.store == .healthKit)
        #expect(batch.stream == "iphone")
        #expect(batch.asOf == Timestamp(epochSeconds: 1_795_935_600, offsetSeconds: 3600))
        #expect(batch.cursor == SyncBatch.Cursor(previous: "YW5jaG9yLTE=", next: "YW5jaG9yLTI="))
        #expect(batch.fullResync == false)
        #expect(batch.deleted == ["0C9D"])
        #expect(batch.grantedPermissions == nil)
        #expect(batch.heartRate.isEmpty)
        #expect(batch.snapshot == nil)
        #expect(batch.origin == "bridge")
        let expected = RestingSample(
            store: .healthKit, uuid: "6F1C",
            writer: Writer(store: .healthKit, name: "Jane’s Apple Watch", bundleIdentifier: "com.apple.health.7A1B",
                           productType: "Watch7,1"),
            device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
            start: Fixtures.date("2026-11-27T23:03:12Z"), end: Fixtures.date("2026-11-28T22:48:44Z"),
            offsetSeconds: 3600, timeZoneIdentifier: "Europe/Berlin", value: 58, unit: "count/min")
        #expect(batch.resting == [expected])
        // Writers compare by store and name; the details must be there too.
        #expect(batch.resting[0].writer.bundleIdentifier == "com.apple.health.7A1B")
        #expect(batch.resting[0].writer.productType == "Watch7,1")
        #expect(LocalDayRule.day(of: batch.resting[0], machineZone: Fixtures.newYork).day == LocalDay("2026-11-28"))
    }

    @Test("encoding the decoded example gives back its exact text")
    func designExampleText() throws {
        let batch = try SyncBatchJSON.decode(try JSONParser.parse(Fixtures.designExample), machineZone: Fixtures.utc)
        #expect(JSONWriter.string(SyncBatchJSON.encode(batch)) == Fixtures.designExample)
    }

    @Test("defaults: no cursor, no upserts, no deletions, no full resync")
    func defaults() throws {
        let batch = try SyncBatchJSON.decode(["store": "healthconnect", "stream": "s", "asOf": "2026-01-01T00:00:00Z"],
                                             machineZone: Fixtures.utc)
        #expect(batch == SyncBatch(store: .healthConnect, stream: "s", asOf: Timestamp(epochSeconds: 1_767_225_600, offsetSeconds: 0)))
        let nulls = try SyncBatchJSON.decode(["store": "healthkit", "stream": "s", "asOf": "2026-01-01T00:00:00Z",
                                              "cursor": nil, "fullResync": nil, "upserted": nil, "deleted": nil],
                                             machineZone: Fixtures.utc)
        #expect(nulls.cursor == nil && nulls.resting.isEmpty && nulls.deleted.isEmpty && !nulls.fullResync)
        let cursor = try SyncBatchJSON.decode(Fixtures.healthKit.setting("cursor", ["previous": nil, "next": "n1"]),
                                              machineZone: Fixtures.utc)
        #expect(cursor.cursor == SyncBatch.Cursor(previous: nil, next: "n1"))
        let resync = try SyncBatchJSON.decode(Fixtures.healthKit.setting("fullResync", true), machineZone: Fixtures.utc)
        #expect(resync.fullResync)
    }

    @Test("unknown keys are ignored, at the top and inside records")
    func unknownKeys() throws {
        let plain = try SyncBatchJSON.decode(Fixtures.healthKit, machineZone: Fixtures.utc)
        let extended = Fixtures.healthKit
            .setting("bridgeVersion", "2.1")
            .setting("future", ["nested": [1, 2, 3]])
            .setting("upserted.0.sourceRevision", ["version": "11.1"])
            .setting("upserted.0.metadata.HKWasUserEntered", 0)
        #expect(try SyncBatchJSON.decode(extended, machineZone: Fixtures.utc) == plain)
    }

    @Test("HealthKit units count/min, count/s and count/h are kept as delivered and converted to bpm")
    func healthKitUnits() throws {
        let cases: [(value: JSONValue, unit: String, bpm: Double)] = [(58, "count/min", 58), (1, "count/s", 60),
                                                                       (3480, "count/h", 58), (0.95, "count/s", 57)]
        for (value, unit, bpm) in cases {
            let json = Fixtures.healthKit.setting("upserted.0.value", value).setting("upserted.0.unit", .string(unit))
            let sample = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).resting.first)
            #expect(sample.unit == unit)
            #expect(sample.value == value.double)
            #expect(abs((sample.bpm ?? .nan) - bpm) < 1e-9, "\(unit)")
        }
    }

    @Test("HealthKit resting: creation date, no uuid, no device, no time zone")
    func healthKitOptional() throws {
        let json = Fixtures.healthKit
            .setting("upserted.0.uuid", nil).setting("upserted.0.metadata", nil)
            .setting("upserted.0.creationDate", "2026-11-29T00:10:00+01:00")
            .setting("upserted.0.start", "2026-11-28T00:03:12-07:00").setting("upserted.0.end", "2026-11-28T23:48:44-07:00")
            .setting("upserted.0.device", [:] as JSONValue)
        let sample = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).resting.first)
        #expect(sample.uuid == nil)
        #expect(sample.device == nil)
        #expect(sample.timeZoneIdentifier == nil)
        #expect(sample.offsetSeconds == -25200)
        #expect(sample.created == Fixtures.date("2026-11-28T23:10:00Z"))
        #expect(sample.identity == SampleIdentity(key: SampleIdentity.naturalKey(
            type: "restingHeartRate", writer: "Jane’s Apple Watch", start: Fixtures.date("2026-11-28T07:03:12Z"),
            end: Fixtures.date("2026-11-29T06:48:44Z"))))
    }

    @Test("HealthKit heart rate: one summary per sample, by motion context, on its local day")
    func healthKitHeartRate() throws {
        func sample(_ uuid: String?, _ start: String, _ value: JSONValue, unit: String = "count/min",
                    context: JSONValue?, zone: String? = nil) -> JSONValue {
            var metadata = JSONObject()
            metadata["HKMetadataKeyHeartRateMotionContext"] = context
            metadata["HKTimeZone"] = zone.map(JSONValue.string)
            var object: JSONObject = ["type": "heartRate", "start": .string(start), "end": .string(start), "value": value,
                                      "unit": .string(unit), "source": ["name": "Watch", "productType": "Watch6,2"],
                                      "metadata": .object(metadata)]
            object["uuid"] = uuid.map(JSONValue.string)
            return .object(object)
        }
        let json = Fixtures.healthKit.setting("upserted", [
            sample("A", "2026-11-28T10:00:00+01:00", 62, context: 1),
            sample("B", "2026-11-28T11:00:00+01:00", 1.5, unit: "count/s", context: "2"),
            sample("C", "2026-11-28T12:00:00+01:00", 70, context: nil),
            sample("D", "2026-11-28T13:00:00+01:00", 71, context: 0),
            sample("E", "2026-11-28T14:00:00+01:00", 72, context: " 1 "),
            // Written in UTC at 23:30 on the 28th, but the watch was in Berlin: 00:30 on the 29th (R5).
            sample(nil, "2026-11-28T23:30:00Z", 55, context: 1, zone: "Europe/Berlin"),
        ])
        let batch = try SyncBatchJSON.decode(json, machineZone: Fixtures.utc)
        #expect(batch.resting.isEmpty)
        let summaries = batch.heartRate
        try #require(summaries.count == 6)
        let writer = Writer(store: .healthKit, name: "Watch")
        #expect(summaries.allSatisfy { $0.writer == writer && $0.writer.productType == "Watch6,2" })
        #expect(summaries.map(\.recordKey).prefix(5) == ["A", "B", "C", "D", "E"])
        let natural = SampleIdentity.naturalKey(type: "heartRate", writer: "Watch", start: Fixtures.date("2026-11-28T23:30:00Z"),
                                                end: Fixtures.date("2026-11-28T23:30:00Z"))
        #expect(summaries[5].recordKey == natural)
        #expect(summaries.map(\.day) == [LocalDay("2026-11-28")!, LocalDay("2026-11-28")!, LocalDay("2026-11-28")!,
                                         LocalDay("2026-11-28")!, LocalDay("2026-11-28")!, LocalDay("2026-11-29")!])
        #expect(summaries.map { [$0.notSet, $0.sedentary, $0.active] } == [[0, 1, 0], [0, 0, 1], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0]])
        #expect(summaries[0].sedentaryMin == 62)
        #expect(summaries[0].sedentaryHistogram == [62: 1])
        #expect(summaries[5].sedentaryMin == 55)
        // count/s converted: 1.5 beats a second is 90 bpm, and active samples keep no minimum.
        #expect(summaries[1].sedentaryMin == nil)
    }

    @Test("HealthKit heart rate in count/s lands in the histogram as bpm")
    func healthKitHeartRateUnits() throws {
        let json = Fixtures.healthKit.setting("upserted.1.value", 1).setting("upserted.1.unit", "count/s")
        let summary = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).heartRate.first)
        #expect(summary.sedentaryMin == 60)
        #expect(summary.sedentaryHistogram == [60: 1])
    }

    @Test("a sedentary heart-rate value out of range is counted, not a minimum, and never traps")
    func healthKitHeartRateOutOfRange() throws {
        // A push like this one used to stop the daemon: 1e300 has no whole-bpm histogram key.
        for value: JSONValue in [1e300, 0, 301] {
            let json = Fixtures.healthKit.setting("upserted.1.value", value)
            let summary = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).heartRate.first)
            #expect(summary.sedentary == 1)
            #expect(summary.sedentaryMin == nil)
            #expect(summary.sedentaryHistogram.isEmpty)
        }
    }

    @Test("Health Connect resting: offsets as text, seconds, null or absent")
    func healthConnectOffsets() throws {
        let cases: [(JSONValue?, Int?)] = [("+01:00", 3600), ("-07:00", -25200), ("+0545", 20700), ("Z", 0),
                                           (-25200, -25200), (0, 0), (.null, nil), (nil, nil)]
        for (written, expected) in cases {
            let json = Fixtures.healthConnect.setting("upserted.0.zoneOffset", written)
            let sample = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).resting.first)
            #expect(sample.offsetSeconds == expected, "\(String(describing: written))")
        }
        // R5: a null offset is the machine's, and flagged.
        let json = Fixtures.healthConnect.setting("upserted.0.zoneOffset", .null).setting("upserted.0.time", "2026-11-28T03:00:00Z")
        let sample = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.newYork).resting.first)
        let rule = LocalDayRule.day(of: sample, machineZone: Fixtures.newYork)
        #expect(rule.day == LocalDay("2026-11-27"))
        #expect(rule.offsetAssumed)
    }

    @Test("Health Connect resting: every field")
    func healthConnectResting() throws {
        let batch = try SyncBatchJSON.decode(Fixtures.healthConnect.setting("upserted.0.metadata.clientRecordId", "oura-1")
            .setting("upserted.0.metadata.clientRecordVersion", 3), machineZone: Fixtures.utc)
        #expect(batch.store == .healthConnect)
        #expect(batch.grantedPermissions == ["android.permission.health.READ_RESTING_HEART_RATE"])
        let expected = RestingSample.healthConnect(
            id: "0a1b2c3d00004000800000000000000a", writer: Writer(store: .healthConnect, name: "com.ouraring.oura"),
            time: Fixtures.date("2026-11-28T06:12:00Z"), zoneOffset: 3600, beatsPerMinute: 57,
            device: Device(manufacturer: "Oura", model: "Ring", type: 4), recordingMethod: .automaticallyRecorded,
            lastModified: Fixtures.date("2026-11-28T07:00:00Z"), clientRecordId: "oura-1", clientRecordVersion: 3)
        #expect(batch.resting == [expected])
        #expect(batch.resting[0].uuid == "0a1b2c3d00004000800000000000000a")
        #expect(batch.resting[0].writer.appName == nil)
    }

    @Test("Health Connect: 0 and 301 bpm are kept (R6 flags them later), never refused")
    func healthConnectOutOfRange() throws {
        for bpm: Int64 in [0, 301, -5, 100_000] {
            let json = Fixtures.healthConnect.setting("upserted.0.beatsPerMinute", .number(JSONNumber(bpm)))
            let sample = try #require(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).resting.first)
            #expect(sample.value == Double(bpm))
            #expect(!sample.isInRange)
        }
    }

    @Test("Health Connect dataOrigin: a package name, or an object with the app's name")
    func dataOrigin() throws {
        let object = Fixtures.healthConnect.setting("upserted.0.metadata.dataOrigin",
                                                    ["packageName": "com.ouraring.oura", "appName": "Oura"])
        let a = try #require(try SyncBatchJSON.decode(object, machineZone: Fixtures.utc).resting.first)
        #expect(a.writer.name == "com.ouraring.oura" && a.writer.appName == "Oura")
        let separate = Fixtures.healthConnect.setting("upserted.0.metadata.appName", "Oura app")
        let b = try #require(try SyncBatchJSON.decode(separate, machineZone: Fixtures.utc).resting.first)
        #expect(b.writer.name == "com.ouraring.oura" && b.writer.appName == "Oura app")
        // The object's app name wins over the separate one.
        let both = object.setting("upserted.0.metadata.appName", "Other")
        #expect(try SyncBatchJSON.decode(both, machineZone: Fixtures.utc).resting.first?.writer.appName == "Oura")
    }

    @Test("Health Connect heart rate: a series crossing local midnight gives one summary per local day")
    func heartRateAcrossMidnight() throws {
        let record: JSONValue = [
            "type": "HeartRate", "startTime": "2026-11-28T22:50:00Z", "endTime": "2026-11-28T23:20:00Z",
            "startZoneOffset": "+01:00", "endZoneOffset": "+01:00",
            "samples": [["time": "2026-11-28T22:55:00Z", "beatsPerMinute": 61],   // 23:55 local, the 28th
                        ["time": "2026-11-28T23:05:00Z", "beatsPerMinute": 58],   // 00:05 local, the 29th
                        ["time": "2026-11-28T23:10:00Z", "beatsPerMinute": 57]],
            "metadata": ["id": "AB-CD", "dataOrigin": ["packageName": "com.fitbit.FitbitMobile", "appName": "Fitbit"]],
        ]
        let batch = try SyncBatchJSON.decode(Fixtures.healthConnect.setting("upserted", [record]), machineZone: Fixtures.utc)
        let writer = Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile")
        #expect(batch.heartRate == [
            HeartRateDaySummary(writer: writer, day: LocalDay("2026-11-28")!, recordKey: "abcd", notSet: 1),
            HeartRateDaySummary(writer: writer, day: LocalDay("2026-11-29")!, recordKey: "abcd", notSet: 2),
        ])
        #expect(batch.heartRate[0].writer.appName == "Fitbit")
        #expect(batch.heartRate.allSatisfy { $0.sedentary == 0 && $0.active == 0 && $0.sedentaryMin == nil })

        // With no offset, the machine's zone decides: New York is at -05:00 in November.
        let unknown = record.setting("startZoneOffset", nil).setting("endZoneOffset", .null)
            .setting("samples", [["time": "2026-11-29T04:30:00Z", "beatsPerMinute": 61],
                                 ["time": "2026-11-29T05:30:00Z", "beatsPerMinute": 58]])
            .setting("startTime", "2026-11-29T04:00:00Z").setting("endTime", "2026-11-29T06:00:00Z")
        let assumed = try SyncBatchJSON.decode(Fixtures.healthConnect.setting("upserted", [unknown]), machineZone: Fixtures.newYork)
        #expect(assumed.heartRate.map(\.day) == [LocalDay("2026-11-28")!, LocalDay("2026-11-29")!])
        #expect(assumed.heartRate.map(\.notSet) == [1, 1])

        let empty = record.setting("samples", [])
        #expect(try SyncBatchJSON.decode(Fixtures.healthConnect.setting("upserted", [empty]), machineZone: Fixtures.utc).heartRate.isEmpty)
    }

    @Test("a mixed Health Connect batch keeps resting records and heart-rate summaries apart")
    func mixed() throws {
        let batch = try SyncBatchJSON.decode(Fixtures.healthConnect, machineZone: Fixtures.utc)
        #expect(batch.resting.count == 1)
        #expect(batch.heartRate.count == 1)
        #expect(batch.heartRate[0].recordKey == "feedbeef")
        #expect(batch.heartRate[0].notSet == 2)
        #expect(batch.heartRate[0].day == LocalDay("2026-11-28"))
    }
}

// MARK: - Encoding

@Suite("SyncBatchJSON: encoding")
struct SyncBatchJSONEncodingTests {
    static let asOf = Timestamp(epochSeconds: 1_764_399_600, offsetSeconds: 3600)

    static var healthKitBatch: SyncBatch {
        let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch 🕛", bundleIdentifier: "com.apple.health.X",
                           productType: "Watch7,1")
        let phone = Writer(store: .healthKit, name: "Oura")
        return SyncBatch(
            store: .healthKit, stream: "iphone", asOf: asOf, cursor: .init(previous: nil, next: "YW5jaG9yLTI="),
            fullResync: true,
            resting: [
                RestingSample(store: .healthKit, uuid: "6F1C", writer: watch,
                              device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch",
                                             hardware: "Watch7,1", software: "11.1"),
                              start: Date(timeIntervalSince1970: 1_764_284_592), end: Date(timeIntervalSince1970: 1_764_370_124),
                              offsetSeconds: 3600, timeZoneIdentifier: "Europe/Berlin", value: 58, unit: "count/min",
                              created: Date(timeIntervalSince1970: 1_764_371_000)),
                RestingSample(store: .healthKit, writer: phone, start: Date(timeIntervalSince1970: 1_764_284_592.5),
                              end: Date(timeIntervalSince1970: 1_764_370_124.5), offsetSeconds: -25200, value: 0.95,
                              unit: "count/s"),
                RestingSample(store: .healthKit, writer: phone, start: Date(timeIntervalSince1970: 1_764_000_000),
                              end: Date(timeIntervalSince1970: 1_764_000_000), offsetSeconds: 20700, value: 57.25),
            ],
            deleted: ["0C9D", "AAAA"])
    }

    static var healthConnectBatch: SyncBatch {
        SyncBatch(
            store: .healthConnect, stream: "pixel", asOf: Timestamp(epochSeconds: 1_764_399_600, offsetSeconds: 0),
            cursor: .init(previous: "t1", next: "t2"),
            resting: [
                .healthConnect(id: "0A1B-2C3D", writer: Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura"),
                               time: Date(timeIntervalSince1970: 1_764_310_320), zoneOffset: 3600, beatsPerMinute: 57,
                               device: Device(manufacturer: "Oura", model: "Ring", type: 4),
                               recordingMethod: .automaticallyRecorded, lastModified: Date(timeIntervalSince1970: 1_764_313_200),
                               clientRecordId: "c1", clientRecordVersion: 7),
                .healthConnect(id: "b2", writer: Writer(store: .healthConnect, name: "com.withings.wiscale2"),
                               time: Date(timeIntervalSince1970: 1_764_310_321), zoneOffset: nil, beatsPerMinute: 0),
                .healthConnect(id: "c3", writer: Writer(store: .healthConnect, name: "com.withings.wiscale2"),
                               time: Date(timeIntervalSince1970: 1_764_310_322), zoneOffset: 0, beatsPerMinute: 301,
                               recordingMethod: .unknown),
                .healthConnect(id: "d4", writer: Writer(store: .healthConnect, name: "com.withings.wiscale2"),
                               time: Date(timeIntervalSince1970: 1_764_310_323), zoneOffset: 3601, beatsPerMinute: 60,
                               device: Device(type: 0)),
            ],
            deleted: ["e5f6"], grantedPermissions: ["android.permission.health.READ_RESTING_HEART_RATE",
                                                    "android.permission.health.READ_HEALTH_DATA_HISTORY"])
    }

    @Test("HealthKit and Health Connect resting batches survive encode then decode unchanged",
          arguments: [healthKitBatch, healthConnectBatch], [false, true])
    func survivesRoundTrip(_ batch: SyncBatch, throughText: Bool) throws {
        let again = try roundTrip(batch, throughText: throughText)
        #expect(again == batch)
        // Writers compare by store and name only: their details are checked one by one.
        #expect(again.resting.map(\.writer.bundleIdentifier) == batch.resting.map(\.writer.bundleIdentifier))
        #expect(again.resting.map(\.writer.productType) == batch.resting.map(\.writer.productType))
        #expect(again.resting.map(\.writer.appName) == batch.resting.map(\.writer.appName))
    }

    @Test("the encoded Health Connect record reads like the Jetpack record")
    func healthConnectShape() throws {
        let json = SyncBatchJSON.encode(Self.healthConnectBatch)
        #expect(JSONWriter.string(try #require(json["upserted"]?[0])) ==
            #"{"type":"RestingHeartRate","time":"2025-11-28T07:12:00+01:00","zoneOffset":"+01:00","beatsPerMinute":57,"#
            + #""metadata":{"id":"0a1b2c3d","dataOrigin":{"packageName":"com.ouraring.oura","appName":"Oura"},"#
            + #""lastModifiedTime":"2025-11-28T07:00:00+00:00","recordingMethod":2,"clientRecordId":"c1","#
            + #""clientRecordVersion":7,"device":{"type":4,"manufacturer":"Oura","model":"Ring"}}}"#)
        #expect(json["upserted"]?[1]?["zoneOffset"] == .null)
        #expect(json["upserted"]?[3]?["zoneOffset"] == 3601)
        #expect(json["grantedPermissions"]?.array?.count == 2)
    }

    @Test("heart-rate summaries are left out of the encoding")
    func heartRateLeftOut() throws {
        var batch = Self.healthKitBatch
        batch.heartRate = [HeartRateDaySummary(writer: Writer(store: .healthKit, name: "Watch"), day: LocalDay("2026-11-28")!,
                                               recordKey: "HR", notSet: 3)]
        let json = SyncBatchJSON.encode(batch)
        #expect(json["upserted"]?.array?.count == 3)
        #expect(json["upserted"]?.array?.allSatisfy { $0["type"] == "restingHeartRate" } == true)
        #expect(try SyncBatchJSON.decode(json, machineZone: Fixtures.utc).heartRate.isEmpty)
    }

    @Test("a batch without a cursor or permissions writes neither")
    func minimal() {
        let batch = SyncBatch(store: .healthKit, stream: "s", asOf: Self.asOf)
        #expect(JSONWriter.string(SyncBatchJSON.encode(batch)) ==
            #"{"store":"healthkit","stream":"s","asOf":"2025-11-29T08:00:00+01:00","fullResync":false,"upserted":[],"deleted":[]}"#)
    }

    private func roundTrip(_ batch: SyncBatch, throughText: Bool) throws -> SyncBatch {
        let json = SyncBatchJSON.encode(batch)
        if throughText {
            return try SyncBatchJSON.decode(try JSONParser.parse(JSONWriter.bytes(json)), machineZone: Fixtures.utc)
        }
        return try SyncBatchJSON.decode(json, machineZone: Fixtures.utc)
    }
}
