import Foundation
import RHRDaemonClient
import RHRStore
import Synchronization

/// The daemon's one thread that owns the store: `HealthDatabase` is one SQLite connection and is used from
/// this thread only. Jobs run one at a time in the order submitted, so pushes apply in the order the event
/// loop took them; a slow job (a big folder import, another process holding the write lock) delays other
/// store work but never the event loop, which goes on serving every socket.
///
/// The store itself never leaves the worker's thread: it is opened there and handed only to jobs.
final class StoreWorker: Sendable {
    typealias Job = @Sendable (HealthDatabase) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }
    private let queue = Mutex(Queue())
    /// Signalled for every job queued and for `stop()`: the worker waits on it, with a deadline.
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Called on the worker thread every `checkInterval` seconds, between jobs.
    private let periodic: (@Sendable (HealthDatabase) -> Void)?
    private let checkInterval: Double

    /// Opens the store on a new thread and waits until it is open (or failed to open).
    init(storePath: String, machineZone: TimeZone, checkInterval: Double = 1, beforeMigrating: MigrationCheck? = nil,
         periodic: (@Sendable (HealthDatabase) -> Void)? = nil) throws(DaemonError) {
        self.periodic = periodic
        self.checkInterval = checkInterval
        let opened = DispatchSemaphore(value: 0)
        // Written on the worker's thread before `opened.signal()`, read here after `opened.wait()`: ordered.
        nonisolated(unsafe) var openError: DaemonError?
        let thread = Thread { [self] in
            openAndServe(storePath: storePath, machineZone: machineZone, beforeMigrating: beforeMigrating, opened: opened) {
                openError = $0
            }
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
        let queued = queue.withLock { queue in
            guard !queue.stopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { wake.signal() }
        return queued
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
        let first = queue.withLock { queue in
            defer { queue.stopping = true }
            return !queue.stopping
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    /// Opens the store, signals `opened` (after `failed` when it could not), and serves it until `stop()`. The
    /// connection lives in this call only, so it is closed when this returns.
    private func openAndServe(storePath: String, machineZone: TimeZone, beforeMigrating: MigrationCheck?,
                              opened: DispatchSemaphore, failed: (DaemonError) -> Void) {
        let database: HealthDatabase
        do {
            database = try HealthDatabase(path: storePath, machineZone: machineZone, beforeMigrating: beforeMigrating)
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
        func take() -> (jobs: [Job], stopping: Bool) {
            queue.withLock { queue in
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return (queue.jobs, queue.stopping)
            }
        }
        while true {
            var (batch, stopping) = take()
            if batch.isEmpty && !stopping {
                // A signal left over from jobs taken earlier only makes one turn of the loop find nothing.
                let remaining = nextCheck.timeIntervalSinceNow
                if remaining > 0 { _ = wake.wait(timeout: .now() + remaining) }
                (batch, stopping) = take()
            }
            if batch.isEmpty && stopping { return }
            for job in batch { job(database) }
            if Date() >= nextCheck {
                periodic?(database)
                nextCheck = Date().addingTimeInterval(checkInterval)
            }
        }
    }
}
