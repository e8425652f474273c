import Foundation
import RHRCore
import RHRJSON

/// Reads Health Auto Export CSV, the app's other export format: one wide row per period, its first column the date
/// (`Date`, or `Date/Time` in later versions) written without an offset, then a column per metric named with its unit,
/// about 113 of them: `Resting Heart Rate (count/min)`, `Heart Rate [Min] (count/min)`, `[Max]`, `[Avg]`, and the
/// rest, which rhr does not read.
///
/// - A row's resting value becomes a HealthKit resting sample of the writer `Health Auto Export` (the CSV names no
///   source: a possible watch, R3), over its day when the row's time is midnight, else at that instant, as for JSON.
/// - Its heart rate (`Avg`, else `Min`, else `Max`) counts once towards its day (R8, R9), context not set.
/// - Its date, without an offset, is read in the machine's zone, and its values are flagged *offset assumed* (R5); a
///   date that carries an offset is read in it.
/// - A row rhr cannot use, or one of its values, is passed over with its line (R14): a date that is not a date, a
///   count of fields other than the header's, quotes that do not close, a value that is not a number.
///
/// The file is a snapshot of the period its rows cover (R4, R12), as the JSON is. It is streamed a line at a time in
/// bounded memory; a line over 1 MiB is refused, since no row of the app's is near that long.
public enum HealthAutoExportCSVReader {
    static let maxLineLength = 1 << 20

    /// Whether `head` starts like the app's CSV: a header whose first field is `Date` or `Date/Time`, with another
    /// field named like a metric with its unit, `Name (unit)`.
    static func looksLikeCSV(_ head: [UInt8]) -> Bool {
        var line = head.prefix { $0 != 0x0A }
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        guard line.count < head.count || head.count < InputKind.headSize,
              case let fields = CSVLine.fields(Array(line)), let fields, fields.count > 1 else { return false }
        let first = fields[0].trimmingCharacters(in: .whitespaces)
        return (first == "Date" || first == "Date/Time") && fields.dropFirst().contains { MetricColumn($0) != nil }
    }

    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        var reader = Rows(label: path, machineZone: options.machineZone)
        func take(_ item: JSONLineFramer.Item) throws(InputError) {
            switch item {
            case .tooLong(let number):
                throw InputError(path: path, line: number, message: "a line longer than \(maxLineLength >> 20) MiB; not a Health Auto Export row")
            case .line(let bytes, let number):
                try reader.take(bytes, line: number)
            }
        }
        try FileLines.read(file, maxLineLength: maxLineLength, progress: progress, take)
        guard reader.columns != nil else { throw InputError(path: path, message: "the file is empty") }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        var imported = try HealthAutoExportReader.imported(reader.contents, label: path, stream: HealthAutoExportReader.stream,
                                                           options: options, readAt: modified ?? Date(),
                                                           kind: .healthAutoExportCSV)
        var passedOver = reader.passedOver
        passedOver.source = path
        imported.batches[0].passedOver = passedOver
        return imported
    }

    /// A header column rhr reads: resting heart rate, or one of the heart-rate statistics, with its unit.
    struct MetricColumn: Equatable {
        enum Metric { case resting, heartRateAvg, heartRateMin, heartRateMax, other }
        var metric: Metric
        var name: String
        var unit: String

        /// `Resting Heart Rate (count/min)` → resting, in count/min; nil for a field not named `Name (unit)`.
        init?(_ field: String) {
            let text = field.trimmingCharacters(in: .whitespaces)
            guard text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) else { return nil }
            name = String(text[..<open.lowerBound])
            unit = String(text[open.upperBound..<text.index(before: text.endIndex)])
            guard !name.isEmpty, !unit.isEmpty else { return nil }
            switch name {
            case "Resting Heart Rate": metric = .resting
            case "Heart Rate [Avg]": metric = .heartRateAvg
            case "Heart Rate [Min]": metric = .heartRateMin
            case "Heart Rate [Max]": metric = .heartRateMax
            default: metric = .other
            }
        }
    }

    /// The rows of one file, read one line at a time.
    struct Rows {
        let label: String
        let machineZone: TimeZone
        var contents = HealthAutoExportContents()
        var passedOver = PassedOverLog()
        /// The header's fields, once read.
        var columns: [String]?
        private var resting: (index: Int, unit: String)?
        private var heartRate: [(index: Int, unit: String)] = []
        private var writer: Writer?

        init(label: String, machineZone: TimeZone) {
            self.label = label
            self.machineZone = machineZone
        }

        mutating func take(_ bytes: [UInt8], line: Int) throws(InputError) {
            var bytes = bytes
            if line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            guard let header = columns else { return try readHeader(bytes, line: line) }
            let raw = String(decoding: bytes, as: UTF8.self)
            contents.points += 1
            func passOver(_ kind: String, _ reason: String, column: String? = nil) {
                passedOver.add(kind: kind, reason: reason, place: InputPlace(line: line, path: column ?? ""), raw: raw)
            }
            guard let fields = CSVLine.fields(bytes) else {
                return passOver("Health Auto Export rows whose quotes do not close", "a quoted field that does not close")
            }
            guard fields.count == header.count else {
                return passOver("Health Auto Export rows of another width than the header",
                                "\(fields.count) fields where the header has \(header.count)")
            }
            let dateText = fields[0].trimmingCharacters(in: .whitespaces)
            guard let (date, assumed) = CSVDate.parse(dateText, machineZone: machineZone) else {
                return passOver("Health Auto Export rows whose date is not a date",
                                "\(header[0]) \(PassedOverRecord.quote(dateText)) is not a date like 2024-01-02 00:00:00")
            }
            let writer = self.writer ?? contents.unnamedWriter()
            self.writer = writer
            if let (index, unit) = resting, case let text = fields[index].trimmingCharacters(in: .whitespaces), !text.isEmpty {
                if let value = CSVLine.number(text) {
                    if RestingValue.isSupported(unit: unit) {
                        contents.addResting(value, unit: unit, at: date, writer: writer, offsetAssumed: assumed)
                    } else {
                        passOver("Resting Heart Rate in a unit that is not a heart rate", "\(UnitError(unit: unit))", column: header[index])
                    }
                } else {
                    passOver("Resting Heart Rate that is not a number", "\(PassedOverRecord.quote(text)) is not a number",
                             column: header[index])
                }
            }
            // The first heart-rate statistic the row holds, in the order Avg, Min, Max.
            for (index, unit) in heartRate {
                let text = fields[index].trimmingCharacters(in: .whitespaces)
                if text.isEmpty { continue }
                guard let value = CSVLine.number(text) else {
                    passOver("Heart Rate that is not a number", "\(PassedOverRecord.quote(text)) is not a number", column: header[index])
                    break
                }
                guard let bpm = try? RestingValue.bpm(value: value, unit: unit) else {
                    passOver("Heart Rate in a unit that is not a heart rate", "\(UnitError(unit: unit))", column: header[index])
                    break
                }
                contents.addHeartRate(bpm, at: date, writer: writer)
                break
            }
        }

        private mutating func readHeader(_ bytes: [UInt8], line: Int) throws(InputError) {
            guard let fields = CSVLine.fields(bytes), fields.count > 1 else {
                throw InputError(path: label, line: line, message: "not a Health Auto Export CSV header")
            }
            let first = fields[0].trimmingCharacters(in: .whitespaces)
            guard first == "Date" || first == "Date/Time" else {
                throw InputError(path: label, line: line, message: "the first column is \(PassedOverRecord.quote(first)), "
                    + "not Date: not a Health Auto Export CSV")
            }
            columns = fields
            var statistics: [(rank: Int, index: Int, unit: String)] = []
            for (index, field) in fields.enumerated().dropFirst() {
                guard let column = MetricColumn(field) else { continue }
                switch column.metric {
                case .resting: if resting == nil { resting = (index, column.unit) }
                case .heartRateAvg: statistics.append((0, index, column.unit))
                case .heartRateMin: statistics.append((1, index, column.unit))
                case .heartRateMax: statistics.append((2, index, column.unit))
                case .other: contents.skipped["unknown metric", default: 0] += 1
                }
            }
            heartRate = statistics.sorted { $0.rank < $1.rank }.map { ($0.index, $0.unit) }
        }
    }
}

/// One CSV line cut into fields (RFC 4180: `"…"` quotes a field, `""` inside it is a quote).
enum CSVLine {
    /// The fields, or nil when a quote opens a field and does not close it.
    static func fields(_ bytes: [UInt8]) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == 0x22 {
                    if i + 1 < bytes.count && bytes[i + 1] == 0x22 { field.append(0x22); i += 1 } else { quoted = false }
                } else {
                    field.append(b)
                }
            } else if b == 0x2C {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
                wasQuoted = false
            } else if b == 0x22 && field.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
            } else if b != 0x0D || i + 1 < bytes.count {
                field.append(b)
            }
            i += 1
        }
        if quoted { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    /// A number as the app writes one: `55`, `55.5`, or, in a language that writes a decimal comma, `55,5`.
    static func number(_ text: String) -> Double? {
        let plain = text.contains(",") && !text.contains(".") ? text.replacingOccurrences(of: ",", with: ".") : text
        guard plain.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D }), let value = Double(plain),
              value.isFinite else { return nil }
        return value
    }
}

/// The dates of a CSV row: `2024-01-02 00:00:00`, without seconds, the day alone, or in 12-hour form (`12:00:00 AM`),
/// all without an offset, read in the machine's zone (offset assumed, R5); or with one (`… +0100`), read in it.
enum CSVDate {
    static func parse(_ text: String, machineZone: TimeZone) -> (Timestamp, assumed: Bool)? {
        if let t = Timestamp.parse(text) { return (t, false) }
        var rest = Substring(text)
        var pm: Bool?
        if rest.hasSuffix(" AM") || rest.hasSuffix(" PM") {
            pm = rest.hasSuffix(" PM")
            rest = rest.dropLast(3)
        }
        let parts = rest.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard day.count == 3, let y = day[0], let m = day[1], let d = day[2], parts[0].count == 10 else { return nil }
        var clock = [0, 0, 0]
        if parts.count == 2 {
            let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ $0 != nil }) else { return nil }
            for (k, v) in fields.enumerated() { clock[k] = v! }
        } else if pm != nil {
            return nil
        }
        if let pm {
            guard (1...12).contains(clock[0]) else { return nil }
            clock[0] = clock[0] % 12 + (pm ? 12 : 0)
        }
        guard (1...12).contains(m), (1...31).contains(d), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
              (0...60).contains(clock[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = machineZone
        let components = DateComponents(year: y, month: m, day: d, hour: clock[0], minute: clock[1], second: clock[2])
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == d else { return nil }
        return (Timestamp(date: date, offsetSeconds: machineZone.secondsFromGMT(for: date)), true)
    }
}
