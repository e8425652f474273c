import RHRJSON
import Foundation
import RHRCore

/// Reads Health Auto Export JSON, the iOS app that exports HealthKit data:
/// `{"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[{"date":…,"qty":55,"source":…}]}]}}`,
/// or the same without the `data` wrapper (`{"metrics":[…]}`), as some relays send it.
///
/// - `resting_heart_rate` points become HealthKit resting samples: writer = the point's `source` (recent versions
///   write it); without one, the payload's one named Apple Watch, else `Health Auto Export`, a writer not named and a
///   possible watch (R3, `HealthAutoExportUnnamed.swift`); a source
///   joining several writers with `|` (`Watch|Oura`, an aggregated point) is a combined writer of its own,
///   "Watch + Oura (combined)", never matched to either alone (docs/design.md section 2). Value `qty` in the
///   metric's `units`.
/// - `heart_rate` points (`Min`/`Avg`/`Max` of a period) count towards the per-day heart-rate counts (R8, R9):
///   one point, one count, context not set, since the app says neither how many samples it summarised nor
///   their motion context.
/// - Other metrics' points are skipped and counted (`"points of other metrics"`).
///
/// A point's window: the app dates a point by the start of the period it aggregates. A point at local midnight
/// (the daily aggregation, the app's default) stands for its whole day, 00:00:00 to 23:59:59 in the offset it
/// was written with; its midpoint keeps it on that day under R5 whatever the offset. A point at any other time
/// (hourly aggregation, or raw samples) is an instant at that time.
///
/// The file is a snapshot (R4, R12) of the metrics it carries for the period its points cover (from the first
/// window's start to the last one's end). `asOf` is the end of the newest window, in its written offset: the file
/// says nothing about when it was made, and its newest data is the latest moment it is known to have been read (so
/// R3 keeps the last two days of an Apple Watch provisional). A file without any heart point still gives a batch,
/// so the store remembers it was imported; it covers nothing, so it replaces nothing.
///
/// Files reach hundreds of MB: they are streamed (`JSONStreamScanner`) in bounded memory, one point at a time, and
/// names are bounded (a writer's name or a unit longer than `maxNameLength` bytes is refused, with its place).
public enum HealthAutoExportReader {
    public static let stream = "health-auto-export"
    /// The writer of points that name no `source` (older versions of the app).
    public static let defaultWriter = "Health Auto Export"
    /// The longest writer name, unit or metric name rhr takes, in bytes.
    public static let maxNameLength = 256
    /// The longest point, in bytes: a point is a date, a few numbers and a source.
    static let maxPointLength = 64 << 10

    /// A file, as `rhr import` reads it: a snapshot of the reader's stream (`PhonePayload.imported(on:)`).
    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        var scanner = JSONStreamScanner(source: file)
        scanner.progress = progress
        let contents = try read(&scanner, label: path)
        progress?(max(scanner.total, scanner.consumed), max(scanner.total, scanner.consumed))
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        return try payload(contents, label: path, options: options).imported(on: .file(stream: stream, readAt: modified ?? Date()))
    }

    /// A Health Auto Export body in memory (the REST API's POST, docs/design.md section 4b); `label` names it in
    /// errors, as a path names a file. What it becomes is its road's (`PhonePayload.imported(on:)`).
    public static func payload(bytes: [UInt8], label: String, options: ImportOptions) throws(InputError) -> PhonePayload {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(InputError) in
                var scanner = JSONStreamScanner(memory: buffer)
                return payload(try read(&scanner, label: label), label: label, options: options)
            }
        }.get()
    }

    /// A body in memory read as a file would be, on the road `stream`.
    public static func read(bytes: [UInt8], label: String, stream: String, options: ImportOptions) throws(InputError) -> ImportedFile {
        try payload(bytes: bytes, label: label, options: options).imported(on: .file(stream: stream, readAt: Date()))
    }

    private static func read(_ scanner: inout JSONStreamScanner, label: String) throws(InputError) -> HealthAutoExportContents {
        var document = HealthAutoExportDocument(contents: HealthAutoExportContents())
        do {
            try document.read(&scanner)
        } catch {
            throw InputError(path: label, place: error.place, message: error.message, isSyntaxError: error.isSyntaxError)
        }
        return document.contents
    }

    /// What one file or body (JSON, or CSV: `kind`) holds, its unnamed values attributed.
    static func payload(_ contents: HealthAutoExportContents, label: String, options: ImportOptions,
                        kind: InputKind = .healthAutoExportJSON) -> PhonePayload {
        var contents = contents
        contents.attributeUnnamed()
        var payload = PhonePayload(label: label, kind: kind, machineZone: options.machineZone)
        payload.resting = contents.resting
        payload.heartRate = contents.heartRate.result
        payload.passedOver = contents.passedOver
        payload.passedOver.source = label
        payload.writerSpellings = contents.writerSpellings
        payload.recordsRead = contents.points
        payload.skipped = contents.skipped
        payload.period = contents.period
        payload.coversResting = contents.coversResting
        payload.coversHeartRate = contents.coversHeartRate
        return payload
    }
}

/// An error in a Health Auto Export document: its place (the JSON path, and the line, column and byte when known), and
/// whether the bytes are not JSON at all or JSON of the wrong shape.
struct HealthAutoExportError: Error {
    var place: InputPlace
    var message: String
    var isSyntaxError = false

    /// JSON of the wrong shape at `offset` (nil: no place in the bytes), the value at `path`.
    init(_ scanner: inout JSONStreamScanner, offset: Int64?, path: String, _ message: String) {
        place = offset.map { scanner.place(at: $0) } ?? InputPlace()
        place.path = path
        self.message = message
    }

    /// What the scanner found: the bytes are not JSON (or not JSON rhr reads: nested too deep, a value too long).
    init(_ error: JSONSyntaxError) {
        place = error.place
        message = error.message
        isSyntaxError = true
    }
}

/// Walks the document's structure as it streams by: the top object, `data`, `metrics`, each metric's members, and
/// each point of the metrics rhr reads, one at a time; everything else is passed over (its syntax checked).
private struct HealthAutoExportDocument {
    var contents: HealthAutoExportContents

    typealias Failure = HealthAutoExportError
    typealias Scanner = JSONStreamScanner

    /// Runs scanner calls; what they throw names its own place.
    @inline(__always)
    private static func syntax<T>(_ body: () throws(JSONSyntaxError) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw Failure(error) }
    }

    mutating func read(_ s: inout Scanner) throws(Failure) {
        var sawMetrics = false
        try Self.syntax { () throws(JSONSyntaxError) in try s.skipByteOrderMark() }
        guard try Self.syntax({ () throws(JSONSyntaxError) in try s.peek() }) != nil else {
            throw Failure(&s, offset: nil, path: "", "the file is empty")
        }
        try Self.members(&s) { (s: inout Scanner, key: String) throws(Failure) in
            switch key {
            case "data":
                try Self.members(&s) { (s: inout Scanner, key: String) throws(Failure) in
                    if key == "metrics" {
                        sawMetrics = try self.metrics(&s, path: "data.metrics") || sawMetrics
                    } else {
                        try Self.skip(&s)
                    }
                }
            case "metrics":
                sawMetrics = try self.metrics(&s, path: "metrics") || sawMetrics
            default:
                try Self.skip(&s)
            }
        }
        try Self.syntax { () throws(JSONSyntaxError) in try s.expectEnd() }
        if !sawMetrics { throw Failure(&s, offset: nil, path: "data.metrics", "missing; not Health Auto Export JSON") }
    }

    /// The members of an object, each handed to `body` with the scanner at its value (which `body` reads); a value
    /// that is not an object is passed over. The scanner refuses a repeated key, as `JSONParser` does.
    private static func members(_ s: inout Scanner, _ body: (inout Scanner, String) throws(Failure) -> Void) throws(Failure) {
        guard try syntax({ () throws(JSONSyntaxError) in try s.peek() }) == 0x7B else { return try skip(&s) }
        var key = try syntax { () throws(JSONSyntaxError) in try s.enterObject() }
        while let current = key {
            try body(&s, current)
            key = try syntax { () throws(JSONSyntaxError) in try s.nextKey() }
        }
    }

    /// The elements of an array, each handed to `body` with its index and the scanner at it. False when the value
    /// is not an array (then it was passed over).
    private static func elements(_ s: inout Scanner, _ body: (inout Scanner, Int) throws(Failure) -> Void) throws(Failure) -> Bool {
        guard try syntax({ () throws(JSONSyntaxError) in try s.peek() }) == 0x5B else {
            try skip(&s)
            return false
        }
        var more = try syntax { () throws(JSONSyntaxError) in try s.enterArray() }
        var index = 0
        while more {
            try body(&s, index)
            index += 1
            more = try syntax { () throws(JSONSyntaxError) in try s.nextElement() }
        }
        return true
    }

    private static func skip(_ s: inout Scanner) throws(Failure) {
        try syntax { () throws(JSONSyntaxError) in try s.skipValue() }
    }

    /// Passes over a metric's points, one at a time; how many there were.
    private static func skipPoints(_ s: inout Scanner) throws(Failure) -> Int {
        var count = 0
        _ = try elements(&s) { (s: inout Scanner, _: Int) throws(Failure) in
            try skip(&s)
            count += 1
        }
        return count
    }

    /// `metrics`: false when it is not an array.
    private mutating func metrics(_ s: inout Scanner, path: String) throws(Failure) -> Bool {
        try Self.elements(&s) { (s: inout Scanner, i: Int) throws(Failure) in
            try self.metric(&s, path: "\(path)[\(i)]")
        }
    }

    /// One metric: its name and units, then its points, read at once when they come after both (as the app writes
    /// them), otherwise read again once the metric's end is reached (which a pipe cannot do).
    private mutating func metric(_ s: inout Scanner, path: String) throws(Failure) {
        let isObject = try Self.syntax { () throws(JSONSyntaxError) in try s.peek() == 0x7B }
        let start = s.offset
        guard isObject else {
            let value = try Self.syntax { () throws(JSONSyntaxError) in try s.value(limit: HealthAutoExportReader.maxPointLength) }
            // A value too long to keep is not looked at: what it is goes unsaid.
            throw Failure(&s, offset: start, path: path, value.map { JSONMembers.expected("an object", $0) } ?? "expected an object")
        }
        var header: [(String, JSONValue)] = []
        var pending: Scanner.Mark?
        var skippedPoints = 0
        try Self.members(&s) { (s: inout Scanner, key: String) throws(Failure) in
            switch key {
            case "name", "units":
                let offset = s.offset
                let value = try Self.syntax { () throws(JSONSyntaxError) in try s.value(limit: 4 * HealthAutoExportReader.maxNameLength) }
                guard let value, (value.string?.utf8.count ?? 0) <= HealthAutoExportReader.maxNameLength else {
                    throw Failure(&s, offset: offset, path: "\(path).\(key)",
                                  "longer than \(HealthAutoExportReader.maxNameLength) bytes; not a metric's \(key)")
                }
                header.append((key, value))
            case "data":
                let members = JSONMembers(JSONObject(header), path: path)
                // Known now: a metric rhr reads (with its units, for resting values), or one it does not.
                let named = header.contains { $0.0 == "name" }, hasUnits = header.contains { $0.0 == "units" }
                let kind: Result<HealthAutoExportContents.Kind?, JSONPathError>? =
                    named ? Result { () throws(JSONPathError) in try HealthAutoExportContents.kind(members) } : nil
                switch kind {
                case .success(.none):
                    skippedPoints = try Self.skipPoints(&s)
                case .success(.some(let kind)) where kind == .heartRate || hasUnits:
                    try self.points(&s, path: "\(path).data", kind: kind, metric: members)
                default:
                    pending = s.mark()
                    skippedPoints = try Self.skipPoints(&s)
                }
            default:
                try Self.skip(&s)
            }
        }
        let members = JSONMembers(JSONObject(header), path: path)
        let kind: HealthAutoExportContents.Kind?
        do { kind = try HealthAutoExportContents.kind(members) } catch { throw Failure(&s, offset: start, path: error.path, error.message) }
        guard let kind else {
            // Its points are read and skipped (the account, docs/design.md R14).
            contents.skipped[HealthAutoExportContents.otherMetrics, default: 0] += skippedPoints
            contents.points += skippedPoints
            return
        }
        guard let pending else { return }
        let back = s.mark()
        guard try Self.syntax({ () throws(JSONSyntaxError) in try s.seek(to: pending) }) else {
            throw Failure(&s, offset: pending.offset, path: "\(path).data",
                          "the points come before the metric's name or units, and this input cannot be read twice")
        }
        try points(&s, path: "\(path).data", kind: kind, metric: members)
        _ = try Self.syntax { () throws(JSONSyntaxError) in try s.seek(to: back) }
    }

    /// A metric's `data`, one point at a time; null is no points.
    private mutating func points(_ s: inout Scanner, path: String, kind: HealthAutoExportContents.Kind,
                                 metric: JSONMembers) throws(Failure) {
        if try Self.syntax({ () throws(JSONSyntaxError) in try s.peek() == 0x6E }) {
            try Self.skip(&s)
            return
        }
        let start = s.offset
        var unit: String?
        let isArray = try Self.elements(&s) { (s: inout Scanner, j: Int) throws(Failure) in
            let place = "\(path)[\(j)]"
            let offset = s.offset
            let value = try Self.syntax { () throws(JSONSyntaxError) in try s.value(limit: HealthAutoExportReader.maxPointLength) }
            // R14: a point rhr cannot use is passed over (and counted as read), the rest of the file read.
            let records = kind == .resting ? "resting_heart_rate points" : "heart_rate points"
            let at = InputPlace(byte: offset, path: place)
            guard let value else {
                self.contents.passedOver.add(kind: "\(records) longer than \(HealthAutoExportReader.maxPointLength >> 10) KiB",
                                             reason: "a point longer than \(HealthAutoExportReader.maxPointLength >> 10) KiB; "
                                                + "a source name or another value far longer than any writer's (not kept)",
                                             place: at, raw: "")
                self.contents.points += 1
                return
            }
            do throws(JSONPathError) {
                if kind == .resting && unit == nil { unit = try HealthAutoExportContents.restingUnit(metric) }
                try self.contents.add(try JSONMembers(value, path: place), kind: kind, unit: unit ?? "count/min")
            } catch {
                self.contents.passedOver.add(JSONPassOver.record(records, at: place, value: value, error: error, place: at))
                self.contents.points += 1
            }
        }
        if !isArray { throw Failure(&s, offset: start, path: path, "expected an array") }
    }
}
