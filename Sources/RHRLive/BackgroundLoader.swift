import Dispatch
import RHRCore
import RHRDashboard
import RHRSystem
import Synchronization

/// Reads and prepares data off the main thread: ten years take longer than a frame, and the dashboard must
/// keep answering keys meanwhile. A finished load wakes the run loop through a mailbox whose descriptor it
/// watches, the same way a live feed does. One load at a time; a request while one runs is kept (merged) and
/// run after it.
///
/// A live update reads only the days it changed and patches the newest index (`base`); when a patch cannot
/// be exact, or there is no way to read days, it reads everything. Loads run one after another, so each
/// starts from the index the one before produced.
final class BackgroundLoader: Sendable {
    typealias Load = @Sendable () throws -> DashboardData
    typealias LoadDays = @Sendable (Set<LocalDay>) throws -> DashboardDelta
    /// A finished load: the index or why there is none, and what it was for.
    typealias Finished = (result: Result<DashboardIndex, any Error>, reason: LoadReason)

    /// Above this many changed days a patch saves little: read everything.
    static let patchDayLimit = 400

    private struct State {
        var running = false
        var pending: LoadReason?
        /// The newest index: the one on screen, or the last load's.
        var base: DashboardIndex?
    }

    private let load: Load
    private let loadDays: LoadDays?
    private let state = Mutex(State())
    private let finished: WakeupMailbox<Finished>

    init(load: @escaping Load, loadDays: LoadDays? = nil) {
        self.load = load
        self.loadDays = loadDays
        finished = .forRunLoop("background loader")
    }

    /// Readable when a load has finished.
    var fileDescriptor: Int32 { finished.fileDescriptor }

    /// The index on screen before any load: what the first patch starts from.
    func setBase(_ index: DashboardIndex) {
        state.withLock { $0.base = index }
    }

    func start(_ reason: LoadReason) {
        let idle = state.withLock { state in
            if state.running {
                state.pending = state.pending.map { Self.merge($0, reason) } ?? reason
                return false
            }
            state.running = true
            return true
        }
        if idle { run(reason) }
    }

    /// The loads that finished since the last call. A live update's reason names the days that changed.
    func take() -> [Finished] {
        finished.take().messages
    }

    private func run(_ reason: LoadReason) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let base = state.withLock { $0.base }
            let result = Result { try perform(reason, base: base) }
            // Posted while still `running`: a load started after this one cannot finish before it.
            finished.post((result.map { $0.index }, (try? result.get().reason) ?? reason))
            let next = state.withLock { state in
                if case .success(let done) = result { state.base = done.index }
                let next = state.pending
                state.pending = nil
                state.running = next != nil
                return next
            }
            if let next { run(next) }
        }
    }

    private func perform(_ reason: LoadReason, base: DashboardIndex?) throws -> (index: DashboardIndex, reason: LoadReason) {
        guard case .storeChanged(let days, let revision) = reason else { return (DashboardIndex(try load()), reason) }
        if let loadDays, let base, !days.isEmpty, days.count <= Self.patchDayLimit {
            let delta = try loadDays(days)
            // Days read from a snapshot older than the change do not hold it: read everything instead.
            if delta.revision.map({ $0 >= revision }) ?? true, let patch = base.patched(with: delta, revision: revision) {
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

extension WakeupMailbox {
    /// A mailbox for the run loop to hear of work done on another thread (a load, a frame); without one it never
    /// would, so failing to make one stops the program.
    static func forRunLoop(_ purpose: String) -> WakeupMailbox {
        do {
            return try WakeupMailbox(purpose: purpose)
        } catch {
            preconditionFailure(error.message)
        }
    }
}
