import Foundation
import RHRCore
import RHRJSON
import Synchronization

/// A refused HTTP request (or connection): when, its status (0 for a connection closed without an answer) and why.
public struct FeedRefusal: Sendable, Equatable {
    public var at: Date
    public var status: Int
    public var reason: String

    public init(at: Date, status: Int, reason: String) {
        self.at = at
        self.status = status
        self.reason = reason
    }
}

/// One phone feed's answers since the daemon started: so a user whose app says "success" can see which side failed.
/// `token` nil counts what came with no known token (and connections refused before a request).
public struct FeedRequests: Sendable, Equatable {
    public var token: String?
    public var accepted = 0
    public var refused = 0
    public var lastRefusal: FeedRefusal?

    public init(token: String?) { self.token = token }

    var json: JSONValue {
        ["token": token.map { .string($0) } ?? .null, "accepted": .number(JSONNumber(accepted)),
         "refused": .number(JSONNumber(refused)),
         "lastRefusal": lastRefusal.map { refusal in
             ["at": .string(Timestamp(date: refusal.at, offsetSeconds: 0).iso8601), "status": .number(JSONNumber(refusal.status)),
              "reason": .string(refusal.reason)] } ?? .null]
    }

    init(members: JSONMembers) throws(JSONPathError) {
        token = try members.stringOrNull("token")
        accepted = Int(try members.integer("accepted") ?? 0)
        refused = Int(try members.integer("refused") ?? 0)
        lastRefusal = try members.members("lastRefusal").map { refusal throws(JSONPathError) in
            FeedRefusal(at: try refusal.requiredDecode("at", "a time") { $0.string.flatMap(Timestamp.parse)?.date },
                        status: Int(try refusal.integer("status") ?? 0), reason: try refusal.requiredString("reason"))
        }
    }
}

/// What the phone feeds answered, per token, and a log line for each refusal and store failure, rate-limited (30 at
/// once, then one a second; the lines left out are counted in the next one) so a flood cannot fill a disk.
final class FeedRecord: Sendable {
    private let requests = Mutex<[String?: FeedRequests]>([:])
    private let log: RateLimitedLog

    init(log: (@Sendable (String) -> Void)?) { self.log = RateLimitedLog(noun: "refusal", log: log) }

    /// An answer went out: a 2xx is accepted, anything else refused (`reason`, the refusal's code and message). The
    /// store's failures are logged with SQLite's own words (`detail`), as are those of the lines of a 200 answer to
    /// `/v1/batches` (`storeFailures`).
    func answered(_ answer: HTTPAnswer, token: String?, address: String) {
        let status = answer.status, reason = answer.reason
        let who = address + (token.map { ", token \($0)" } ?? "")
        for failure in answer.storeFailures { log.say("phone feeds: the store failed on a request from \(who): \(failure)", kind: "store") }
        let refused = !(200..<300).contains(status)
        requests.withLock { all in
            var feed = all[token] ?? FeedRequests(token: token)
            if refused {
                feed.refused += 1
                feed.lastRefusal = FeedRefusal(at: Date(), status: status, reason: reason ?? "status \(status)")
            } else {
                feed.accepted += 1
            }
            all[token] = feed
        }
        guard refused else { return }
        if status >= 500 && status != 503 {
            log.say("phone feeds: the store failed on a request from \(who): \(status) \(reason ?? "")"
                + (answer.detail.map { " (\($0))" } ?? ""), kind: "store")
        } else {
            log.say("phone feeds: refused \(status) to \(who): \(reason ?? "")", kind: "\(status)")
        }
    }

    /// A connection closed without an answer (too many from its address, a request head or body too slow).
    func connectionRefused(address: String, reason: String) {
        requests.withLock { all in
            var feed = all[nil] ?? FeedRequests(token: nil)
            feed.refused += 1
            feed.lastRefusal = FeedRefusal(at: Date(), status: 0, reason: reason)
            all[nil] = feed
        }
        log.say("phone feeds: refused a connection from \(address): \(reason)", kind: reason)
    }

    /// Every feed's counts, the requests without a token last.
    var all: [FeedRequests] {
        requests.withLock { Array($0.values) }.sorted { ($0.token ?? "\u{10FFFF}") < ($1.token ?? "\u{10FFFF}") }
    }

    func counts(token: String) -> FeedRequests { requests.withLock { $0[token] } ?? FeedRequests(token: token) }
}
