import RHRJSON
import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// `rhr export`: one row per day and writer (R1: store and writer on every row, R7: the aggregation named).
enum ExportCommand {
    static let command = Command(
        name: "export", operands: .none,
        summary: "print one value per day and writer as CSV or JSON",
        options: [
            .value("format", "csv|json", "output format (default csv)"),
            AggregationOption.spec,
            DayRange.fromOption,
            DayRange.toOption,
        ],
        run: run)

    static let header = DayValueJSON.keys.joined(separator: ",") + ",derivation"

    static func run(_ invocation: Invocation) throws -> Int32 {
        let args = invocation.arguments
        let format = args.value("format") ?? "csv"
        guard format == "csv" || format == "json" else { throw UsageError("--format must be csv or json, not \(format)") }
        let range = try DayRange(args)
        let aggregation = try AggregationOption.parse(args)
        let store = try openStoreForReading(invocation)
        invocation.output.write(try text(store: store, json: format == "json", aggregation: aggregation, range: range))
        return 0
    }

    /// What `rhr export` prints for a store: each row with its derivation's registry id (R15), from the devices of
    /// the writer's samples that day and the store's watch marks (docs/design.md section 5).
    static func text(store: HealthDatabase, json: Bool, aggregation: Aggregation, range: DayRange = DayRange()) throws -> String {
        let (samples, watches) = try store.read { tx throws(StoreError) in
            (try tx.samples(from: range.from, to: range.to), try tx.watchWriters())
        }
        let series = DaySeries(samples)
        let rows = series.groups.map { group in
            let day = series.value(of: group, by: aggregation)
            let derivation = Derivation.of(writer: day.writer, devices: series.samples(in: group).map(\.sample.device),
                                           isAppleWatch: watches.contains(day.writer.key))
            return (day: day, derivation: derivation.id)
        }
        if json {
            return JSONWriter.string(.array(rows.map { DayValueJSON.encode($0.day, derivation: $0.derivation) }), style: .pretty) + "\n"
        }
        var text = header + "\n"
        for row in rows { text += csvRow(row.day, derivation: row.derivation) + "\n" }
        return text
    }

    static func csvRow(_ day: DayValue, derivation: String) -> String {
        let cells = [day.day.description, day.store.rawValue, csvField(day.writer.name), csvField(day.writer.shortName),
                     day.aggregation.rawValue, day.bpmText, String(day.samples)]
        // The flags' cells in the header's order (`DayValueJSON.keys`).
        return (cells + DayFlag.allCases.map { $0.exported(from: day) } + [derivation]).joined(separator: ",")
    }

    /// RFC 4180: quote fields holding a comma, a quote or a line break; double the quotes. A field a spreadsheet
    /// would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`
    /// inside the quotes, as OWASP advises, unless it is a plain number (`-5`, `-5.5`), which stays a number
    /// (docs/design.md section 5).
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isPlainNumber(text) {
            text = "'" + text
        } else if !text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// An optional minus, digits, and at most one point with digits after it.
    static func isPlainNumber(_ text: String) -> Bool {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }
}

/// `--from` and `--to`, checked.
struct DayRange {
    var from: LocalDay?
    var to: LocalDay?

    static let fromOption = OptionSpec.value("from", "YYYY-MM-DD", "first day")
    static let toOption = OptionSpec.value("to", "YYYY-MM-DD", "last day")

    /// Every day.
    init() {}

    init(_ args: ParsedArguments) throws(UsageError) {
        from = try DayRange.day(args, "from")
        to = try DayRange.day(args, "to")
        if let from, let to, from > to { throw UsageError("--from \(from) is after --to \(to)") }
    }

    private static func day(_ args: ParsedArguments, _ name: String) throws(UsageError) -> LocalDay? {
        guard let text = args.value(name) else { return nil }
        guard let day = LocalDay(text) else { throw UsageError("--\(name) must be a date like 2026-03-14, not \(text)") }
        return day
    }
}
