import Foundation
import Synchronization

/// Requests per token, as a token bucket: `burst` at once, then `perSecond` in the long run. A phone that sends
/// its automations together is served; one stuck in a loop is told to wait (429), and the others go on.
final class RateLimiter: Sendable {
    private let perSecond: Double
    private let burst: Double
    private struct Bucket {
        var level: Double
        var at: Date
    }
    private let buckets = Mutex<[String: Bucket]>([:])

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
    }

    /// Takes one request from `key`'s bucket: nil when it may go on, else the seconds until it may.
    func take(_ key: String, now: Date = Date()) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(level: burst, at: now)
            bucket.level = min(burst, bucket.level + max(0, now.timeIntervalSince(bucket.at)) * perSecond)
            bucket.at = now
            defer { buckets[key] = bucket }
            guard bucket.level >= 1 else { return perSecond > 0 ? (1 - bucket.level) / perSecond : 60 }
            bucket.level -= 1
            return nil
        }
    }
}
