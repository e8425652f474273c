import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRStore
import Synchronization

/// `rhr daemon --watch DIR`: imports every export that lands in DIR (the Health Connect app exports on a
/// schedule to a cloud folder a desktop client mirrors).
///
/// Polls each directory every `interval` seconds. A file is imported once it has stopped growing (the
/// same size, modification time and inode on two looks in a row) and once per content (SHA-256, kept in
/// the `ImportLedger`). Reading and hashing happen on this watch's own thread; only the apply runs on the
/// store's thread. A file is remembered only when it was applied, or refused for what it holds (reported, and the
/// watch goes on); one that something else stood in the way of (a store another process holds, a full disk, a store
/// that cannot be written, a file that cannot be read now, or one that changed while it was read) is tried again,
/// later each time (`retryDelay`), and `rhr status` lists it with why (docs/design.md section 4, the folder watch).
final class FolderWatch: Sendable {
    let directories: [String]
    private let interval: Double
    private let ledger: ImportLedger
    private let worker: StoreWorker
    private let options: ImportOptions
    private let tracker: RevisionTracker
    private let report: @Sendable (WatchImport, StoreNotice) -> Void
    private let log: (@Sendable (String) -> Void)?

    private struct Progress {
        var stopping = false
        var looks = 0
    }
    private let progress = Mutex(Progress())
    /// Signalled by `stop()` and `lookNow()`, so the watch does not sleep out its interval.
    private let wake = DispatchSemaphore(value: 0)

    /// The files waiting to be tried again, by path.
    private let waitingFiles = Mutex<[String: WatchWaiting]>([:])
    /// The longest wait between two tries of a file.
    static let longestRetryDelay: Double = 300
    /// How long an import waits for another process's write lock before the file is tried again later.
    static let busyWait: Double = 1

    /// What the last look saw of a file, and what became of that version.
    private struct Seen {
        var size: Int64
        var modified: timespec
        var inode: ino_t
        var state = State.new

        enum State {
            case new
            /// Imported, or refused for its content, or known by its content: not read again while it stays as it is.
            case handled
            /// To be tried again, not before `next`.
            case waiting(attempts: Int, next: Date)
        }

        func same(as other: Seen) -> Bool {
            size == other.size && inode == other.inode
                && modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec
        }
    }
    /// What the watch's thread remembers from one look to the next; it lives on that thread only.
    private struct Memory {
        var seen: [String: Seen] = [:]
        var missingReported: Set<String> = []
    }

    init(directories: [String], interval: Double, ledger: ImportLedger, worker: StoreWorker, options: ImportOptions,
         tracker: RevisionTracker, log: (@Sendable (String) -> Void)?,
         report: @escaping @Sendable (WatchImport, StoreNotice) -> Void) {
        self.directories = directories
        self.interval = interval
        self.ledger = ledger
        self.worker = worker
        self.options = options
        self.tracker = tracker
        self.log = log
        self.report = report
    }

    /// How many times the watch has looked at its directories.
    var looks: Int { progress.withLock { $0.looks } }

    func start() {
        let thread = Thread { [self] in
            var memory = Memory()
            while !isStopping {
                look(&memory)
                progress.withLock { $0.looks += 1 }
                if !isStopping { _ = wake.wait(timeout: .now() + interval) }
            }
        }
        thread.name = "rhr-watch"
        thread.start()
    }

    /// Stops looking; an import being read is abandoned, one being applied completes on the store thread.
    func stop() {
        let first = progress.withLock { progress in
            defer { progress.stopping = true }
            return !progress.stopping
        }
        if first { wake.signal() }
    }

    /// Looks once more without waiting out the interval (after the look under way, if there is one). Tests drive the
    /// watch look by look with it: with a long interval, a file written in pieces between two calls is seen once per
    /// piece, never twice, however slow the machine.
    func lookNow() { wake.signal() }

    private var isStopping: Bool { progress.withLock { $0.stopping } }

    private func look(_ memory: inout Memory) {
        var present = Set<String>()
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
                if memory.missingReported.insert(directory).inserted { log?("\(directory): cannot list the watched directory; will look again") }
                continue
            }
            memory.missingReported.remove(directory)
            for name in names.sorted() where !FolderWatch.isTemporary(name) {
                if isStopping { return }
                let path = directory + "/" + name
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                present.insert(path)
                let now = Seen(size: Int64(info.st_size), modified: info.st_mtim, inode: info.st_ino)
                guard let before = memory.seen[path], before.same(as: now) else {
                    memory.seen[path] = now
                    continue
                }
                // Unchanged since the last look: it has stopped growing.
                let attempts: Int
                switch before.state {
                case .new where now.size > 0: attempts = 0
                case .waiting(let tried, let next) where Date() >= next: attempts = tried
                default: continue
                }
                switch handle(path, as: now) {
                case .handled:
                    memory.seen[path]?.state = .handled
                    waitingFiles.withLock { _ = $0.removeValue(forKey: path) }
                case .changed:
                    // Still being written: looked at afresh, it is read again once it stops changing.
                    memory.seen[path] = nil
                case .tryAgain(let reason):
                    let next = Date().addingTimeInterval(FolderWatch.retryDelay(attempt: attempts + 1, interval: interval))
                    memory.seen[path]?.state = .waiting(attempts: attempts + 1, next: next)
                    wait(path, reason: reason, attempts: attempts + 1, next: next)
                }
            }
        }
        for path in memory.seen.keys where !present.contains(path) { memory.seen[path] = nil }
        waitingFiles.withLock { waiting in
            for path in waiting.keys where !present.contains(path) { waiting[path] = nil }
        }
    }

    /// The files waiting to be tried again, by name.
    var waiting: [WatchWaiting] { waitingFiles.withLock { $0.values.sorted { $0.file < $1.file } } }

    /// Seconds before the `attempt`th retry: the interval, doubled at each attempt, at most `longestRetryDelay` (or
    /// the interval, when that is longer).
    static func retryDelay(attempt: Int, interval: Double) -> Double {
        min(interval * Double(1 << min(max(attempt - 1, 0), 30)), max(interval, longestRetryDelay))
    }

    /// Notes a file as waiting, and logs why when the reason is new.
    private func wait(_ path: String, reason: String, attempts: Int, next: Date) {
        let said = waitingFiles.withLock { waiting in
            let before = waiting[path]
            waiting[path] = WatchWaiting(file: path, reason: reason, since: before?.since ?? Date(), attempts: attempts, next: next)
            return before?.reason == reason
        }
        if !said { log?("folder watch: \(reason); not imported yet, will try again") }
    }

    /// Names a sync client or a browser gives a file it is still writing, and hidden files.
    static func isTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        let lower = name.lowercased()
        return [".tmp", ".part", ".partial", ".crdownload", ".download", ".swp"].contains { lower.hasSuffix($0) }
    }

    /// What became of one try of a file.
    private enum Handled {
        /// Imported, refused for its content, or imported before: remembered.
        case handled
        /// It changed while it was read: still being written.
        case changed
        /// Something other than its content stood in the way: the reason, naming the file.
        case tryAgain(String)
    }

    private func handle(_ path: String, as seen: Seen) -> Handled {
        let sha256: String
        do {
            sha256 = try SHA256.file(path)
        } catch {
            return .tryAgain(error.message)
        }
        if ledger.contains(sha256) {
            log?("\(path): imported before (same content); skipped")
            return .handled
        }
        var entry = WatchImport(file: path, sha256: sha256, at: Date(), ok: false)
        let imported: ImportedFile
        do {
            // A stopping daemon stops a long copy at once (its temporary files go with it).
            var options = self.options
            options.isCancelled = { [self] in isStopping }
            // A file of sync batches is read as it is applied, on the store's thread (bounded memory).
            imported = try FileImporter.open(path: path, options: options)
            try imported.stream?.readAhead()
        } catch {
            if error.isTransient { return .tryAgain(error.description) }
            if FolderWatch.changed(path, since: seen) { return .changed }
            entry.error = error.description
            finish(entry)
            return .handled
        }
        if FolderWatch.changed(path, since: seen) { return .changed }
        entry.kind = imported.kind.description
        // Applied on the store's thread, where the ledger line is also written, so a shutdown that lets
        // the apply finish also keeps its record.
        let ledger = self.ledger, tracker = self.tracker, log = self.log, read = entry
        let applied: Result<(WatchImport, StoreNotice), Unhandled>? = worker.perform { database in
            var entry = read
            var notice = StoreNotice()
            do {
                let tally: BatchTally, applied: SourceApplication
                // Another process writing the store (an import) holds up no one else: the file is tried again later.
                (tally, notice, applied) = try database.waitingForLocks(atMost: FolderWatch.busyWait) { () throws in
                    try database.apply(from: imported.source, noting: tracker)
                }
                // R14: a file of which not one record could be used kept what it passed over; refused for what it holds.
                entry.ok = applied == .applied
                if applied == .passedOverOnly {
                    entry.error = "nothing in \(path) could be used: "
                        + (imported.unusable ?? PassedOverLog.words(imported.passedOver.total))
                }
                entry.account = entry.ok ? ImportSummary(imported, tally) : nil
                entry.samples = tally.total
                entry.duplicates = tally.duplicates
                entry.revision = entry.ok ? tally.revision : try database.revision()
                entry.days = notice.change?.days ?? []
            } catch {
                // Not refused for what the file says (another process writing, a full disk, a read that failed): nothing
                // is remembered; nor of a file that changed while it was read.
                switch error {
                case let error as StoreError where !error.code.refusesContent:
                    if let detail = error.detail { log?("\(path): \(error.message) (\(detail))") }
                    return .failure(Unhandled(.tryAgain("\(path): \(error.message)")))
                case let error as InputError where error.isTransient:
                    return .failure(Unhandled(.tryAgain(error.description)))
                default:
                    if FolderWatch.changed(path, since: seen) { return .failure(Unhandled(.changed)) }
                }
                entry.error = (error as? StoreError).map { "\(path): \($0.message)" } ?? "\(error)"
                entry.revision = (try? database.revision()) ?? 0
            }
            entry.records = imported.recordsRead
            do throws(DaemonError) { try ledger.record(entry) } catch { log?(error.message) }
            return .success((entry, notice))
        }
        switch applied {
        case nil: return .tryAgain("\(path): the daemon is stopping")
        case .failure(let unhandled): return unhandled.handled
        case .success(let (entry, notice)):
            report(entry, notice)
            return .handled
        }
    }

    /// A try that left the file to be looked at again.
    private struct Unhandled: Error {
        var handled: Handled
        init(_ handled: Handled) { self.handled = handled }
    }

    /// Whether the file at `path` is no longer the version `seen` saw.
    private static func changed(_ path: String, since seen: Seen) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        return !seen.same(as: Seen(size: Int64(info.st_size), modified: info.st_mtim, inode: info.st_ino))
    }

    /// Remembers and reports a file refused for its content.
    private func finish(_ entry: WatchImport) {
        var entry = entry
        if let revision = worker.perform({ database in (try? database.revision()) ?? 0 }) { entry.revision = revision }
        do { try ledger.record(entry) } catch { log?(error.message) }
        report(entry, StoreNotice())
    }
}
