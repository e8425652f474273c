import Dispatch
import Foundation
import RHRCore

/// Reads and prepares data off the main thread: ten years take longer than a frame, and the dashboard must
/// keep answering keys meanwhile. A finished load wakes the run loop through a pipe it watches, the same way
/// a live feed does. One load at a time; a request while one runs is kept (merged) and run after it.
///
/// A live update reads only the days it changed and patches the newest index (`base`); when a patch cannot
/// be exact, or there is no way to read days, it reads everything. Loads run one after another, so each
/// starts from the index the one before produced.
///
/// `@unchecked Sendable`: `running`, `pending`, `finished` and `base` are read and written under `lock` only;
/// everything else is set in `init` and never changes (the closures are `@Sendable`).
final class BackgroundLoader: @unchecked Sendable {
    typealias Load = @Sendable () throws -> DashboardData
    typealias LoadDays = @Sendable (Set<LocalDay>) throws -> DashboardDelta

    /// Above this many changed days a patch saves little: read everything.
    static let patchDayLimit = 400

    private let load: Load
    private let loadDays: LoadDays?
    /// Guarded by `lock`.
    private let lock = NSLock()
    private var running = false
    private var pending: LoadReason?
    private var finished: [(Result<DashboardIndex, Error>, LoadReason)] = []
    /// The newest index: the one on screen, or the last load's.
    private var base: DashboardIndex?
    private let readEnd: Int32
    private let writeEnd: Int32

    init(load: @escaping Load, loadDays: LoadDays? = nil) {
        self.load = load
        self.loadDays = loadDays
        var fds: [Int32] = [-1, -1]
        // Without it the ends would stay 0, stdin: the loop would read the keyboard as finished loads.
        precondition(pipe(&fds) == 0, "cannot create the background loader's wake-up pipe: \(String(cString: strerror(errno)))")
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

    /// The index on screen before any load: what the first patch starts from.
    func setBase(_ index: DashboardIndex) {
        lock.lock()
        base = index
        lock.unlock()
    }

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

    /// The loads that finished since the last call. A live update's reason names the days that changed.
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
            lock.lock()
            let base = self.base
            lock.unlock()
            let result = Result { try perform(reason, base: base) }
            lock.lock()
            if case .success(let done) = result { self.base = done.index }
            finished.append((result.map { $0.index }, (try? result.get().reason) ?? reason))
            let next = pending
            pending = nil
            running = next != nil
            lock.unlock()
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
            if let next { run(next) }
        }
    }

    private func perform(_ reason: LoadReason, base: DashboardIndex?) throws -> (index: DashboardIndex, reason: LoadReason) {
        guard case .storeChanged(let days, let revision) = reason else { return (DashboardIndex(try load()), reason) }
        if let loadDays, let base, !days.isEmpty, days.count <= Self.patchDayLimit {
            let delta = try loadDays(days)
            if let patch = base.patched(with: delta, revision: revision) {
                return (patch.index, .storeChanged(patch.changedDays, revision: revision))
            }
        }
        // Days unknown (a resync) or no patch possible: read everything and mark what differs.
        let index = DashboardIndex(try load())
        let changed = base.flatMap { $0.data.isPartial ? nil : index.changedDays(comparedTo: $0) } ?? []
        return (index, .storeChanged(changed, revision: index.revision))
    }

    /// Two requests as one: the days of both store changes (unknown days stay unknown); a reload or the
    /// history covers everything.
    static func merge(_ a: LoadReason, _ b: LoadReason) -> LoadReason {
        switch (a, b) {
        case (.storeChanged(let x, let r), .storeChanged(let y, let s)):
            return .storeChanged(x.isEmpty || y.isEmpty ? [] : x.union(y), revision: max(r, s))
        case (.history, _), (_, .history): return .history
        default: return .reload
        }
    }
}
