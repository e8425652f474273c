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
    private let limiter = RateLimiter(perSecond: 1, burst: 30)
    private let unsaid = Atomic<Int>(0)
    private let log: (@Sendable (String) -> Void)?

    init(log: (@Sendable (String) -> Void)?) { self.log = log }

    /// An answer went out: a 2xx is accepted, anything else refused. `reason` is the refusal's code and message.
    func answered(status: Int, token: String?, address: String, reason: String?) {
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
        let who = address + (token.map { ", token \($0)" } ?? "")
        if status >= 500 && status != 503 {
            say("phone feeds: the store failed on a request from \(who): \(status) \(reason ?? "")")
        } else {
            say("phone feeds: refused \(status) to \(who): \(reason ?? "")")
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
        say("phone feeds: refused a connection from \(address): \(reason)")
    }

    /// Every feed's counts, the requests without a token last.
    var all: [FeedRequests] {
        requests.withLock { Array($0.values) }.sorted { ($0.token ?? "\u{10FFFF}") < ($1.token ?? "\u{10FFFF}") }
    }

    func counts(token: String) -> FeedRequests { requests.withLock { $0[token] } ?? FeedRequests(token: token) }

    private func say(_ line: String) {
        guard let log else { return }
        guard limiter.take("log") == nil else {
            unsaid.add(1, ordering: .relaxed)
            return
        }
        let left = unsaid.exchange(0, ordering: .relaxed)
        log(left > 0 ? "\(line) (and \(Wording.count(left, "refusal")) not logged before it: too many at once)" : line)
    }
}
