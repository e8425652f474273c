import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRStore
import RHRTestSupport

// `TemporaryDirectory`, `TestDaemon`, `RHRSandbox`, `Recorder`, `eventually`, `ts` and `utc` come from RHRTestSupport.

// MARK: - Batches

let watchWriter = Writer(store: .healthKit, name: "Jane’s Apple Watch", bundleIdentifier: "com.apple.health.7A1B",
                         productType: "Watch7,1")

/// One HealthKit resting sample spanning most of `day` (UTC+1), as a watch writes it. HealthKit samples are
/// told apart by writer, start and end (not by UUID): `second` moves the start to make another sample.
func restingSample(day: String, value: Double, uuid: String, writer: Writer = watchWriter, second: Int = 0) -> RestingSample {
    let start = ts("\(day)T00:03:12+01:00"), end = ts("\(day)T23:48:44+01:00")
    return RestingSample(store: .healthKit, uuid: uuid, writer: writer, start: start.date.addingTimeInterval(Double(second)),
                         end: end.date, offsetSeconds: 3600, value: value)
}

/// A live-feed batch of one stream moving its cursor from `previous` to `next`.
func liveBatch(stream: String = "iphone", previous: String?, next: String?, samples: [RestingSample] = [],
               deleted: [String] = [], asOf: String = "2026-11-29T08:00:00+01:00", fullResync: Bool = false) -> SyncBatch {
    SyncBatch(store: .healthKit, stream: stream, asOf: ts(asOf),
              cursor: previous == nil && next == nil ? nil : SyncBatch.Cursor(previous: previous, next: next),
              fullResync: fullResync, resting: samples, deleted: deleted)
}

/// The n-th batch of a chain: cursor "c<n-1>" → "c<n>", one new sample on a day of November. Each stream
/// but "iphone" has a writer of its own, so chains of different streams never deliver the same sample.
func chainBatch(stream: String, _ n: Int, value: Double = 58) -> SyncBatch {
    let day = String(format: "2026-11-%02d", 1 + n % 28)
    let writer = stream == "iphone" ? watchWriter : Writer(store: .healthKit, name: "writer of \(stream)")
    return liveBatch(stream: stream, previous: n == 1 ? nil : "c\(n - 1)", next: "c\(n)",
                     samples: [restingSample(day: day, value: value, uuid: "\(stream)-\(n)", writer: writer, second: n / 28)])
}

/// A batch as one JSON line, for files and raw sends.
func batchLine(_ batch: SyncBatch) -> String { JSONWriter.string(SyncBatchJSON.encode(batch)) }

extension DaemonReply {
    var errorCode: String? { error?.code.rawValue }
    var errorMessage: String { error?.message ?? "" }
    /// The `days` member as sent.
    var days: [String] { self["days"]?.array?.compactMap(\.string) ?? [] }
}

extension DaemonEvent {
    /// The days a `changed` or `imported` event names.
    var days: [String] {
        switch self {
        case .changed(_, let days): return days.map(\.description)
        case .imported(let entry): return entry.days.map(\.description)
        case .resync, .other: return []
        }
    }

    /// The entry of an `imported` event.
    var imported: WatchImport? {
        if case .imported(let entry) = self { return entry }
        return nil
    }
}

/// Reads the store directly (a second connection, as `rhr export` would).
func storeDays(_ path: String) throws -> [DayValue] {
    try HealthDatabase(path: path, machineZone: utc).days(aggregation: .latest)
}
