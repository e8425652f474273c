import RHRJSON
import RHRCore

/// One writer's value for one day as JSON: the one encoder behind `rhr export --format json` and the daemon's
/// `days` reply, so both write the same keys and the same numbers.
///
/// The keys are the CSV header's (docs/design.md section 5), in its order:
/// `date, store, writer, writer_name, aggregate, bpm, samples, provisional, offset_assumed, out_of_range,
/// implausible_date`; `writer_name` is the name the dashboard shows (`Writer.shortName`: a Health Connect app's name
/// beside its package in `writer`). `bpm` is the number
/// `RestingValue.format` writes (R6: `58`, `58.5`, a mean `56.0`), null without a valid sample. With
/// `provenance` (the daemon's reply) two keys follow that the CSV has no column for: the writer's `appName` when
/// known (R2) and the `asOf` its value was read at (R3), null when unknown. With `derivation` (`rhr export`), its
/// registry id (R15) follows last, as the CSV's last column.
public enum DayValueJSON {
    public static let keys = ["date", "store", "writer", "writer_name", "aggregate", "bpm", "samples"]
        + DayFlag.allCases.map(\.column)

    public static func encode(_ day: DayValue, provenance: Bool = false, derivation: String? = nil) -> JSONValue {
        var object = JSONObject()
        object["date"] = .string(day.day.description)
        object["store"] = .string(day.store.rawValue)
        object["writer"] = .string(day.writer.name)
        object["writer_name"] = .string(day.writer.shortName)
        object["aggregate"] = .string(day.aggregation.rawValue)
        object["bpm"] = day.bpm == nil ? .null : number(day.bpmText)
        object["samples"] = .number(JSONNumber(day.samples))
        object[DayFlag.provisional.column] = .bool(day.provisional)
        object[DayFlag.offsetAssumed.column] = .bool(day.offsetAssumed)
        object[DayFlag.outOfRange.column] = .number(JSONNumber(day.outOfRange))
        object[DayFlag.implausibleDate.column] = .number(JSONNumber(day.implausibleDate))
        if provenance {
            if let app = day.writer.appName { object["appName"] = .string(app) }
            object["asOf"] = day.asOf.map { .string($0.iso8601) } ?? .null
        }
        if let derivation { object["derivation"] = .string(derivation) }
        return .object(object)
    }

    /// A day value read back (a daemon client reading `days`). The bpm is the one written: rounded as shown.
    public static func decode(_ members: JSONMembers) throws(JSONPathError) -> DayValue {
        let day = try members.requiredDecode("date", #"a date like "2026-11-28""#) { $0.string.flatMap(LocalDay.init) }
        let store = try members.requiredDecode("store", #""healthkit" or "healthconnect""#) {
            $0.string.flatMap(HealthStore.init(rawValue:))
        }
        let writer = Writer(store: store, name: try members.requiredString("writer"), appName: try members.string("appName"))
        let aggregation = try members.requiredDecode("aggregate", #""latest", "lowest" or "mean""#) {
            $0.string.flatMap(Aggregation.init(rawValue:))
        }
        return DayValue(day: day, writer: writer, aggregation: aggregation, bpm: try members.number("bpm"),
                        samples: Int(try members.requiredInteger("samples")),
                        outOfRange: Int(try members.requiredInteger(DayFlag.outOfRange.column)),
                        implausibleDate: Int(try members.integer(DayFlag.implausibleDate.column) ?? 0),
                        provisional: try members.requiredBool(DayFlag.provisional.column),
                        offsetAssumed: try members.requiredBool(DayFlag.offsetAssumed.column),
                        asOf: try members.decode("asOf", "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) })
    }

    /// The JSON number whose text is `text` exactly: `58` as an integer, `58.5` and `56.0` as decimals.
    static func number(_ text: String) -> JSONValue {
        if let integer = Int64(text) { return .number(JSONNumber(integer)) }
        return Double(text).map { .number(JSONNumber($0)) } ?? .null
    }
}
