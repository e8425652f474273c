import Dispatch
import Foundation

/// Reads and prepares data off the main thread: ten years take longer than a frame, and the dashboard must
/// keep answering keys meanwhile. A finished load wakes the run loop through a pipe it watches, the same way
/// a live feed does. One load at a time; a request while one runs is kept (merged) and run after it.
final class BackgroundLoader: @unchecked Sendable {
    typealias Load = @Sendable () throws -> DashboardData

    private let load: Load
    /// Guarded by `lock`.
    private let lock = NSLock()
    private var running = false
    private var pending: LoadReason?
    private var finished: [(Result<DashboardIndex, Error>, LoadReason)] = []
    private let readEnd: Int32
    private let writeEnd: Int32

    init(load: @escaping Load) {
        self.load = load
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        readEnd = fds[0]
        writeEnd = fds[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Readable when a load has finished.
    var fileDescriptor: Int32 { readEnd }

    func start(_ reason: LoadReason) {
        lock.lock()
        if running {
            pending = pending.map { Self.merge($0, reason) } ?? reason
            lock.unlock()
            return
        }
        running = true
        lock.unlock()
        run(reason)
    }

    /// The loads that finished since the last call.
    func take() -> [(Result<DashboardIndex, Error>, LoadReason)] {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) > 0 {}
        lock.lock()
        defer { lock.unlock() }
        let done = finished
        finished = []
        return done
    }

    private func run(_ reason: LoadReason) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try DashboardIndex(load()) }
            lock.lock()
            finished.append((result, reason))
            let next = pending
            pending = nil
            running = next != nil
            lock.unlock()
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
            if let next { run(next) }
        }
    }

    /// Two requests as one: the days of both store changes; a reload or the history covers everything.
    static func merge(_ a: LoadReason, _ b: LoadReason) -> LoadReason {
        switch (a, b) {
        case (.storeChanged(let x), .storeChanged(let y)): return .storeChanged(x.union(y))
        case (.history, _), (_, .history): return .history
        default: return .reload
        }
    }
}
