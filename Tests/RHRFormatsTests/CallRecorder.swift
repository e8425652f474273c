import Foundation

/// What a `@Sendable` callback (a reader's progress, a test hook) was called with, in order.
final class CallRecorder<Call: Sendable>: @unchecked Sendable {
    // Guarded by `lock`: readers call progress from their own threads.
    private let lock = NSLock()
    private var calls: [Call] = []

    func add(_ call: Call) {
        lock.lock()
        calls.append(call)
        lock.unlock()
    }

    var all: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }
}

/// Progress calls, (bytes done, bytes total).
typealias ProgressLog = CallRecorder<(Int64, Int64)>
