import RHRCore
import Synchronization

/// Log lines about what a flood can repeat (refusals, store failures), rate-limited so that it cannot fill a disk:
/// 30 at once, then one a second; the lines left out are counted in the next one said.
final class RateLimitedLog: Sendable {
    private let limiter = RateLimiter(perSecond: 1, burst: 30)
    private let unsaid = Atomic<Int>(0)
    private let log: (@Sendable (String) -> Void)?
    /// What a line is about, counted in the one after those left out ("refusal").
    private let noun: String

    init(noun: String, log: (@Sendable (String) -> Void)?) {
        self.noun = noun
        self.log = log
    }

    func say(_ line: String) {
        guard let log else { return }
        guard limiter.take("log") == nil else {
            unsaid.add(1, ordering: .relaxed)
            return
        }
        let left = unsaid.exchange(0, ordering: .relaxed)
        log(left > 0 ? "\(line) (and \(Wording.count(left, noun)) not logged before it: too many at once)" : line)
    }
}
