import RHRJSON
import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// What the event loop knows for a `status` reply, copied when the request is taken.
struct StatusContext: Sendable {
    var pid: Int32
    var socket: String
    var store: String
    var uptime: Double
    var clients: Int
    var subscribers: Int
    var watchDirectories: [String]
    var watchLooks: Int
    var imports: [WatchImport]
}

/// A store request's reply line, the change subscribers hear of, and whether the store had moved without
/// the daemon before it.
struct StoreAnswer: Sendable {
    var reply: [UInt8]
    var change: Change?
    var externalRevision: Int64?
}

/// The requests that need the store, run on the store's thread.
enum StoreRequests {
    /// `status` is what the loop knows for a `status` request (nil for the others).
    static func answer(_ request: DaemonRequest, id: JSONValue?, database: HealthDatabase, tracker: RevisionTracker,
                       status context: StatusContext?) -> StoreAnswer {
        do {
            switch request {
            case .push(let batch):
                let outcome = try database.apply(batch)
                let changed = outcome.changedSomething && !outcome.duplicate
                let external = tracker.noteApplied(revision: outcome.revision, increments: changed ? 1 : 0)
                return StoreAnswer(reply: DaemonMessage.pushed(id: id, outcome),
                                   change: changed ? Change(revision: outcome.revision, days: outcome.changedDays.sorted()) : nil,
                                   externalRevision: external)
            case .days(let from, let to, let aggregation):
                let days = try database.days(from: from, to: to, aggregation: aggregation)
                var members: [(String, JSONValue)] = [("aggregate", .string(aggregation.rawValue))]
                if let from { members.append(("from", .string(from.description))) }
                if let to { members.append(("to", .string(to.description))) }
                members.append(("days", .array(days.map(DaemonMessage.dayValue))))
                return StoreAnswer(reply: DaemonMessage.ok(id: id, members))
            case .cursor(let store, let stream):
                let state = try database.streams().first { $0.store == store && $0.stream == stream }
                return StoreAnswer(reply: DaemonMessage.ok(id: id, [
                    ("store", .string(store.rawValue)), ("stream", .string(stream)), ("known", .bool(state != nil)),
                    ("cursor", state?.cursor.map { .string($0) } ?? .null),
                    ("asOf", state?.asOf.map { .string($0.iso8601) } ?? .null),
                    ("revision", DaemonMessage.int(state?.revision ?? 0)),
                ]))
            case .status:
                guard let context else { return StoreAnswer(reply: DaemonMessage.ok(id: id)) }
                let revision = try database.revision()
                let streams = try database.streams()
                let external = tracker.noteRead(revision: revision)
                var watch = JSONObject()
                watch["directories"] = .array(context.watchDirectories.map { .string($0) })
                watch["looks"] = DaemonMessage.int(context.watchLooks)
                watch["imports"] = .array(context.imports.map { .object($0.json) })
                return StoreAnswer(reply: DaemonMessage.ok(id: id, [
                    ("protocol", DaemonMessage.int(DaemonProtocol.version)), ("version", .string(RHRVersion.current)),
                    ("pid", DaemonMessage.int(Int(context.pid))), ("socket", .string(context.socket)),
                    ("store", .string(context.store)), ("uptime", .number(JSONNumber((context.uptime * 10).rounded() / 10))),
                    ("clients", DaemonMessage.int(context.clients)), ("subscribers", DaemonMessage.int(context.subscribers)),
                    ("revision", DaemonMessage.int(revision)), ("streams", .array(streams.map(DaemonMessage.stream))),
                    ("watch", .object(watch)),
                ]), externalRevision: external)
            case .hello, .subscribe:
                return StoreAnswer(reply: DaemonMessage.ok(id: id))
            }
        } catch {
            return StoreAnswer(reply: DaemonMessage.error(id: id, ProtocolError(error)))
        }
    }
}
