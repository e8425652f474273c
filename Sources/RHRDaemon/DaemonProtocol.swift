import RHRJSON
import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// Protocol v1 (docs/design.md section 4): one JSON object per line each way, at most 16 MiB. Requests carry an
/// `op`; replies carry `"ok":true` or `"ok":false,"error":{"code":…,"message":…}` and echo the request's
/// `id` when it had one; events carry an `event` instead of `ok`.
public enum DaemonProtocol {
    public static let version = 1
    public static let maxLineLength = JSONLineFramer.defaultMaxLineLength
    public static let operations = ["hello", "push", "subscribe", "days", "status", "cursor"]
}

/// Why a request failed, as the protocol names it: what the daemon replies, and what a client reads back.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The protocol's error codes. Not an enumeration: a client keeps a newer daemon's code as it was sent.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The line is not JSON.
        public static let badJSON = Code(rawValue: "bad_json")
        /// JSON, but not a request this daemon knows (no or unknown `op`, a field of the wrong type).
        public static let badRequest = Code(rawValue: "bad_request")
        /// A push whose batch breaks the batch format or the store's rules (an older export included).
        public static let invalidBatch = Code(rawValue: "invalid_batch")
        /// A push that does not continue from its stream's stored cursor.
        public static let cursorMismatch = Code(rawValue: "cursor_mismatch")
        /// A line over 16 MiB; the connection is closed after this reply.
        public static let tooLarge = Code(rawValue: "too_large")
        /// The store failed; the request changed nothing.
        public static let internalError = Code(rawValue: "internal")
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
        case .database, .busy: self.init(.internalError, error.message)
        }
    }

    /// A batch error's JSON path is relative to the batch; in a request the batch sits under `batch`.
    public init(batch error: BatchError) {
        self.init(.invalidBatch, error.within("batch").description)
    }

    /// A line of sync batches that gives no batch, with its place (`SyncBatchLines`).
    public init(_ refusal: SyncBatchLines.Refusal) {
        switch refusal.kind {
        case .tooLong: self.init(.tooLarge, refusal.description)
        case .notJSON: self.init(.badJSON, "not JSON: " + refusal.description)
        case .invalidBatch: self.init(.invalidBatch, refusal.description)
        }
    }

    /// A request that is JSON but not one this daemon knows, with the place that is wrong.
    init(request error: JSONPathError) {
        self.init(.badRequest, error.description)
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
            // One line: its column and the JSON path say where.
            let place = InputPlace(column: error.column, path: error.path)
            return Decoded(id: nil, result: .failure(ProtocolError(.badJSON, "not JSON: " + place.words(error.message))))
        }
        guard case .object(let object) = value else {
            return Decoded(id: nil, result: .failure(ProtocolError(.badRequest, "a request must be a JSON object, not \(value.kindName)")))
        }
        let id = object["id"]
        do {
            return Decoded(id: id, result: .success(try request(JSONMembers(object), machineZone: machineZone)))
        } catch {
            return Decoded(id: id, result: .failure(error))
        }
    }

    private static func request(_ request: JSONMembers, machineZone: TimeZone) throws(ProtocolError) -> DaemonRequest {
        let known = DaemonProtocol.operations.joined(separator: ", ")
        let op: String
        do {
            op = try request.requiredString("op", why: "expected one of \(known)")
        } catch {
            throw ProtocolError(request: error)
        }
        if op == "push" {
            guard let batch = request.value("batch") else {
                throw ProtocolError(request: request.error("batch", "missing; a push carries one batch object"))
            }
            do {
                return .push(try SyncBatchJSON.decode(batch, machineZone: machineZone, origin: ""))
            } catch {
                throw ProtocolError(batch: error)
            }
        }
        do throws(JSONPathError) {
            switch op {
            case "hello": return .hello
            case "subscribe": return .subscribe
            case "status": return .status
            case "days":
                let from = try request.day("from"), to = try request.day("to")
                if let from, let to, from > to { throw request.error("from", "\(from) is after to: \(to)") }
                let aggregation = try request.decode("aggregate", #""latest", "lowest" or "mean""#) {
                    $0.string.flatMap(Aggregation.init(rawValue:))
                }
                return .days(from: from, to: to, aggregation: aggregation ?? .latest)
            case "cursor":
                let store = try request.store("store")
                return .cursor(store: store, stream: try request.requiredString("stream", why: "the stream's name"))
            default:
                throw request.error("op", "unknown operation \"\(op)\"; expected one of \(known)")
            }
        } catch {
            throw ProtocolError(request: error)
        }
    }
}

/// The JSON lines the daemon writes: replies from their `DaemonReplyBody`, events from `DaemonEvent`.
enum DaemonMessage {
    static func line(_ object: JSONObject) -> [UInt8] {
        var bytes = JSONWriter.bytes(.object(object))
        bytes.append(0x0A)
        return bytes
    }

    /// `{"ok":true,"id":…}`.
    static func ok(id: JSONValue?) -> [UInt8] { line(okObject(id: id)) }

    /// `{"ok":true,"id":…,…}` with the answer's members.
    static func ok(id: JSONValue?, _ body: some DaemonReplyBody) -> [UInt8] {
        var object = okObject(id: id)
        for (key, value) in body.members { object[key] = value }
        return line(object)
    }

    private static func okObject(id: JSONValue?) -> JSONObject {
        var object: JSONObject = ["ok": true]
        if let id { object["id"] = id }
        return object
    }

    static func error(id: JSONValue?, _ error: ProtocolError) -> [UInt8] {
        var object: JSONObject = ["ok": false]
        if let id { object["id"] = id }
        object["error"] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
        return line(object)
    }

    static func event(_ event: DaemonEvent) -> [UInt8] { line(event.message) }
}
