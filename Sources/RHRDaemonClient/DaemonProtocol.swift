import RHRJSON
import Foundation
import RHRCore
import RHRFormats

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
    package init(request error: JSONPathError) {
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
