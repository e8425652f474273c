import RHRJSON
import Foundation
import RHRCore
import RHRFormats

/// A reply as a client reads it (docs/design.md section 4): `"ok":true` with the members of its request's
/// answer, or `"ok":false` with the error the daemon refused the request with; the request's `id` echoed.
public struct DaemonReply: Sendable, CustomStringConvertible {
    /// The reply line as sent, for `rhr push --json` and tests of the wire format.
    public let message: JSONObject
    public let id: JSONValue?
    /// Why the request was refused; nil when the reply is `ok`.
    public let error: ProtocolError?

    public var isOK: Bool { error == nil }

    public init(_ message: JSONObject) throws(JSONPathError) {
        let members = JSONMembers(message)
        self.message = message
        id = message["id"]
        if try members.requiredBool("ok") {
            error = nil
        } else {
            let error = try members.requiredMembers("error")
            self.error = ProtocolError(ProtocolError.Code(rawValue: try error.requiredString("code")),
                                       try error.string("message") ?? "")
        }
    }

    /// The member `key` of the reply line.
    public subscript(key: String) -> JSONValue? { message[key] }

    /// The answer of an `ok` reply as `Body`; a refusal, or an answer that does not read as one, is an error.
    public func decode<Body: DaemonReplyBody>(_ type: Body.Type = Body.self) throws(DaemonClientError) -> Body {
        if let error { throw DaemonClientError(.refused, error.description) }
        do {
            return try Body(members: JSONMembers(message))
        } catch {
            throw DaemonClientError(.badMessage, "the daemon's reply does not read as expected: \(error)")
        }
    }

    public var description: String { JSONWriter.string(.object(message)) }
}

/// What an `ok` reply answers: written by the daemon from this type and read back by clients into it, so the
/// keys of each reply are named in one place.
public protocol DaemonReplyBody: Sendable {
    /// Reads the answer from the reply's members (unknown members ignored).
    init(members: JSONMembers) throws(JSONPathError)
    /// The answer's members, written after `ok` and `id`.
    var members: JSONObject { get }
}

/// `hello`: who answers. The daemon makes one; clients read it.
public struct HelloReply: Equatable {
    public var protocolVersion = DaemonProtocol.version
    public var server = "rhr"
    public var version = RHRVersion.current
    /// The commit the daemon was built from (`RHRVersion.build`); nil from an rhr before builds were named.
    public var build: String? = RHRVersion.build
    public var revision: Int64

    public init(revision: Int64) { self.revision = revision }
}

extension HelloReply: DaemonReplyBody {
    public init(members: JSONMembers) throws(JSONPathError) {
        protocolVersion = Int(try members.requiredInteger("protocol"))
        server = try members.requiredString("server")
        version = try members.requiredString("version")
        build = try members.string("build")
        revision = try members.requiredInteger("revision")
    }

    public var members: JSONObject {
        ["protocol": .number(JSONNumber(protocolVersion)), "server": .string(server), "version": .string(version),
         "build": build.map { .string($0) } ?? .null, "revision": .number(JSONNumber(revision))]
    }
}

/// `subscribe`: the revision the subscriber's events start after.
public struct SubscribeReply: DaemonReplyBody, Equatable {
    public var revision: Int64

    public init(revision: Int64) { self.revision = revision }

    public init(members: JSONMembers) throws(JSONPathError) {
        guard try members.requiredBool("subscribed") else { throw members.error("subscribed", "expected true") }
        revision = try members.requiredInteger("revision")
    }

    public var members: JSONObject { ["subscribed": true, "revision": .number(JSONNumber(revision))] }
}

/// `push`: what applying the batch changed.
extension BatchOutcome: DaemonReplyBody {
    public init(members: JSONMembers) throws(JSONPathError) {
        self.init()
        duplicate = try members.requiredBool("duplicate")
        samples = try SampleCounts(members: members) { (key) throws(JSONPathError) in Int(try members.requiredInteger(key)) }
        heartRateSummaries = Int(try members.requiredInteger("heartRate"))
        revision = try members.requiredInteger("revision")
        changedDays = Set(try members.days("days"))
        // A daemon before R14 over the socket does not say it.
        passedOver = Int(try members.integer("passedOver") ?? 0)
        futureDated = try members.objects("futureDated")?.map { (object) throws(JSONPathError) in try FutureDelivery(members: object) } ?? []
    }

    public var members: JSONObject {
        var members: JSONObject = ["duplicate": .bool(duplicate)]
        for (key, value) in samples.members { members[key] = value }
        members["heartRate"] = .number(JSONNumber(heartRateSummaries))
        members["revision"] = .number(JSONNumber(revision))
        members["days"] = DaemonEvent.daysValue(changedDays.sorted())
        members["passedOver"] = .number(JSONNumber(passedOver))
        if !futureDated.isEmpty { members["futureDated"] = .array(futureDated.map { .object($0.members) }) }
        return members
    }
}

/// `days`: one value per writer and day (R7), each as `DayValueJSON` writes it with its provenance.
public struct DaysReply: DaemonReplyBody, Equatable {
    public var aggregation: Aggregation
    public var from: LocalDay?
    public var to: LocalDay?
    public var days: [DayValue]

    public init(aggregation: Aggregation, from: LocalDay?, to: LocalDay?, days: [DayValue]) {
        self.aggregation = aggregation
        self.from = from
        self.to = to
        self.days = days
    }

    public init(members: JSONMembers) throws(JSONPathError) {
        aggregation = try members.requiredDecode("aggregate", #""latest", "lowest" or "mean""#) {
            $0.string.flatMap(Aggregation.init(rawValue:))
        }
        from = try members.day("from")
        to = try members.day("to")
        days = []
        for day in try members.requiredObjects("days") { days.append(try DayValueJSON.decode(day)) }
    }

    public var members: JSONObject {
        var object: JSONObject = ["aggregate": .string(aggregation.rawValue)]
        if let from { object["from"] = .string(from.description) }
        if let to { object["to"] = .string(to.description) }
        object["days"] = .array(days.map { DayValueJSON.encode($0, provenance: true) })
        return object
    }
}

/// `cursor`: where one stream stands.
public struct CursorReply: DaemonReplyBody, Equatable {
    public var store: HealthStore
    public var stream: String
    /// Whether the store has heard from the stream at all.
    public var known: Bool
    public var cursor: String?
    public var asOf: Timestamp?
    public var revision: Int64

    public init(store: HealthStore, stream: String, state: StreamState?) {
        self.store = store
        self.stream = stream
        known = state != nil
        cursor = state?.cursor
        asOf = state?.asOf
        revision = state?.revision ?? 0
    }

    public init(members: JSONMembers) throws(JSONPathError) {
        store = try members.store("store")
        stream = try members.requiredString("stream")
        known = try members.requiredBool("known")
        cursor = try members.stringOrNull("cursor")
        asOf = try members.timestamp("asOf")
        revision = try members.requiredInteger("revision")
    }

    public var members: JSONObject {
        ["store": .string(store.rawValue), "stream": .string(stream), "known": .bool(known),
         "cursor": cursor.map { .string($0) } ?? .null, "asOf": asOf.map { .string($0.iso8601) } ?? .null,
         "revision": .number(JSONNumber(revision))]
    }
}

/// `status`: the daemon, its clients, the store's revision and streams, the folder watch.
public struct StatusReply: DaemonReplyBody, Equatable {
    public var protocolVersion: Int = DaemonProtocol.version
    public var version: String = RHRVersion.current
    /// The commit the daemon was built from; nil from an rhr before builds were named.
    public var build: String? = RHRVersion.build
    public var pid: Int32
    public var socket: String
    public var store: String
    /// Seconds since the daemon started, to a tenth.
    public var uptime: Double
    public var clients: Int
    public var subscribers: Int
    public var revision: Int64
    /// Each stream's cursor, `asOf`, origin and the revision it last changed at.
    public var streams: [StreamState]
    public var watchDirectories: [String]
    public var watchLooks: Int
    /// The folder watch's latest imports, oldest first.
    public var imports: [WatchImport]
    /// The files the folder watch will try again, and why (absent in a reply of an rhr before it retried).
    public var waiting: [WatchWaiting]
    /// The phone feeds, when the daemon listens for HTTP.
    public var http: HTTPFeedStatus?

    public init(pid: Int32, socket: String, store: String, uptime: Double, clients: Int, subscribers: Int,
                revision: Int64, streams: [StreamState], watchDirectories: [String], watchLooks: Int,
                imports: [WatchImport], waiting: [WatchWaiting] = [], http: HTTPFeedStatus? = nil) {
        self.pid = pid
        self.socket = socket
        self.store = store
        self.uptime = (uptime * 10).rounded() / 10
        self.clients = clients
        self.subscribers = subscribers
        self.revision = revision
        self.streams = streams
        self.watchDirectories = watchDirectories
        self.watchLooks = watchLooks
        self.imports = imports
        self.waiting = waiting
        self.http = http
    }

    public init(members: JSONMembers) throws(JSONPathError) {
        protocolVersion = Int(try members.requiredInteger("protocol"))
        version = try members.requiredString("version")
        build = try members.string("build")
        pid = try members.requiredDecode("pid", "a process id") { $0.int64.flatMap { Int32(exactly: $0) } }
        socket = try members.requiredString("socket")
        store = try members.requiredString("store")
        uptime = try members.requiredNumber("uptime")
        clients = Int(try members.requiredInteger("clients"))
        subscribers = Int(try members.requiredInteger("subscribers"))
        revision = try members.requiredInteger("revision")
        streams = []
        for stream in try members.requiredObjects("streams") {
            streams.append(StreamState(store: try stream.store("store"), stream: try stream.requiredString("stream"),
                                       cursor: try stream.stringOrNull("cursor"), asOf: try stream.timestamp("asOf"),
                                       origin: try stream.string("origin") ?? "",
                                       revision: try stream.integer("revision") ?? 0))
        }
        let watch = try members.requiredMembers("watch")
        watchDirectories = try watch.strings("directories") ?? []
        watchLooks = Int(try watch.integer("looks") ?? 0)
        imports = []
        for entry in try watch.objects("imports") ?? [] { imports.append(try WatchImport(members: entry)) }
        waiting = []
        for entry in try watch.objects("waiting") ?? [] { waiting.append(try WatchWaiting(members: entry)) }
        http = try members.members("http").map { http throws(JSONPathError) in
            HTTPFeedStatus(address: try http.requiredString("address"), tls: try http.requiredBool("tls"),
                           requests: Int(try http.integer("requests") ?? 0),
                           feeds: try (http.array("feeds") ?? []).enumerated().map { index, feed throws(JSONPathError) in
                               try FeedRequests(members: JSONMembers(feed, path: "http.feeds[\(index)]"))
                           })
        }
    }

    public var members: JSONObject {
        let streams: [JSONValue] = self.streams.map { stream in
            ["store": .string(stream.store.rawValue), "stream": .string(stream.stream),
             "cursor": stream.cursor.map { .string($0) } ?? .null, "asOf": stream.asOf.map { .string($0.iso8601) } ?? .null,
             "origin": .string(stream.origin), "revision": .number(JSONNumber(stream.revision))]
        }
        let watch: JSONObject = ["directories": .array(watchDirectories.map { .string($0) }),
                                 "looks": .number(JSONNumber(watchLooks)), "imports": .array(imports.map { .object($0.json) }),
                                 "waiting": .array(waiting.map { .object($0.json) })]
        return ["protocol": .number(JSONNumber(protocolVersion)), "version": .string(version),
                "build": build.map { .string($0) } ?? .null,
                "pid": .number(JSONNumber(Int(pid))), "socket": .string(socket), "store": .string(store),
                "uptime": .number(JSONNumber(uptime)), "clients": .number(JSONNumber(clients)),
                "subscribers": .number(JSONNumber(subscribers)), "revision": .number(JSONNumber(revision)),
                "streams": .array(streams), "watch": .object(watch),
                "http": http.map { ["address": .string($0.address), "tls": .bool($0.tls), "requests": .number(JSONNumber($0.requests)),
                                    "feeds": .array($0.feeds.map(\.json))] }
                    ?? .null]
    }
}

/// The phone feeds in a `status` reply: where they listen, whether over TLS, how many requests they answered.
/// Only the daemon and its reply decoder make one.
public struct HTTPFeedStatus: Sendable, Equatable {
    public var address: String
    public var tls: Bool
    public var requests: Int
    /// Each token's accepted and refused requests, and what came without a known token.
    public var feeds: [FeedRequests] = []

    public init(address: String, tls: Bool, requests: Int, feeds: [FeedRequests] = []) {
        self.address = address
        self.tls = tls
        self.requests = requests
        self.feeds = feeds
    }
}

// MARK: - Members the protocol's messages share

extension FutureDelivery {
    /// `{"claim":"asOf","what":"export","claimed":"2099-01-01T…","readAt":"2026-12-05T…"}` (R13).
    package var members: JSONObject {
        ["claim": .string(claim.rawValue), "what": .string(what), "claimed": .string(claimed.iso8601),
         "readAt": .string(readAt.iso8601)]
    }

    package init(members: JSONMembers) throws(JSONPathError) {
        self.init(claim: try members.requiredDecode("claim", #""asOf" or "madeAt""#) { $0.string.flatMap(Claim.init(rawValue:)) },
                  what: try members.requiredString("what"),
                  claimed: try members.requiredDecode("claimed", "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) },
                  readAt: try members.requiredDecode("readAt", "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) })
    }
}

extension SampleCounts {
    /// Each count's key, as a `push` reply and a folder watch import (`WatchImport`) name it, in their order.
    package static var names: [(String, WritableKeyPath<SampleCounts, Int>)] {
        [("added", \.added), ("replaced", \.replaced), ("deleted", \.deleted), ("unchanged", \.unchanged),
         ("outOfRange", \.outOfRange)]
    }

    /// The outcomes a daemon before the account (docs/design.md R14) did not name: read as 0 when absent.
    package static var laterNames: [(String, WritableKeyPath<SampleCounts, Int>)] {
        [("overruled", \.overruled), ("overruledByLaterFile", \.overruledByLaterFile),
         ("overruledByDeletion", \.overruledByDeletion), ("setAside", \.setAside)]
    }

    package var members: JSONObject {
        JSONObject((Self.names + Self.laterNames).map { ($0.0, .number(JSONNumber(self[keyPath: $0.1]))) })
    }

    /// Reads the counts `members` wrote: `required` reads the first five, which every daemon names.
    package init(members: JSONMembers, required: (String) throws(JSONPathError) -> Int) throws(JSONPathError) {
        self.init()
        for (key, path) in Self.names { self[keyPath: path] = try required(key) }
        for (key, path) in Self.laterNames { self[keyPath: path] = Int(try members.integer(key) ?? 0) }
    }
}

extension JSONMembers {
    package func store(_ key: String) throws(JSONPathError) -> HealthStore {
        try requiredDecode(key, #""healthkit" or "healthconnect""#) { $0.string.flatMap(HealthStore.init(rawValue:)) }
    }

    /// A `YYYY-MM-DD` day; null or absent is nil.
    package func day(_ key: String) throws(JSONPathError) -> LocalDay? {
        try decode(key, #"a date like "2026-11-28""#) { $0.string.flatMap(LocalDay.init) }
    }

    /// An array of `YYYY-MM-DD` days.
    package func days(_ key: String) throws(JSONPathError) -> [LocalDay] {
        var days: [LocalDay] = []
        for (i, element) in try requiredArray(key).enumerated() {
            guard let day = element.string.flatMap(LocalDay.init) else {
                throw JSONPathError(path: childPath(key) + "[\(i)]", JSONMembers.expected(#"a date like "2026-11-28""#, element))
            }
            days.append(day)
        }
        return days
    }

    /// An ISO-8601 timestamp with its offset; null or absent is nil.
    package func timestamp(_ key: String) throws(JSONPathError) -> Timestamp? {
        try decode(key, "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) }
    }
}
