import RHRJSON
import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// Protocol v1 (DESIGN.md section 4): one JSON object per line each way, at most 16 MiB. Requests carry an
/// `op`; replies carry `"ok":true` or `"ok":false,"error":{"code":…,"message":…}` and echo the request's
/// `id` when it had one; events carry an `event` instead of `ok`.
public enum DaemonProtocol {
    public static let version = 1
    public static let maxLineLength = JSONLineFramer.defaultMaxLineLength
    public static let operations = ["hello", "push", "subscribe", "days", "status", "cursor"]
}

/// Why a request failed, as the protocol names it.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, CaseIterable {
        /// The line is not JSON.
        case badJSON = "bad_json"
        /// JSON, but not a request this daemon knows (no or unknown `op`, a field of the wrong type).
        case badRequest = "bad_request"
        /// A push whose batch breaks the batch format or the store's rules (an older export included).
        case invalidBatch = "invalid_batch"
        /// A push that does not continue from its stream's stored cursor.
        case cursorMismatch = "cursor_mismatch"
        /// A line over 16 MiB; the connection is closed after this reply.
        case tooLarge = "too_large"
        /// The store failed; the request changed nothing.
        case internalError = "internal"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The store's refusals in the protocol's words.
    public init(_ error: StoreError) {
        switch error.code {
        case .invalidBatch: self.init(.invalidBatch, error.message)
        case .cursorMismatch: self.init(.cursorMismatch, error.message)
        case .olderSnapshot: self.init(.invalidBatch, "older export: " + error.message)
        case .database: self.init(.internalError, error.message)
        }
    }

    /// A batch error's JSON path is relative to the batch; in a request the batch sits under `batch`.
    public init(batch error: BatchError) {
        let message = error.message
        let head = message.prefix { $0 != ":" && $0 != " " }
        let hasPath = !head.isEmpty && message.dropFirst(head.count).hasPrefix(": ")
        self.init(.invalidBatch, hasPath ? "batch." + message : "batch: " + message)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// A request the daemon understood.
public enum DaemonRequest: Sendable {
    case hello
    case push(SyncBatch)
    case subscribe
    case days(from: LocalDay?, to: LocalDay?, aggregation: Aggregation)
    case status
    case cursor(store: HealthStore, stream: String)

    /// The request as a JSON line's object, for clients.
    public func json(id: JSONValue? = nil) -> JSONValue {
        var object = JSONObject()
        switch self {
        case .hello: object["op"] = "hello"
        case .push(let batch):
            object["op"] = "push"
            if let id { object["id"] = id }
            object["batch"] = SyncBatchJSON.encode(batch)
            return .object(object)
        case .subscribe: object["op"] = "subscribe"
        case .days(let from, let to, let aggregation):
            object["op"] = "days"
            if let from { object["from"] = .string(from.description) }
            if let to { object["to"] = .string(to.description) }
            object["aggregate"] = .string(aggregation.rawValue)
        case .status: object["op"] = "status"
        case .cursor(let store, let stream):
            object["op"] = "cursor"
            object["store"] = .string(store.rawValue)
            object["stream"] = .string(stream)
        }
        if let id { object["id"] = id }
        return .object(object)
    }
}

/// Turns one request line into a request, or into the error its reply carries.
enum RequestDecoder {
    struct Decoded {
        /// The request's `id`, echoed in its reply (also when the request is refused).
        var id: JSONValue?
        var result: Result<DaemonRequest, ProtocolError>
    }

    static func decode(_ line: ArraySlice<UInt8>, machineZone: TimeZone) -> Decoded {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return Decoded(id: nil, result: .failure(ProtocolError(.badJSON, "not JSON: column \(error.column): \(error.messageWithPath)")))
        }
        guard case .object(let object) = value else {
            return Decoded(id: nil, result: .failure(ProtocolError(.badRequest, "a request must be a JSON object, not \(value.kindName)")))
        }
        let id = object["id"]
        do {
            return Decoded(id: id, result: .success(try request(object, machineZone: machineZone)))
        } catch {
            return Decoded(id: id, result: .failure(error))
        }
    }

    private static func request(_ object: JSONObject, machineZone: TimeZone) throws(ProtocolError) -> DaemonRequest {
        let known = DaemonProtocol.operations.joined(separator: ", ")
        guard let opValue = object["op"] else { throw ProtocolError(.badRequest, "op: missing; expected one of \(known)") }
        guard let op = opValue.string else { throw ProtocolError(.badRequest, "op: expected a string, not \(opValue.kindName)") }
        switch op {
        case "hello": return .hello
        case "subscribe": return .subscribe
        case "status": return .status
        case "push":
            guard let batch = object["batch"], !batch.isNull else {
                throw ProtocolError(.badRequest, "batch: missing; a push carries one batch object")
            }
            do {
                return .push(try SyncBatchJSON.decode(batch, machineZone: machineZone, origin: ""))
            } catch {
                throw ProtocolError(batch: error)
            }
        case "days":
            let from = try day(object, "from"), to = try day(object, "to")
            if let from, let to, from > to { throw ProtocolError(.badRequest, "from: \(from) is after to: \(to)") }
            var aggregation = Aggregation.latest
            if let value = object["aggregate"], !value.isNull {
                guard let text = value.string, let chosen = Aggregation(rawValue: text) else {
                    throw ProtocolError(.badRequest, "aggregate: expected \"latest\", \"lowest\" or \"mean\", not \(value)")
                }
                aggregation = chosen
            }
            return .days(from: from, to: to, aggregation: aggregation)
        case "cursor":
            guard let storeText = object["store"]?.string, let store = HealthStore(rawValue: storeText) else {
                throw ProtocolError(.badRequest, "store: expected \"healthkit\" or \"healthconnect\"")
            }
            guard let stream = object["stream"]?.string, !stream.isEmpty else {
                throw ProtocolError(.badRequest, "stream: expected the stream's name, a non-empty string")
            }
            return .cursor(store: store, stream: stream)
        default:
            throw ProtocolError(.badRequest, "op: unknown operation \"\(op)\"; expected one of \(known)")
        }
    }

    private static func day(_ object: JSONObject, _ key: String) throws(ProtocolError) -> LocalDay? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.string, let day = LocalDay(text) else {
            throw ProtocolError(.badRequest, "\(key): expected a date like \"2026-11-28\", not \(value)")
        }
        return day
    }
}

/// The JSON lines the daemon writes.
enum DaemonMessage {
    static func line(_ value: JSONValue) -> [UInt8] {
        var bytes = JSONWriter.bytes(value)
        bytes.append(0x0A)
        return bytes
    }

    static func ok(id: JSONValue?, _ members: [(String, JSONValue)] = []) -> [UInt8] {
        var object = JSONObject()
        object["ok"] = true
        if let id { object["id"] = id }
        for (key, value) in members { object[key] = value }
        return line(.object(object))
    }

    static func error(id: JSONValue?, _ error: ProtocolError) -> [UInt8] {
        var object = JSONObject()
        object["ok"] = false
        if let id { object["id"] = id }
        object["error"] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        return line(.object(object))
    }

    static func event(_ name: String, _ members: [(String, JSONValue)]) -> [UInt8] {
        var object = JSONObject()
        object["event"] = .string(name)
        for (key, value) in members { object[key] = value }
        return line(.object(object))
    }

    static func changed(revision: Int64, days: [LocalDay]) -> [UInt8] {
        event("changed", [("revision", int(revision)), ("days", .array(days.map { .string($0.description) }))])
    }

    /// What a push changed, as its reply says it.
    static func pushed(id: JSONValue?, _ outcome: BatchOutcome) -> [UInt8] {
        ok(id: id, [
            ("duplicate", .bool(outcome.duplicate)),
            ("added", int(outcome.added)),
            ("replaced", int(outcome.replaced)),
            ("deleted", int(outcome.deleted)),
            ("unchanged", int(outcome.unchanged)),
            ("outOfRange", int(outcome.outOfRange)),
            ("heartRate", int(outcome.heartRateSummaries)),
            ("revision", int(outcome.revision)),
            ("days", .array(outcome.changedDays.sorted().map { .string($0.description) })),
        ])
    }

    /// One writer's value for one day (R1: store and writer named; R3: provisional with its asOf).
    static func dayValue(_ day: DayValue) -> JSONValue {
        var object = JSONObject()
        object["date"] = .string(day.day.description)
        object["store"] = .string(day.store.rawValue)
        object["writer"] = .string(day.writer.name)
        if let app = day.writer.appName { object["appName"] = .string(app) }
        object["aggregate"] = .string(day.aggregation.rawValue)
        object["bpm"] = day.bpm.map(number) ?? .null
        object["samples"] = int(day.samples)
        object["outOfRange"] = int(day.outOfRange)
        object["provisional"] = .bool(day.provisional)
        object["offsetAssumed"] = .bool(day.offsetAssumed)
        object["asOf"] = day.asOf.map { .string($0.iso8601) } ?? .null
        return .object(object)
    }

    static func stream(_ stream: StreamState) -> JSONValue {
        var object = JSONObject()
        object["store"] = .string(stream.store.rawValue)
        object["stream"] = .string(stream.stream)
        object["cursor"] = stream.cursor.map { .string($0) } ?? .null
        object["asOf"] = stream.asOf.map { .string($0.iso8601) } ?? .null
        object["origin"] = .string(stream.origin)
        object["revision"] = int(stream.revision)
        return .object(object)
    }

    static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
    static func int(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }

    /// Integral values as integers (`58`), others as they are (`57.5`).
    static func number(_ value: Double) -> JSONValue {
        if value == value.rounded(), abs(value) < 1e15 { return .number(JSONNumber(Int64(value))) }
        return .number(JSONNumber(value))
    }
}
