import RHRJSON
import Foundation
import RHRCore

/// Reads Health Auto Export JSON, the iOS app that exports HealthKit data:
/// `{"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[{"date":…,"qty":55,"source":…}]}]}}`.
///
/// - `resting_heart_rate` points become HealthKit resting samples: writer = the point's `source` (recent versions
///   write it; several sources of one aggregated point come joined with `|`, kept as written), or
///   `Health Auto Export` when absent; value `qty` in the metric's `units`.
/// - `heart_rate` points (`Min`/`Avg`/`Max` of a period) count towards the per-day heart-rate counts (R8, R9):
///   one point, one count, context not set, since the app says neither how many samples it summarised nor
///   their motion context.
/// - Other metrics are skipped and counted (`"unknown metric"` → how many metrics).
///
/// A point's window: the app dates a point by the start of the period it aggregates. A point at local midnight
/// (the daily aggregation, the app's default) stands for its whole day, 00:00:00 to 23:59:59 in the offset it
/// was written with; its midpoint keeps it on that day under R5 whatever the offset. A point at any other time
/// (hourly aggregation, or raw samples) is an instant at that time.
///
/// The file is a snapshot of the period its points cover (from the first window's start to the last one's end):
/// a newer file for the same period replaces what an older one said about it (R4). `asOf` is the end of the
/// newest window, in its written offset: the file says nothing about when it was made, and its newest data is
/// the latest moment it is known to have been read (so R3 keeps the last two days of an Apple Watch provisional).
/// A file without any heart-rate point gives no batch: it covers no period, and an empty snapshot must not
/// remove anything.
public enum HealthAutoExportReader {
    public static let stream = "health-auto-export"
    /// The writer of points that name no `source` (older versions of the app).
    public static let defaultWriter = "Health Auto Export"

    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let (root, total) = try parse(path: path)
        let imported = try read(root, label: path, stream: stream, options: options)
        progress?(total, total)
        return imported
    }

    /// The same JSON as bytes (a request body of the app's REST API automation, docs/design.md section 4b), for
    /// `stream`; `label` stands for the path in errors and in the result. Also the unwrapped `{"metrics":[…]}`
    /// that some relays send.
    public static func read(bytes: [UInt8], label: String, stream: String, options: ImportOptions) throws(InputError) -> ImportedFile {
        let root = try JSONDocument.parse(bytes, label: label)
        return try read(root, label: label, stream: stream, options: options)
    }

    private static func read(_ root: JSONValue, label path: String, stream: String, options: ImportOptions) throws(InputError) -> ImportedFile {
        let wrapped = root["data"]?["metrics"]
        guard let metrics = (wrapped ?? root["metrics"])?.array else {
            throw InputError(path: path, message: "data.metrics: missing; not Health Auto Export JSON")
        }
        var contents = HealthAutoExportContents(path: path)
        for (i, metric) in metrics.enumerated() {
            try contents.add(metric, at: wrapped == nil ? "metrics[\(i)]" : "data.metrics[\(i)]")
        }
        var batches: [SyncBatch] = []
        if let period = contents.period {
            let asOf = period.newestEnd
            let batch = SyncBatch(
                store: .healthKit, stream: stream, asOf: asOf,
                snapshot: .init(from: Timestamp(date: period.from, offsetSeconds: asOf.offsetSeconds),
                                to: Timestamp(date: period.to, offsetSeconds: asOf.offsetSeconds),
                                allowOlder: options.allowOlderExport),
                resting: contents.resting, heartRate: contents.heartRate.result,
                origin: "Health Auto Export of \(asOf.localDay.shortText)")
            do {
                try batch.validate()
            } catch {
                throw InputError(path: path, message: "the file reads as an invalid batch: \(error.description)")
            }
            batches.append(batch)
        }
        return ImportedFile(path: path, kind: .healthAutoExportJSON, batches: batches, recordsRead: contents.points,
                            skipped: contents.skipped)
    }

    /// The whole document (these files are small: a point per day or hour), without a byte order mark.
    private static func parse(path: String) throws(InputError) -> (JSONValue, Int64) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            _ = try ReadOnlyFile.head(path: path, count: 1)   // names a missing file or a directory
            throw InputError(path: path, message: "cannot be read: \(error.localizedDescription)")
        }
        if data.isEmpty { throw InputError(path: path, message: "the file is empty") }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let skip = data.starts(with: bom) ? bom.count : 0
        do {
            return (try JSONParser.parse(data.dropFirst(skip)), Int64(data.count))
        } catch {
            throw InputError(path: path, line: error.line, offset: Int64(error.offset + skip), message: error.messageWithPath)
        }
    }
}

/// What the metrics of one file hold, collected point by point.
struct HealthAutoExportContents {
    let path: String
    var resting: [RestingSample] = []
    var heartRate = HeartRateSummarizer()
    var points = 0
    var skipped: [String: Int] = [:]
    var period: Period?

    struct Period {
        var from: Date
        var to: Date
        /// The end of the newest window with the offset it was written in.
        var newestEnd: Timestamp
    }

    init(path: String) { self.path = path }

    mutating func add(_ metric: JSONValue, at place: String) throws(InputError) {
        do {
            try add(try JSONMembers(metric, path: place))
        } catch {
            throw InputError(path: path, message: error.description)
        }
    }

    private mutating func add(_ metric: JSONMembers) throws(JSONPathError) {
        let kind: Kind
        switch try metric.requiredString("name", why: "every metric has a name") {
        case "resting_heart_rate": kind = .resting
        case "heart_rate": kind = .heartRate
        default:
            skipped["unknown metric", default: 0] += 1
            return
        }
        guard let points = try metric.objects("data") else { return }
        var unit = "count/min"
        if kind == .resting && !points.isEmpty {
            let units = try metric.requiredString("units", why: "the unit of the values")
            guard RestingValue.isSupported(unit: units) else { throw metric.error("units", UnitError(unit: units).description) }
            unit = units
        }
        for point in points {
            try add(point, kind: kind, unit: unit)
        }
    }

    private enum Kind { case resting, heartRate }

    private mutating func add(_ point: JSONMembers, kind: Kind, unit: String) throws(JSONPathError) {
        let dateValue = try point.required("date")
        guard let text = dateValue.string, let date = Timestamp.parse(text) else {
            throw point.error("date", "\(dateValue) is not a date like 2024-01-02 00:00:00 +0100")
        }
        let writer = try writer(of: point)
        let window = HealthAutoExportContents.window(of: date)
        switch kind {
        case .resting:
            let value = try point.requiredNumber("qty", why: "a resting point carries its value in qty")
            resting.append(RestingSample(store: .healthKit, writer: writer, start: window.start, end: window.end,
                                         offsetSeconds: date.offsetSeconds, value: value, unit: unit))
        case .heartRate:
            var values: [Double] = []
            for key in ["Avg", "Min", "Max", "qty"] {
                if let v = try point.number(key) { values.append(v) }
            }
            guard let value = values.first else {
                throw JSONPathError(path: point.path, "a heart_rate point carries Min, Avg and Max (or qty); this one has none")
            }
            let day = LocalDayRule.healthKit(start: window.start, end: window.end, writtenOffset: date.offsetSeconds,
                                             timeZone: nil)
            heartRate.add(writer: writer, day: day, bpm: value, context: .notSet)
        }
        points += 1
        let end = Timestamp(date: window.end, offsetSeconds: date.offsetSeconds)
        if var p = period {
            p.from = min(p.from, window.start)
            p.to = max(p.to, window.end)
            if end > p.newestEnd { p.newestEnd = end }
            period = p
        } else {
            period = Period(from: window.start, to: window.end, newestEnd: end)
        }
    }

    private func writer(of point: JSONMembers) throws(JSONPathError) -> Writer {
        guard let name = try point.string("source") else {
            return Writer(store: .healthKit, name: HealthAutoExportReader.defaultWriter)
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return Writer(store: .healthKit, name: trimmed.isEmpty ? HealthAutoExportReader.defaultWriter : trimmed)
    }

    /// A point at local midnight in its written offset stands for the whole day; any other point is an instant.
    static func window(of date: Timestamp) -> (start: Date, end: Date) {
        let local = date.epochSeconds + Double(date.offsetSeconds)
        let isMidnight = local.truncatingRemainder(dividingBy: 86_400) == 0
        return (date.date, isMidnight ? date.date.addingTimeInterval(86_399) : date.date)
    }
}
