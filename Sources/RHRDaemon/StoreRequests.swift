import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRStore

/// A store request's reply line, and what subscribers must hear of after it.
struct StoreAnswer: Sendable {
    var reply: [UInt8]
    var notice = StoreNotice()
}

/// The requests that need the store, run on the store's thread.
enum StoreRequests {
    /// `status` is the reply as far as the loop knows it, for a `status` request (nil for the others): the store's
    /// revision and streams are filled in here. `failed` hears of the store's own failures (not of a batch refused).
    static func answer(_ request: DaemonRequest, id: JSONValue?, database: HealthDatabase, tracker: RevisionTracker,
                       status known: StatusReply?, failed: (StoreError) -> Void = { _ in }) -> StoreAnswer {
        do {
            switch request {
            case .push(let batch):
                let applied = try database.apply([batch], noting: tracker)
                return StoreAnswer(reply: DaemonMessage.ok(id: id, applied.outcomes[0]), notice: applied.notice)
            case .days(let from, let to, let aggregation):
                let days = try database.days(from: from, to: to, aggregation: aggregation)
                return StoreAnswer(reply: DaemonMessage.ok(id: id, DaysReply(aggregation: aggregation, from: from, to: to, days: days)))
            case .cursor(let store, let stream):
                let state = try database.streams().first { $0.store == store && $0.stream == stream }
                return StoreAnswer(reply: DaemonMessage.ok(id: id, CursorReply(store: store, stream: stream, state: state)))
            case .status:
                guard var status = known else { return StoreAnswer(reply: DaemonMessage.ok(id: id)) }
                (status.revision, status.streams) = try database.read { tx throws(StoreError) in (try tx.revision(), try tx.streams()) }
                let external = tracker.noteRead(revision: status.revision)
                return StoreAnswer(reply: DaemonMessage.ok(id: id, status), notice: StoreNotice(externalRevision: external))
            case .hello, .subscribe:
                return StoreAnswer(reply: DaemonMessage.ok(id: id))
            }
        } catch {
            if error.code == .database || error.code == .busy { failed(error) }
            return StoreAnswer(reply: DaemonMessage.error(id: id, ProtocolError(error)))
        }
    }

    /// The daemon's log line for a store failure on a socket request: what failed, for whom, in rhr's words and
    /// SQLite's.
    static func failureLine(_ request: DaemonRequest, client: Int, _ error: StoreError) -> String {
        let what: String
        switch request {
        case .push(let batch): what = "a push from client \(client) (\(batch.store.rawValue)/\(batch.stream))"
        case .days: what = "a days request from client \(client)"
        case .cursor: what = "a cursor request from client \(client)"
        case .status: what = "a status request from client \(client)"
        case .hello, .subscribe: what = "a request from client \(client)"
        }
        return "socket: the store failed on \(what): \(error.message)" + (error.detail.map { " (\($0))" } ?? "")
    }
}
