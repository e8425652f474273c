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
        var payload = HealthAutoExportReader.payload(reader.contents, label: path, options: options, kind: .healthAutoExportCSV)
        payload.passedOver = reader.passedOver
        payload.passedOver.source = path
        var imported = try payload.imported(on: .file(stream: HealthAutoExportReader.stream, readAt: modified ?? Date()))
        // A row holds a resting value, a heart-rate value, both or neither: what was read is the values (and the rows or
        // values passed over), not the rows (the account, docs/design.md R14). Other metrics' columns are not read.
        imported.recordsRead = imported.accounted
        if reader.otherColumns > 0 {
            imported.notes.append(Wording.count(reader.otherColumns, "column") + " of other metrics not read")
        }
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
        /// The header's columns of metrics rhr does not read.
        var otherColumns = 0

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
                case .other: otherColumns += 1
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

/// The dates of a CSV row: `2024-01-02 00:00:00`, without seconds, the day alone, or in 12-hour form (`12:00:00 AM`,
/// `1:05:00 PM`), all without an offset, read in the machine's zone (offset assumed, R5); or with one (`… +0100`), read
/// in it. Every number is digits, read as every date's are (`DateDigits`).
enum CSVDate {
    static func parse(_ text: String, machineZone: TimeZone) -> (Timestamp, assumed: Bool)? {
        if let t = Timestamp.parse(text) { return (t, false) }
        var text = text
        guard let (y, m, d, clock) = text.withUTF8({ fields(UnsafeRawBufferPointer($0)) }),
              LocalDay(year: y, month: m, day: d) != nil else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = machineZone
        let components = DateComponents(year: y, month: m, day: d, hour: clock.0, minute: clock.1, second: clock.2)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == d else { return nil }
        return (Timestamp(date: date, offsetSeconds: machineZone.secondsFromGMT(for: date)), true)
    }

    /// `YYYY-MM-DD`, then optionally ` H:MM` or ` H:MM:SS` (the hour of one or two digits), then optionally ` AM` or
    /// ` PM` after a time: the day and the time of day on a 24-hour clock.
    private static func fields(_ b: UnsafeRawBufferPointer) -> (Int, Int, Int, (Int, Int, Int))? {
        guard b.count >= 10, b[4] == 0x2D, b[7] == 0x2D, let y = DateDigits.value(b, 0, 4), let m = DateDigits.value(b, 5, 2),
              let d = DateDigits.value(b, 8, 2) else { return nil }
        var i = 10
        guard i < b.count else { return (y, m, d, (0, 0, 0)) }
        guard b[i] == 0x20 else { return nil }
        let hourStart = skipSpaces(b, from: i)
        i = hourStart
        let hourDigits = DateDigits.run(b, from: i)
        guard hourDigits == 1 || hourDigits == 2, let hour = DateDigits.value(b, i, hourDigits) else { return nil }
        i += hourDigits
        var clock = [hour, 0, 0]
        for k in 1...2 where i < b.count && b[i] == 0x3A {
            guard let v = DateDigits.value(b, i + 1, 2), DateDigits.run(b, from: i + 1) == 2 else { return nil }
            clock[k] = v
            i += 3
        }
        guard i > hourStart + hourDigits else { return nil }   // a time has minutes
        let suffix = skipSpaces(b, from: i)
        if suffix > i, suffix + 2 == b.count, b[suffix + 1] == 0x4D, b[suffix] == 0x41 || b[suffix] == 0x50 {   // AM, PM
            guard (1...12).contains(clock[0]) else { return nil }
            clock[0] = clock[0] % 12 + (b[suffix] == 0x50 ? 12 : 0)
            i = b.count
        }
        guard i == b.count, clock[0] <= 23, clock[1] <= 59, clock[2] <= 60 else { return nil }
        return (y, m, d, (clock[0], clock[1], clock[2]))
    }

    private static func skipSpaces(_ b: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < b.count && b[i] == 0x20 { i += 1 }
        return i
    }
}
