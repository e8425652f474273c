import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRSystem

extension DaemonServer {
    func eventLoop() {
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
    func mayStopNow() -> Bool {
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

    func pollTimeout() -> Int32 {
        if stopping { return 20 }
        var next = acceptPausedUntil
        for connection in connections.values {
            if let deadline = connection.closeDeadline { next = min(next ?? deadline, deadline) }
        }
        guard let next else { return 1000 }
        return Int32(max(0, min(1000, next.timeIntervalSinceNow * 1000)).rounded(.up))
    }

    func wantsInput(_ connection: ClientConnection) -> Bool {
        !stopping && !connection.busy && !connection.inputEnded && connection.closeDeadline == nil
            && connection.output.byteCount < configuration.outputByteLimit
    }

    func acceptClients() {
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
            FileDescriptors.makeNonBlocking(fd)
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

    func serve(_ connection: ClientConnection, events: Int16, buffer: UnsafeMutableRawBufferPointer) {
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
    func readInput(_ connection: ClientConnection, buffer: UnsafeMutableRawBufferPointer, all: Bool) {
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
    func processLines(_ connection: ClientConnection) {
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
    func lastLine(of connection: ClientConnection) -> JSONLineFramer.Item? {
        guard connection.inputEnded || connection.peerGone else { return nil }
        return connection.framer.finish()
    }

    func handle(_ connection: ClientConnection, _ decoded: RequestDecoder.Decoded) {
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
                    waiting: watch?.waiting ?? [], http: http?.status)
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

    // MARK: - Writing and closing

    func reply(_ connection: ClientConnection, _ bytes: [UInt8]) {
        guard !connection.peerGone else { return }
        connection.output.append(reply: bytes)
        flush(connection)
    }

    func flush(_ connection: ClientConnection) {
        guard !connection.peerGone, !connection.output.isEmpty else { return }
        if !connection.output.flush(to: connection.fd) {
            // EPIPE, ECONNRESET: the client is gone; what it still had to receive is lost with it.
            connection.peerGone = true
            connection.inputEnded = true
        }
    }

    /// Closes a connection that has nothing left to do: input ended (or the peer is gone), no request
    /// in flight, no complete line left, and its output written (or undeliverable).
    func finishIfDone(_ connection: ClientConnection) {
        guard connections[connection.id] != nil else { return }
        if connection.closeDeadline != nil {
            if connection.output.isEmpty || connection.peerGone { drop(connection) }
            return
        }
        guard connection.inputEnded || connection.peerGone, !connection.busy else { return }
        if connection.peerGone || connection.output.isEmpty { drop(connection) }
    }

    func closeExpired() {
        let now = Date()
        for connection in Array(connections.values) {
            if let deadline = connection.closeDeadline, now >= deadline {
                drop(connection)
            } else {
                finishIfDone(connection)
            }
        }
    }

    func drop(_ connection: ClientConnection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        close(connection.fd)
    }
}
