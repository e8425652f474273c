import Foundation
import RHRCore
@testable import RHRStore
import RHRTestSupport

// Writers, samples and batches for the store; `ts`, `date`, `day`, `utc` and `TemporaryDirectory` come from
// RHRTestSupport.

let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
let scale = Writer(store: .healthKit, name: "Withings")
let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")

func hk(_ start: String, _ end: String, _ value: Double, writer: Writer = watch, uuid: String? = nil,
        unit: String = "count/min") -> RestingSample {
    let s = ts(start)
    return RestingSample(store: .healthKit, uuid: uuid, writer: writer, start: s.date, end: date(end),
                         offsetSeconds: s.offsetSeconds, value: value, unit: unit)
}

func hc(_ id: String, _ time: String, offset: Int?, _ bpm: Int64, writer: Writer = oura) -> RestingSample {
    RestingSample.healthConnect(id: id, writer: writer, time: date(time), zoneOffset: offset, beatsPerMinute: bpm,
                                lastModified: date(time).addingTimeInterval(60))
}

func export(_ asOf: String, _ samples: [RestingSample], heartRate: [HeartRateDaySummary] = [],
            watchWriters: Set<String> = []) -> SyncBatch {
    let t = ts(asOf)
    return SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: t,
                     snapshot: .init(from: nil, to: t), resting: samples, heartRate: heartRate,
                     watchWriters: watchWriters, origin: "Apple Health export")
}

func live(_ asOf: String, previous: String?, next: String?, _ samples: [RestingSample] = [], deleted: [String] = [],
          store: HealthStore = .healthKit, fullResync: Bool = false) -> SyncBatch {
    SyncBatch(store: store, stream: "iphone", asOf: ts(asOf), cursor: .init(previous: previous, next: next),
              fullResync: fullResync, resting: samples, deleted: deleted, origin: "iphone")
}

/// What the migration of delivery times (7 → 8, `StoreSchema.deliveryTimes`) adds, taken away again: for tests that
/// make a store of an older schema.
let withoutDeliveryTimes = """
    DROP TABLE tied_copy; ALTER TABLE layer DROP COLUMN claimed_as_of; ALTER TABLE sample DROP COLUMN made_at;
    ALTER TABLE sample DROP COLUMN made_in; ALTER TABLE heart_rate DROP COLUMN made_at;
    """

extension HealthDatabase {
    /// Everything a reader can see, as text: equal dumps mean an unchanged store.
    func dump() throws -> String {
        var lines: [String] = []
        for s in try samples() {
            lines.append("sample \(s.day) \(s.sample.writer.key) \(s.sample.identity) \(s.sample.value) \(s.provisional) \(s.stream)")
        }
        for r in try revisions() { lines.append("revision \(r.day) \(r.identity) \(r.reason) \(r.text(thisYear: 2026))") }
        for h in try heartRateDays() { lines.append("hr \(h.day) \(h.writer.key) \(h.total) \(h.histogramText)") }
        for s in try streams() { lines.append("stream \(s.store) \(s.stream) \(s.cursor ?? "-") \(s.asOf?.iso8601 ?? "-") \(s.revision)") }
        lines.append("revision \(try revision())")
        return lines.joined(separator: "\n")
    }
}
