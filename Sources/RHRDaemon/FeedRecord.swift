import Foundation
import RHRCore
import RHRDaemonClient
import Synchronization

/// What the phone feeds answered, per token, and a log line for each refusal and store failure, rate-limited per kind
/// (`RateLimitedLog`: 30 at once, then one a second of each kind; the lines left out are counted in the next one of
/// their kind) so a flood cannot fill a disk, nor one kind hide another.
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
