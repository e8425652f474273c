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
/// store's thread. A bad file is reported and skipped; the watch goes on.
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

    /// What the last look saw of a file, and whether that version was handled.
    private struct Seen {
        var size: Int64
        var modified: timespec
        var inode: ino_t
        var handled: Bool

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
                let now = Seen(size: Int64(info.st_size), modified: info.st_mtim, inode: info.st_ino, handled: false)
                guard let before = memory.seen[path], before.same(as: now) else {
                    memory.seen[path] = now
                    continue
                }
                // Unchanged since the last look: it has stopped growing.
                if !before.handled && now.size > 0 {
                    memory.seen[path]?.handled = true
                    handle(path)
                }
            }
        }
        for path in memory.seen.keys where !present.contains(path) { memory.seen[path] = nil }
    }

    /// Names a sync client or a browser gives a file it is still writing, and hidden files.
    static func isTemporary(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        let lower = name.lowercased()
        return [".tmp", ".part", ".partial", ".crdownload", ".download", ".swp"].contains { lower.hasSuffix($0) }
    }

    private func handle(_ path: String) {
        let sha256: String
        do {
            sha256 = try SHA256.file(path)
        } catch {
            log?(error.message)
            return
        }
        if ledger.contains(sha256) {
            log?("\(path): imported before (same content); skipped")
            return
        }
        var entry = WatchImport(file: path, sha256: sha256, at: Date(), ok: false)
        let imported: ImportedFile
        do {
            // A stopping daemon stops a long copy at once (its temporary files go with it).
            var options = self.options
            options.isCancelled = { [self] in isStopping }
            imported = try FileImporter.read(path: path, options: options)
        } catch {
            entry.error = error.description
            finish(entry, remember: true)
            return
        }
        entry.kind = imported.kind.description
        entry.records = imported.recordsRead
        // Applied on the store's thread, where the ledger line is also written, so a shutdown that lets
        // the apply finish also keeps its record.
        let ledger = self.ledger, tracker = self.tracker, log = self.log, read = entry
        let applied: (WatchImport, StoreNotice)? = worker.perform { database in
            var entry = read
            var remember = true
            var notice = StoreNotice()
            do throws(StoreError) {
                let outcomes: [BatchOutcome]
                (outcomes, notice) = try database.apply(imported.batches, noting: tracker)
                entry.ok = true
                for outcome in outcomes {
                    entry.samples += outcome.samples
                    if outcome.duplicate { entry.duplicates += 1 }
                    entry.revision = max(entry.revision, outcome.revision)
                }
                entry.days = notice.change?.days ?? []
            } catch {
                entry.error = "\(path): \(error.message)"
                entry.revision = (try? database.revision()) ?? 0
                // A database failure (a lock held too long, a full disk) may pass: try again after a restart.
                remember = error.code != .database
            }
            if remember {
                do throws(DaemonError) { try ledger.record(entry) } catch { log?(error.message) }
            }
            return (entry, notice)
        }
        guard let applied else { return }   // the daemon is stopping
        report(applied.0, applied.1)
    }

    private func finish(_ entry: WatchImport, remember: Bool) {
        var entry = entry
        if let revision = worker.perform({ database in (try? database.revision()) ?? 0 }) { entry.revision = revision }
        if remember {
            do { try ledger.record(entry) } catch { log?(error.message) }
        }
        report(entry, StoreNotice())
    }
}
