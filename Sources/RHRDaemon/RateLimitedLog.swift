import RHRCore
import Synchronization

/// Log lines about what a flood can repeat (refusals, store failures), rate-limited so that it cannot fill a disk:
/// of each kind, 30 at once, then one a second; the lines of a kind left out are counted in the next one of that
/// kind said. Kinds (a status, a reason rhr words) are few and chosen by rhr, never by a client, so a flood of one
/// kind never hides that another happened.
final class RateLimitedLog: Sendable {
    private let limiter = RateLimiter(perSecond: 1, burst: 30)
    private let unsaid = Mutex<[String: Int]>([:])
    private let log: (@Sendable (String) -> Void)?
    /// What a line is about, counted in the one after those left out ("refusal").
    private let noun: String

    init(noun: String, log: (@Sendable (String) -> Void)?) {
        self.noun = noun
        self.log = log
    }

    func say(_ line: String, kind: String = "") {
        guard let log else { return }
        guard limiter.take(kind) == nil else {
            unsaid.withLock { $0[kind, default: 0] += 1 }
            return
        }
        let left = unsaid.withLock { $0.removeValue(forKey: kind) ?? 0 }
        log(left > 0 ? "\(line) (and \(Wording.count(left, noun)) like it not logged before it: too many at once)" : line)
    }
}
