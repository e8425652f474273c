import Foundation

/// One resting heart rate value as a platform delivered it.
/// HealthKit shape: a window (`start`…`end`), a double in the writer's unit, an optional UUID, a creation date.
/// Health Connect shape: an instant (`start == end`), an integer in bpm, a record id, a last-modified time.
public struct RestingSample: Sendable, Hashable {
    public var store: HealthStore
    /// HealthKit sample UUID, when a live feed gives it; Health Connect record id, normalised.
    public var uuid: String?
    public var writer: Writer
    public var device: Device?
    public var start: Date
    public var end: Date
    /// HealthKit: the offset written with the dates. Health Connect: `zoneOffset`, nil when unknown.
    public var offsetSeconds: Int?
    /// HealthKit `HKTimeZone` metadata.
    public var timeZoneIdentifier: String?
    /// The value as delivered, in `unit`.
    public var value: Double
    public var unit: String
    public var recordingMethod: RecordingMethod?
    /// HealthKit `creationDate`.
    public var created: Date?
    /// Health Connect `lastModifiedTime`.
    public var lastModified: Date?
    public var clientRecordId: String?
    public var clientRecordVersion: Int64?
    /// R14: one of several values its writer delivered for the same window (`DuplicateRule`); its identity carries
    /// its value, so that each is kept.
    public var isDuplicate = false

    public init(store: HealthStore, uuid: String? = nil, writer: Writer, device: Device? = nil,
                start: Date, end: Date, offsetSeconds: Int?, timeZoneIdentifier: String? = nil,
                value: Double, unit: String = "count/min", recordingMethod: RecordingMethod? = nil,
                created: Date? = nil, lastModified: Date? = nil,
                clientRecordId: String? = nil, clientRecordVersion: Int64? = nil) {
        self.store = store
        self.uuid = uuid.map { store == .healthConnect ? SampleIdentity.normalisedRecordId($0) : $0 }
        self.writer = writer
        self.device = device
        self.start = start
        self.end = end
        self.offsetSeconds = offsetSeconds
        self.timeZoneIdentifier = timeZoneIdentifier
        self.value = value
        self.unit = unit
        self.recordingMethod = recordingMethod
        self.created = created
        self.lastModified = lastModified
        self.clientRecordId = clientRecordId
        self.clientRecordVersion = clientRecordVersion
    }

    /// A Health Connect `RestingHeartRateRecord`.
    public static func healthConnect(id: String, writer: Writer, time: Date, zoneOffset: Int?, beatsPerMinute: Int64,
                                     device: Device? = nil, recordingMethod: RecordingMethod? = nil,
                                     lastModified: Date? = nil, clientRecordId: String? = nil,
                                     clientRecordVersion: Int64? = nil) -> RestingSample {
        RestingSample(store: .healthConnect, uuid: id, writer: writer, device: device, start: time, end: time,
                      offsetSeconds: zoneOffset, value: Double(beatsPerMinute), unit: "count/min",
                      recordingMethod: recordingMethod, created: nil, lastModified: lastModified,
                      clientRecordId: clientRecordId, clientRecordVersion: clientRecordVersion)
    }

    /// The value in beats per minute (R6); nil when the unit is not a heart rate unit.
    public var bpm: Double? { try? RestingValue.bpm(value: value, unit: unit) }

    /// Whether the value enters aggregates (R6).
    public var isInRange: Bool { bpm.map(RestingValue.isInRange) ?? false }

    /// The identity that holds across roads (section 4).
    public var identity: SampleIdentity { SampleIdentity(self) }

    /// The time that breaks ties in `latest` (R7): HealthKit creation, Health Connect last modification.
    public var revisionTime: Date? { store == .healthKit ? created : lastModified }
}

/// The identity of a sample across roads: a Health Connect record is its id; a HealthKit sample is its
/// natural key (type, writer name, start, end to the second), which an export and a live feed share.
public struct SampleIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let key: String

    public init(key: String) { self.key = key }

    public init(_ sample: RestingSample) {
        var key: String
        switch sample.store {
        case .healthConnect:
            key = sample.uuid ?? SampleIdentity.naturalKey(type: "RestingHeartRate", writer: sample.writer.name,
                                                            start: sample.start, end: sample.end)
        case .healthKit:
            key = SampleIdentity.naturalKey(type: "restingHeartRate", writer: sample.writer.name,
                                            start: sample.start, end: sample.end)
        }
        if sample.isDuplicate { key += SampleIdentity.duplicateMark + DuplicateRule.valueKey(sample) }
        self.key = key
    }

    /// What tells one writer's samples apart as `key` does, without making its string (a writer's whole history is
    /// keyed so when its lateness is worked out, `WriterLateness`): two samples of one writer have equal keys exactly
    /// when they have equal parts.
    public struct WithinWriter: Sendable, Hashable {
        let recordId: String?
        let start: Int64, end: Int64
        let duplicateValue: String?
    }

    public static func withinWriter(_ sample: RestingSample) -> WithinWriter {
        // As `init(_:)`: a Health Connect record is its id; else the natural key's seconds (type and writer are
        // the writer's own).
        let id = sample.store == .healthConnect ? sample.uuid : nil
        return WithinWriter(recordId: id, start: id == nil ? Int64(sample.start.timeIntervalSince1970.rounded(.down)) : 0,
                            end: id == nil ? Int64(sample.end.timeIntervalSince1970.rounded(.down)) : 0,
                            duplicateValue: sample.isDuplicate ? DuplicateRule.valueKey(sample) : nil)
    }

    /// What follows a natural key in a duplicate's identity, before its value: `…|1710370260|dup=61.0`. A natural key
    /// ends in its end's seconds, so a key whose last part starts so is a duplicate's.
    static let duplicateMark = "|dup="

    /// Whether an identity (as the store keeps it) is a duplicate's.
    public static func isDuplicate(_ key: String) -> Bool {
        guard let bar = key.lastIndex(of: "|") else { return false }
        return key[bar...].hasPrefix(duplicateMark)
    }

    public static func naturalKey(type: String, writer: String, start: Date, end: Date) -> String {
        let s = Int64(start.timeIntervalSince1970.rounded(.down))
        let e = Int64(end.timeIntervalSince1970.rounded(.down))
        return "\(type)|\(writer)|\(s)|\(e)"
    }

    /// Health Connect ids compared lower-case without dashes, which is also `lower(hex(uuid))`.
    public static func normalisedRecordId(_ id: String) -> String {
        String(id.lowercased().unicodeScalars.filter { $0 != "-" })
    }

    public var description: String { key }
    public static func < (lhs: SampleIdentity, rhs: SampleIdentity) -> Bool { lhs.key < rhs.key }
}
