import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRStore
import RHRSystem

/// `rhr daemon`: one store served over a Unix socket (docs/design.md section 4), and to phones over HTTP when asked
/// (section 4b).
///
/// Threads: the event loop (the thread that calls `run()`) owns every socket and all client state; it
/// never touches the store and never blocks on a client (non-blocking sockets, `poll(2)`). The store
/// thread (`StoreWorker`) owns the store and runs requests one at a time. The folder watch has its own
/// thread, and the HTTP feeds libmicrohttpd's threads (`HTTPFeedServer`), whose requests go to the same store
/// thread. The other threads talk to the loop through `Inbox`, which wakes it with a byte on a pipe.
///
/// `@unchecked Sendable`: the compiler cannot check state that belongs to a thread rather than to a lock, and
/// most of this is such state. The event-loop state is touched by the loop's thread only, or before the loop runs
/// (`init`, and `stop()`/`deinit` while `phase` is `.ready`, under `lifecycle`); `phase` only under
/// `lifecycle`. What other threads may call (`stop`, `waitUntilStopped`, `installSignalHandlers`) reaches the
/// loop through `inbox`.
public final class DaemonServer: @unchecked Sendable {
    public let configuration: DaemonConfiguration
    public var socketPath: String { configuration.socketPath }
    /// The port the phone feeds listen on (the one the system chose for `--http ADDR:0`); nil without `--http`.
    public var httpPort: UInt16? { http?.port }
    /// The most bytes of HTTP request bodies held at once since the start (0 without `--http`).
    public var httpPeakBodyBytes: Int { http?.peakBodyBytes ?? 0 }

    let listener: SocketListener
    let worker: StoreWorker
    let inbox: Inbox
    let tracker: RevisionTracker
    /// The store's failures on socket requests, one line each with SQLite's own words, rate-limited.
    let storeFailures: RateLimitedLog
    let ledger: ImportLedger
    /// Says beside the store that this daemon serves it, for a newer rhr (`DaemonRecord`).
    private var record: DaemonRecord?
    private(set) var watch: FolderWatch?
    let http: HTTPFeedServer?
    let startTime = Date()
    /// Guards `phase`; signalled when the daemon has stopped.
    private let lifecycle = NSCondition()
    private var phase = Phase.ready

    private enum Phase {
        case ready
        case running
        case stopped
    }

    // Event-loop state: used on the loop's thread only.
    var connections: [Int: ClientConnection] = [:]
    var nextConnectionID = 1
    /// Requests handed to the store thread or a parser and not yet answered.
    var busyCount = 0
    /// The newest store revision the loop has heard of.
    var revision: Int64
    var recentImports: [WatchImport]
    var stopping = false
    var stopDeadline = Date.distantFuture
    /// While stopping: since when no request has been in flight.
    var idleSince: Date?
    var acceptPausedUntil: Date?
    /// Out of descriptors: accepting is paused, for longer each time it fails again, and said once.
    var acceptBackoff = 0.0

    /// Lines longer than this are parsed off the loop's thread, so a 16 MiB push never delays others.
    static let inlineParseLimit = 64 << 10

    /// Takes the socket path (refusing a live daemon's, replacing a stale one), opens the store and loads
    /// the folder watch's ledger. Nothing is served until `run()` or `start()`.
    public init(_ configuration: DaemonConfiguration) throws(DaemonError) {
        // What the daemon logs passes the gate: a path or a name from outside is written visibly (`TextGate`).
        var configuration = configuration
        if let log = configuration.log {
            configuration.log = { @Sendable message in log(TextGate.visible(message)) }
        }
        self.configuration = configuration
        storeFailures = RateLimitedLog(noun: "store failure", log: configuration.log)
        for directory in configuration.watchDirectories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DaemonError("\(directory): no such directory to watch")
            }
        }
        listener = try SocketListener(path: configuration.socketPath)
        do {
            inbox = try Inbox(purpose: "daemon")
        } catch {
            listener.close()
            throw DaemonError(error.message)
        }
        let inbox = self.inbox
        let tracker = RevisionTracker(0)
        self.tracker = tracker
        do {
            // Its own socket is not asked: it listens there, but answers no one before it runs.
            let sockets = [SocketPath.defaultPath()].filter { $0 != configuration.socketPath }
            worker = try StoreWorker(storePath: configuration.storePath, machineZone: configuration.machineZone,
                                     checkInterval: configuration.externalChangeInterval,
                                     beforeMigrating: VersionSkew.check(sockets: sockets)) { database in
                // Another process (`rhr import`) may have changed the store: subscribers must reload.
                if let revision = try? database.revision(), let moved = tracker.noteRead(revision: revision) {
                    inbox.post(.externalChange(revision: moved))
                }
            }
        } catch {
            listener.close()
            inbox.close()
            throw error
        }
        let opened = worker.perform { database in Result { () throws(StoreError) in try database.revision() } }
        guard case .success(let current)? = opened else {
            worker.stop()
            listener.close()
            inbox.close()
            if case .failure(let error)? = opened { throw DaemonError(error.message) }
            throw DaemonError("the store could not be read")
        }
        revision = current
        _ = tracker.noteRead(revision: current)
        if let feeds = configuration.http {
            let store = DaemonServer.feedStore(worker: worker, tracker: tracker, inbox: inbox)
            let tokens = FeedTokens(forStore: configuration.storePath, log: configuration.log)
            let feed = PhoneFeed(configuration: feeds, tokens: tokens, store: store, machineZone: configuration.machineZone,
                                 log: configuration.log)
            do throws(DaemonError) {
                let server = try HTTPFeedServer(feed: feed)
                try server.start()
                http = server
            } catch {
                worker.stop()
                listener.close()
                inbox.close()
                throw error
            }
        } else {
            http = nil
        }
        ledger = ImportLedger(path: ImportLedger.path(forStore: configuration.storePath), storeRevision: current,
                              log: configuration.log.map { log in { log($0) } })
        recentImports = ledger.recent
        record = DaemonRecord(store: configuration.storePath, socket: configuration.socketPath) { [log = configuration.log] in
            log?($0)
        }
        if !configuration.watchDirectories.isEmpty {
            var options = ImportOptions(machineZone: configuration.machineZone)
            options.temporaryCopyLimit = configuration.temporaryCopyLimit
            watch = FolderWatch(
                directories: configuration.watchDirectories, interval: configuration.watchInterval, ledger: ledger,
                worker: worker, options: options, tracker: tracker,
                log: configuration.log) { entry, notice in
                    inbox.post(.imported(entry, notice))
                }
        }
    }

    // MARK: - Running and stopping

    /// Serves until `stop()` (or SIGTERM/SIGINT after `installSignalHandlers()`), then finishes the
    /// requests in flight, writes their replies, closes the store and removes the socket.
    public func run() {
        lifecycle.lock()
        let first = phase == .ready
        if first { phase = .running }
        lifecycle.unlock()
        guard first else { return }
        log("listening on \(socketPath) (store \(configuration.storePath), revision \(revision))")
        if let http {
            log("phone feeds on \(http.usesTLS ? "https" : "http")://\(http.address)/v1/ (docs/phone-feeds.md)")
            if !http.unusedAddresses.isEmpty {
                log("--http \(http.feed.configuration.address) also stands for \(http.unusedAddresses.joined(separator: ", ")), "
                    + "not listened on: give the one address phones should post to")
            }
            if http.feed.tokens.isEmpty { log("no tokens yet: every request is refused until `rhr token new NAME` makes one") }
        }
        watch?.start()
        if let watch { log("watching \(watch.directories.joined(separator: ", "))") }
        eventLoop()
        log("stopped")
    }

    /// Runs the daemon on a thread of its own.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "rhr-daemon"
        thread.start()
    }

    /// Asks the daemon to stop; returns at once. Safe from any thread, and again after it stopped. A daemon
    /// that never ran releases its socket and store at once.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        switch phase {
        case .ready:
            phase = .stopped
            releaseResources()
            lifecycle.broadcast()
        case .running:
            inbox.interrupt()
        case .stopped:
            break
        }
    }

    /// Waits until the daemon has stopped; false when `timeout` seconds passed first.
    @discardableResult
    public func waitUntilStopped(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lifecycle.lock()
        defer { lifecycle.unlock() }
        while phase != .stopped {
            if !lifecycle.wait(until: deadline) { break }
        }
        return phase == .stopped
    }

    deinit {
        lifecycle.lock()
        if phase == .ready { releaseResources() }
        lifecycle.unlock()
    }

    /// SIGTERM and SIGINT stop the daemon the way `stop()` does (the handler only writes a byte to the loop's
    /// pipe), SIGHUP calls `onHangup`; SIGPIPE is ignored (writes to a vanished client or log reader fail with EPIPE).
    public func installSignalHandlers() {
        ShutdownSignals.install(wakeFD: inbox.interruptDescriptor)
    }

    func log(_ message: String) { configuration.log?(message) }

    // MARK: - Stopping

    func beginStop() {
        stopping = true
        stopDeadline = Date().addingTimeInterval(configuration.shutdownGrace)
        listener.close()
        http?.quiesce()
        watch?.stop()
        log("stopping: finishing \(busyCount) request\(busyCount == 1 ? "" : "s") in flight")
    }

    func finishStop() {
        if !stopping { beginStop() }
        for connection in Array(connections.values) {
            flush(connection)
            drop(connection)
        }
        lifecycle.lock()
        phase = .stopped
        releaseResources()
        lifecycle.broadcast()
        lifecycle.unlock()
    }

    /// Closes the socket (when still open), lets the store's queued work finish and closes the store.
    func releaseResources() {
        if !stopping {
            stopping = true
            listener.close()
            http?.quiesce()
        }
        watch?.stop()
        // Every HTTP connection closes; what was in flight has been answered (or the grace ran out).
        http?.stop()
        // Requests already queued on the store (and a folder import being applied) complete first.
        worker.stop()
        record?.remove()
        record = nil
        ShutdownSignals.uninstall(wakeFD: inbox.interruptDescriptor)
        inbox.close()
    }
}
