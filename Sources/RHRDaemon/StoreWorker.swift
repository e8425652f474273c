import Foundation
import RHRStore

/// The daemon's one thread that owns the store: `HealthDatabase` is one SQLite connection and is used from
/// this thread only. Jobs run one at a time in the order submitted, so pushes apply in the order the event
/// loop took them; a slow job (a big folder import, another process holding the write lock) delays other
/// store work but never the event loop, which goes on serving every socket.
///
/// `@unchecked Sendable`: `jobs` and `stopping` are used under `condition` only; the store itself never leaves
/// the worker's thread.
final class StoreWorker: @unchecked Sendable {
    typealias Job = @Sendable (HealthDatabase) -> Void

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [Job] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Called on the worker thread every `checkInterval` seconds, between jobs.
    private let periodic: (@Sendable (HealthDatabase) -> Void)?
    private let checkInterval: Double

    /// Opens the store on a new thread and waits until it is open (or failed to open).
    init(storePath: String, machineZone: TimeZone, checkInterval: Double = 1,
         periodic: (@Sendable (HealthDatabase) -> Void)? = nil) throws(DaemonError) {
        self.periodic = periodic
        self.checkInterval = checkInterval
        let opened = DispatchSemaphore(value: 0)
        // Written on the worker's thread before `opened.signal()`, read here after `opened.wait()`: ordered.
        nonisolated(unsafe) var openError: DaemonError?
        let thread = Thread { [self] in
            openAndServe(storePath: storePath, machineZone: machineZone, opened: opened) { openError = $0 }
            // Only now, with the connection closed: `stop()` promises a closed store.
            finished.signal()
        }
        thread.name = "rhr-store"
        thread.start()
        opened.wait()
        if let openError { throw openError }
    }

    /// Queues a job; false once the worker is stopping (the job is not run).
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Runs `body` on the worker and waits for its result; nil when the worker is stopping.
    func perform<T: Sendable>(_ body: @escaping @Sendable (HealthDatabase) -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        // Written by the job before `done.signal()`, read after `done.wait()`: ordered.
        nonisolated(unsafe) var result: T?
        guard submit({ database in
            result = body(database)
            done.signal()
        }) else { return nil }
        done.wait()
        return result
    }

    /// Finishes the jobs already queued, closes the store and waits for the thread to end.
    func stop() {
        condition.lock()
        let first = !stopping
        stopping = true
        condition.signal()
        condition.unlock()
        if first { finished.wait() }
    }

    /// Opens the store, signals `opened` (after `failed` when it could not), and serves it until `stop()`. The
    /// connection lives in this call only, so it is closed when this returns.
    private func openAndServe(storePath: String, machineZone: TimeZone, opened: DispatchSemaphore,
                              failed: (DaemonError) -> Void) {
        let database: HealthDatabase
        do {
            database = try HealthDatabase(path: storePath, machineZone: machineZone)
        } catch {
            failed(DaemonError(error.message))
            opened.signal()
            return
        }
        opened.signal()
        serve(database)
    }

    private func serve(_ database: HealthDatabase) {
        // The periodic check runs every `checkInterval` seconds however busy the worker is, so a steady
        // stream of requests cannot starve it.
        var nextCheck = Date().addingTimeInterval(checkInterval)
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping && Date() < nextCheck {
                _ = condition.wait(until: nextCheck)
            }
            if jobs.isEmpty && stopping {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job(database) }
            if Date() >= nextCheck {
                periodic?(database)
                nextCheck = Date().addingTimeInterval(checkInterval)
            }
        }
    }
}
