import Foundation
import RHRCore
import RHRJSON

/// What the metrics of one file hold, collected point by point.
struct HealthAutoExportContents {
    var resting: [RestingSample] = []
    var heartRate = HeartRateSummarizer()
    var points = 0
    var skipped: [String: Int] = [:]
    /// The reason points of metrics rhr does not read are skipped for.
    static let otherMetrics = "points of other metrics"
    var period: Period?
    /// The Apple Watches the points name, by name (R3); and whether some point named no writer: the one rule for
    /// those (`HealthAutoExportUnnamed.swift`).
    var namedWatches: Set<String> = []
    var hasUnnamed = false
    var coversResting = false
    var coversHeartRate = false
    /// R14: the points (or CSV rows) rhr could not use.
    var passedOver = PassedOverLog()
    /// R2: by writer name, the raw spellings of it (`WriterNameRule`).
    private var spellings: [String: Set<String>] = [:]

    var writerSpellings: [String: [String]] {
        spellings.mapValues { $0.sorted() }
    }

    struct Period {
        var from: Date
        var to: Date
        /// The end of the newest window with the offset it was written in.
        var newestEnd: Timestamp
    }

    enum Kind { case resting, heartRate }

    /// The kind of a metric by its name; nil for metrics rhr does not read.
    static func kind(_ metric: JSONMembers) throws(JSONPathError) -> Kind? {
        switch try metric.requiredString("name", why: "every metric has a name") {
        case "resting_heart_rate": return .resting
        case "heart_rate": return .heartRate
        default: return nil
        }
    }

    /// The unit of a resting metric's values (R6), asked for when it has points.
    static func restingUnit(_ metric: JSONMembers) throws(JSONPathError) -> String {
        let units = try metric.requiredString("units", why: "the unit of the values")
        guard RestingValue.isSupported(unit: units) else { throw metric.error("units", UnitError(unit: units).description) }
        return units
    }

    mutating func add(_ point: JSONMembers, kind: Kind, unit: String) throws(JSONPathError) {
        let dateValue = try point.required("date")
        guard let text = dateValue.string, let date = Timestamp.parse(text) else {
            throw point.error("date", "\(dateValue) is not a date like 2024-01-02 00:00:00 +0100")
        }
        let writer = try writer(of: point)
        switch kind {
        case .resting:
            let value = try point.requiredNumber("qty", why: "a resting point carries its value in qty")
            addResting(value, unit: unit, at: date, writer: writer)
        case .heartRate:
            var values: [Double] = []
            for key in ["Avg", "Min", "Max", "qty"] {
                if let v = try point.number(key) { values.append(v) }
            }
            guard let value = values.first else {
                throw JSONPathError(path: point.path, "a heart_rate point carries Min, Avg and Max (or qty); this one has none")
            }
            addHeartRate(value, at: date, writer: writer)
        }
        points += 1
    }

    /// A resting value dated `date` (a point's date, or a CSV row's); `offsetAssumed`: the date was written without
    /// an offset, and `date` carries the machine's (R5), which the sample then does not claim.
    mutating func addResting(_ value: Double, unit: String, at date: Timestamp, writer: Writer, offsetAssumed: Bool = false) {
        let window = HealthAutoExportContents.window(of: date)
        resting.append(RestingSample(store: .healthKit, writer: writer, start: window.start, end: window.end,
                                     offsetSeconds: offsetAssumed ? nil : date.offsetSeconds, value: value, unit: unit))
        coversResting = true
        extendPeriod(window, date)
    }

    /// A heart-rate value dated `date`: one count of its writer's day (R8), context not set.
    mutating func addHeartRate(_ bpm: Double, at date: Timestamp, writer: Writer) {
        let window = HealthAutoExportContents.window(of: date)
        let day = LocalDayRule.healthKit(start: window.start, end: window.end, writtenOffset: date.offsetSeconds, timeZone: nil)
        heartRate.add(writer: writer, day: day, bpm: bpm, context: .notSet)
        coversHeartRate = true
        extendPeriod(window, date)
    }

    private mutating func extendPeriod(_ window: (start: Date, end: Date), _ date: Timestamp) {
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

    /// The point's writer (R2): its source, a combined writer for several joined with `|`, or, without one, Health
    /// Auto Export until the payload is read (`attributeUnnamed`).
    private mutating func writer(of point: JSONMembers) throws(JSONPathError) -> Writer {
        let raw = try point.string("source")?.trimmingCharacters(in: .whitespaces) ?? ""
        if raw.utf8.count > HealthAutoExportReader.maxNameLength {
            throw point.error("source", "longer than \(HealthAutoExportReader.maxNameLength) bytes; not a writer's name")
        }
        if let flaw = JSONPassOver.nameFlaw(raw, member: "source") { throw point.error("source", flaw) }
        // One writer however its name was typed (R2); `A|A` is A.
        let source = WriterNameRule.canonical(raw)
        // Separators alone (`|`, ` | `) join no writers: the point names none, as an empty source.
        let name = source.utf8.contains(UInt8(ascii: "|"))
            ? Writer.combinedName(source.split(separator: "|").map { WriterNameRule.canonical(String($0)) }) : source
        if source != raw && !name.isEmpty { spellings[name, default: []].insert(raw) }
        if name.isEmpty { return unnamedWriter() }
        if name == source && ProvisionalRule.isAppleWatch(sourceName: name) { namedWatches.insert(name) }
        return Writer(store: .healthKit, name: name)
    }

    /// The writer of values that name none, until the payload is read: Health Auto Export.
    mutating func unnamedWriter() -> Writer {
        hasUnnamed = true
        return Writer(store: .healthKit, name: HealthAutoExportReader.defaultWriter)
    }

    /// A point at local midnight in its written offset stands for the whole day; any other point is an instant.
    static func window(of date: Timestamp) -> (start: Date, end: Date) {
        let local = date.epochSeconds + Double(date.offsetSeconds)
        let isMidnight = local.truncatingRemainder(dividingBy: 86_400) == 0
        return (date.date, isMidnight ? date.date.addingTimeInterval(86_399) : date.date)
    }
}
