import Foundation

/// The store revision the daemon itself last saw, kept on the store's thread: when the store's revision
/// moves past it without the daemon's doing, another process (`rhr import`) changed the store.
///
/// `@unchecked Sendable`: `known` is used under `lock` only.
final class RevisionTracker: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Int64 = 0

    init(_ revision: Int64) { known = revision }

    /// After an apply whose batches moved the revision `increments` times: returns the revision when the
    /// store moved by more than that.
    @discardableResult
    func noteApplied(revision: Int64, increments: Int) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        let expected = known + Int64(increments)
        known = max(known, revision)
        return revision > expected ? revision : nil
    }

    /// On a look at the store's revision: returns it when it moved since.
    func noteRead(revision: Int64) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        guard revision > known else { return nil }
        known = revision
        return revision
    }
}
