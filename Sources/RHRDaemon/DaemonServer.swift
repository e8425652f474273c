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

    private let listener: SocketListener
    private let worker: StoreWorker
    private let inbox: Inbox
    private let tracker: RevisionTracker
    /// The store's failures on socket requests, one line each with SQLite's own words, rate-limited.
    private let storeFailures: RateLimitedLog
    private let ledger: ImportLedger
    private(set) var watch: FolderWatch?
    private let http: HTTPFeedServer?
    private let startTime = Date()
    /// Guards `phase`; signalled when the daemon has stopped.
    private let lifecycle = NSCondition()
    private var phase = Phase.ready

    private enum Phase {
        case ready
        case running
        case stopped
    }

    // Event-loop state: used on the loop's thread only.
    private var connections: [Int: ClientConnection] = [:]
    private var nextConnectionID = 1
    /// Requests handed to the store thread or a parser and not yet answered.
    private var busyCount = 0
    /// The newest store revision the loop has heard of.
    private var revision: Int64
    private var recentImports: [WatchImport]
    private var stopping = false
    private var stopDeadline = Date.distantFuture
    /// While stopping: since when no request has been in flight.
    private var idleSince: Date?
    private var acceptPausedUntil: Date?
    /// Out of descriptors: accepting is paused, for longer each time it fails again, and said once.
    private var acceptBackoff = 0.0

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
            worker = try StoreWorker(storePath: configuration.storePath, machineZone: configuration.machineZone,
                                     checkInterval: configuration.externalChangeInterval) { database in
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
        if !configuration.watchDirectories.isEmpty {
            var options = ImportOptions(machineZone: configuration.machineZone)
            options.temporaryCopyLimit = configuration.temporaryCopyLimit
            watch = FolderWatch(
                directories: configuration.watchDirectories, interval: configuration.watchInterval, ledger: ledger,
                worker: worker, options: options, tracker: tracker,
                log: configuration.log) { entry, external in
                    inbox.post(.imported(entry, externalRevision: external))
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

    private func log(_ message: String) { configuration.log?(message) }

    // MARK: - The event loop

    private func eventLoop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 8)
        defer { buffer.deallocate() }
        var fds: [pollfd] = []
        var polled: [ClientConnection] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: inbox.fileDescriptor, events: Int16(POLLIN), revents: 0))
            let listening = !stopping && (acceptPausedUntil.map { Date() >= $0 } ?? true)
            if listening {
                acceptPausedUntil = nil
                fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            }
            for connection in connections.values where !connection.peerGone {
                var events: Int16 = 0
                if wantsInput(connection) { events |= Int16(POLLIN) }
                if !connection.output.isEmpty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: connection.fd, events: events, revents: 0))
                polled.append(connection)
            }
            let ready = poll(&fds, nfds_t(fds.count), pollTimeout())
            if ready < 0 && errno != EINTR {
                log("poll failed: \(errnoText()); stopping")
                beginStop()
            }
            if ready > 0 {
                if fds[0].revents != 0 { takeInbox() }
                // The inbox may have begun the stop and closed the listener since the poll.
                if listening && !stopping && fds[1].revents != 0 { acceptClients() }
                let first = listening ? 2 : 1
                for (i, connection) in polled.enumerated() {
                    serve(connection, events: fds[first + i].revents, buffer: buffer)
                }
            }
            closeExpired()
            if stopping && mayStopNow() { break }
        }
        finishStop()
    }

    /// Requests in flight finish (within the grace) and their replies go out; events are no acknowledgements and
    /// wait for nobody. A reply its client does not read holds the stop up for half a second at most.
    private func mayStopNow() -> Bool {
        let now = Date()
        if now >= stopDeadline { return true }
        guard busyCount == 0, http?.inFlight ?? 0 == 0 else {
            idleSince = nil
            return false
        }
        let idle = idleSince ?? now
        idleSince = idle
        return connections.values.allSatisfy { $0.output.unsentReplies == 0 || $0.peerGone } || now >= idle.addingTimeInterval(0.5)
    }

    private func pollTimeout() -> Int32 {
        if stopping { return 20 }
        var next = acceptPausedUntil
        for connection in connections.values {
            if let deadline = connection.closeDeadline { next = min(next ?? deadline, deadline) }
        }
        guard let next else { return 1000 }
        return Int32(max(0, min(1000, next.timeIntervalSinceNow * 1000)).rounded(.up))
    }

    private func wantsInput(_ connection: ClientConnection) -> Bool {
        !stopping && !connection.busy && !connection.inputEnded && connection.closeDeadline == nil
            && connection.output.byteCount < configuration.outputByteLimit
    }

    private func acceptClients() {
        while true {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK:
                    // Every waiting client taken: a shortage of descriptors, if there was one, is over.
                    if acceptBackoff > 0 {
                        acceptBackoff = 0
                        log("accepting clients again")
                    }
                    return
                default:
                    // Out of descriptors: stop accepting for a moment rather than spin, longer each time (up to a
                    // second), and say so once rather than at every try.
                    if acceptBackoff == 0 {
                        log("cannot accept a client: \(errnoText()); new clients wait until descriptors are free")
                    }
                    acceptBackoff = min(max(acceptBackoff * 2, 0.1), 1)
                    acceptPausedUntil = Date().addingTimeInterval(acceptBackoff)
                    return
                }
            }
            UnixSocket.makeNonBlocking(fd)
            guard let uid = UnixSocket.peerUID(fd), uid == configuration.allowedUID else {
                log("refused a client of another user (uid \(UnixSocket.peerUID(fd).map(String.init) ?? "unknown"))")
                close(fd)
                continue
            }
            if var size = configuration.sendBufferSize.map(Int32.init) {
                setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            let connection = ClientConnection(id: nextConnectionID, fd: fd, maxLineLength: configuration.maxLineLength)
            nextConnectionID += 1
            connections[connection.id] = connection
        }
    }

    private func serve(_ connection: ClientConnection, events: Int16, buffer: UnsafeMutableRawBufferPointer) {
        guard connections[connection.id] != nil, events != 0 else { return }
        if events & Int16(POLLNVAL) != 0 {
            drop(connection)
            return
        }
        let hungUp = events & Int16(POLLHUP | POLLERR) != 0
        if events & Int16(POLLIN) != 0 || hungUp { readInput(connection, buffer: buffer, all: hungUp) }
        if hungUp { connection.peerGone = true }
        if events & Int16(POLLOUT) != 0 { flush(connection) }
        processLines(connection)
    }

    /// Reads what the client sent, up to 1 MiB per turn so one fast sender cannot starve the others
    /// (all of it when the client hung up: the kernel holds only so much).
    private func readInput(_ connection: ClientConnection, buffer: UnsafeMutableRawBufferPointer, all: Bool) {
        var budget = 1 << 20
        while all || budget > 0 {
            switch UnixSocket.read(connection.fd, into: buffer) {
            case .bytes(let n):
                connection.framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                budget -= n
                // An over-long line is detected as it grows, not when it ends.
                if connection.framer.pendingByteCount > connection.framer.maxLineLength + 1 { return }
            case .wouldBlock:
                return
            case .endOfFile:
                connection.inputEnded = true
                return
            case .failed:
                connection.inputEnded = true
                connection.peerGone = true
                return
            }
        }
    }

    /// Handles the client's complete lines in order, one at a time: a request with the store holds back
    /// the lines after it, so replies come in the order of the requests.
    private func processLines(_ connection: ClientConnection) {
        while !stopping && !connection.busy && connection.closeDeadline == nil
                && connection.output.byteCount < configuration.outputByteLimit {
            guard let item = connection.framer.next() ?? lastLine(of: connection) else { break }
            switch item {
            case .tooLong(let number):
                reply(connection, DaemonMessage.error(id: nil, ProtocolError(
                    .tooLarge, "line \(number) is longer than \(ByteSize.words(connection.framer.maxLineLength)), the limit for one message; closing the connection")))
                connection.closeDeadline = Date().addingTimeInterval(5)
            case .line(let bytes, _):
                // One reply for every line, so a client counting replies stays in step.
                guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) else {
                    reply(connection, DaemonMessage.error(id: nil, ProtocolError(
                        .badRequest, "an empty line is not a request; send one JSON object per line")))
                    continue
                }
                if bytes.count > DaemonServer.inlineParseLimit {
                    connection.busy = true
                    busyCount += 1
                    let inbox = self.inbox, zone = configuration.machineZone, id = connection.id
                    DispatchQueue.global().async {
                        inbox.post(.decoded(connection: id, RequestDecoder.decode(bytes[...], machineZone: zone)))
                    }
                } else {
                    handle(connection, RequestDecoder.decode(bytes[...], machineZone: configuration.machineZone))
                }
            }
        }
        finishIfDone(connection)
    }

    /// Once the client has closed its side: what it sent after its last line end, as a line of its own (`printf
    /// '{"op":"hello"}' | nc -U …` sends no line end). Given once: `finish()` empties the framer, and nothing is
    /// read into it after input ended (EOF is final) or the peer is gone (no longer polled); nil when nothing is left.
    private func lastLine(of connection: ClientConnection) -> JSONLineFramer.Item? {
        guard connection.inputEnded || connection.peerGone else { return nil }
        return connection.framer.finish()
    }

    private func handle(_ connection: ClientConnection, _ decoded: RequestDecoder.Decoded) {
        let id = decoded.id
        let request: DaemonRequest
        switch decoded.result {
        case .failure(let error):
            reply(connection, DaemonMessage.error(id: id, error))
            return
        case .success(let value):
            request = value
        }
        switch request {
        case .hello:
            reply(connection, DaemonMessage.ok(id: id, HelloReply(revision: revision)))
        case .subscribe:
            connection.subscribed = true
            reply(connection, DaemonMessage.ok(id: id, SubscribeReply(revision: revision)))
        case .push, .days, .status, .cursor:
            var status: StatusReply?
            if case .status = request {
                // What the loop knows; the store's thread adds the revision and the streams.
                status = StatusReply(
                    pid: getpid(), socket: socketPath, store: configuration.storePath,
                    uptime: Date().timeIntervalSince(startTime), clients: connections.count,
                    subscribers: connections.values.filter(\.subscribed).count, revision: 0, streams: [],
                    watchDirectories: watch?.directories ?? [], watchLooks: watch?.looks ?? 0, imports: recentImports,
                    http: http?.status)
            }
            let inbox = self.inbox, tracker = self.tracker, connectionID = connection.id, context = status, failures = storeFailures
            let submitted = worker.submit { database in
                let answer = StoreRequests.answer(request, id: id, database: database, tracker: tracker, status: context) { error in
                    failures.say(StoreRequests.failureLine(request, client: connectionID, error))
                }
                inbox.post(.answered(connection: connectionID, answer))
            }
            if submitted {
                connection.busy = true
                busyCount += 1
            } else {
                reply(connection, DaemonMessage.error(id: id, ProtocolError(.internalError, "the daemon is stopping")))
            }
        }
    }

    // MARK: - Messages from the other threads

    private func takeInbox() {
        let delivery = inbox.take()
        for message in delivery.messages {
            switch message {
            case .decoded(let id, let decoded):
                busyCount -= 1
                guard let connection = connections[id] else { continue }
                connection.busy = false
                handle(connection, decoded)
                processLines(connection)
            case .answered(let id, let answer):
                busyCount -= 1
                if let connection = connections[id] {
                    connection.busy = false
                    reply(connection, answer.reply)
                }
                if let moved = answer.externalRevision { storeChangedElsewhere(moved) }
                if let change = answer.change { broadcastChange(change) }
                if let connection = connections[id] { processLines(connection) }
            case .imported(let entry, let external):
                recentImports.append(entry)
                if recentImports.count > ImportLedger.recentCount { recentImports.removeFirst() }
                log("folder watch: \(entry.summary)")
                if let external { storeChangedElsewhere(external) }
                broadcast(DaemonMessage.event(.imported(entry)))
                if !entry.days.isEmpty { broadcastChange(Change(revision: entry.revision, days: entry.days)) }
            case .externalChange(let moved):
                storeChangedElsewhere(moved)
            case .fedOverHTTP(let change, let external):
                if let external { storeChangedElsewhere(external) }
                if let change { broadcastChange(change) }
            }
        }
        if delivery.hungUp { configuration.onHangup?() }
        if delivery.interrupted && !stopping { beginStop() }
    }

    private func broadcastChange(_ change: Change) {
        revision = max(revision, change.revision)
        broadcast(DaemonMessage.event(.changed(revision: change.revision, days: change.days)))
    }

    /// The store moved without the daemon: subscribers cannot know which days, so they reload.
    private func storeChangedElsewhere(_ moved: Int64) {
        revision = max(revision, moved)
        broadcast(DaemonMessage.event(.resync(revision: moved, dropped: nil, reason: "the store was changed by another process")))
    }

    private func broadcast(_ event: [UInt8]) {
        for connection in connections.values where connection.subscribed && !connection.peerGone {
            let revision = self.revision
            let overflowed = connection.output.append(event: event, limit: configuration.subscriberEventLimit,
                                                      byteLimit: configuration.outputByteLimit) { dropped in
                DaemonMessage.event(.resync(revision: revision, dropped: dropped,
                                            reason: "events were dropped because the subscriber read too slowly"))
            }
            if overflowed { log("subscriber \(connection.id) reads too slowly: events dropped, resync queued") }
            flush(connection)
        }
    }

    // MARK: - Writing and closing

    private func reply(_ connection: ClientConnection, _ bytes: [UInt8]) {
        guard !connection.peerGone else { return }
        connection.output.append(reply: bytes)
        flush(connection)
    }

    private func flush(_ connection: ClientConnection) {
        guard !connection.peerGone, !connection.output.isEmpty else { return }
        if !connection.output.flush(to: connection.fd) {
            // EPIPE, ECONNRESET: the client is gone; what it still had to receive is lost with it.
            connection.peerGone = true
            connection.inputEnded = true
        }
    }

    /// Closes a connection that has nothing left to do: input ended (or the peer is gone), no request
    /// in flight, no complete line left, and its output written (or undeliverable).
    private func finishIfDone(_ connection: ClientConnection) {
        guard connections[connection.id] != nil else { return }
        if connection.closeDeadline != nil {
            if connection.output.isEmpty || connection.peerGone { drop(connection) }
            return
        }
        guard connection.inputEnded || connection.peerGone, !connection.busy else { return }
        if connection.peerGone || connection.output.isEmpty { drop(connection) }
    }

    private func closeExpired() {
        let now = Date()
        for connection in Array(connections.values) {
            if let deadline = connection.closeDeadline, now >= deadline {
                drop(connection)
            } else {
                finishIfDone(connection)
            }
        }
    }

    private func drop(_ connection: ClientConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        close(connection.fd)
    }

    private func beginStop() {
        stopping = true
        stopDeadline = Date().addingTimeInterval(configuration.shutdownGrace)
        listener.close()
        http?.quiesce()
        watch?.stop()
        log("stopping: finishing \(busyCount) request\(busyCount == 1 ? "" : "s") in flight")
    }

    private func finishStop() {
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
    private func releaseResources() {
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
        ShutdownSignals.uninstall(wakeFD: inbox.interruptDescriptor)
        inbox.close()
    }
}
