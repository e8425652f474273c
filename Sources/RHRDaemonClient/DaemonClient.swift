import Foundation
import RHRCore
import RHRJSON
import RHRSystem

/// Why talking to the daemon failed.
public typealias DaemonClientError = CodedError<DaemonClientErrorCode>

public enum DaemonClientErrorCode: Sendable, Hashable {
    /// Nothing listens on the socket (no file, or a stale one).
    case notListening
    /// No answer within the time allowed.
    case timeout
    /// The daemon closed the connection.
    case closed
    /// The daemon sent something that is not a reply or an event of the protocol.
    case badMessage
    /// The daemon refused the request whose answer was asked for (`DaemonReply.decode`).
    case refused
    /// The socket failed otherwise.
    case io
}

/// A connection to `rhr daemon`, for `rhr push`, `rhr status`, the dashboard, tests and the benchmark.
///
/// Every call takes a timeout; nothing blocks for ever. Replies and events share the connection: `request`
/// returns the next reply and keeps events that arrive before it in `pendingEvents`, in order. Both come
/// typed: a `DaemonReply` (whose answer `decode` reads as `BatchOutcome`, `StatusReply`, …) and a
/// `DaemonEvent`; a line that is neither is a `.badMessage` error. A client
/// that waits on other things too (the dashboard's keyboard) polls `fileDescriptor` and calls
/// `receiveAvailable()` when it is readable. One client is used from one thread at a time.
public final class DaemonClient {
    public let socketPath: String
    /// The connected socket (non-blocking), for `poll(2)` in a caller's own loop.
    public let fileDescriptor: Int32
    /// Events received while waiting for a reply, oldest first.
    public private(set) var pendingEvents: [DaemonEvent] = []
    private var framer = JSONLineFramer()
    private var received: [Incoming] = []

    private enum Incoming {
        case reply(DaemonReply)
        case event(DaemonEvent)
    }
    private var closed = false
    private var nextID: Int64 = 1

    /// Connects, waiting at most `timeout` seconds.
    public init(socketPath: String = SocketPath.defaultPath(), timeout: Double = 5) throws(DaemonClientError) {
        self.socketPath = socketPath
        let result: UnixSocket.ConnectResult
        do {
            result = try UnixSocket.connect(path: socketPath, timeout: timeout)
        } catch {
            throw DaemonClientError(.notListening, error.message)
        }
        switch result {
        case .connected(let fd):
            fileDescriptor = fd
        case .failed(let code):
            switch code {
            case ENOENT, ECONNREFUSED, ENOTDIR:
                throw DaemonClientError(.notListening, "no daemon listening on \(socketPath)")
            case EACCES, EPERM:
                throw DaemonClientError(.notListening, "\(socketPath): not allowed to connect (\(errnoText(code)))")
            case ETIMEDOUT:
                throw DaemonClientError(.timeout, "\(socketPath): the daemon did not accept the connection within \(timeout) s")
            default:
                throw DaemonClientError(.notListening, "\(socketPath): cannot connect: \(errnoText(code))")
            }
        }
    }

    deinit { close() }

    /// Whether a daemon answers on `socketPath` now.
    public static func isListening(socketPath: String, timeout: Double = 1) -> Bool {
        (try? DaemonClient(socketPath: socketPath, timeout: timeout)) != nil
    }

    public func close() {
        guard !closed else { return }
        closed = true
        Foundation.close(fileDescriptor)
    }

    // MARK: - Requests

    /// Sends a request and returns its reply (`"ok":true` or `false`; a refusal is a reply, not an error).
    /// Events that arrive first are kept in `pendingEvents`.
    public func request(_ request: JSONValue, timeout: Double = 10) throws(DaemonClientError) -> DaemonReply {
        try send(request, timeout: timeout)
        return try nextReply(timeout: timeout)
    }

    public func request(_ request: DaemonRequest, id: JSONValue? = nil, timeout: Double = 10) throws(DaemonClientError) -> DaemonReply {
        try self.request(request.json(id: id), timeout: timeout)
    }

    /// Pushes a batch with a fresh numeric id and returns the reply.
    public func push(_ batch: SyncBatch, timeout: Double = 10) throws(DaemonClientError) -> DaemonReply {
        let id = nextID
        nextID += 1
        return try request(.push(batch), id: .number(JSONNumber(id)), timeout: timeout)
    }

    /// Subscribes; `changed`, `imported` and `resync` events follow. Returns the reply.
    public func subscribe(timeout: Double = 10) throws(DaemonClientError) -> DaemonReply {
        try request(.subscribe, timeout: timeout)
    }

    /// Sends one request line without waiting for its reply.
    public func send(_ request: JSONValue, timeout: Double = 10) throws(DaemonClientError) {
        var bytes = JSONWriter.bytes(request)
        bytes.append(0x0A)
        try sendRaw(bytes, timeout: timeout)
    }

    /// Sends bytes as they are (tests send broken lines with it).
    public func sendRaw(_ bytes: [UInt8], timeout: Double = 10) throws(DaemonClientError) {
        guard !closed else { throw DaemonClientError(.closed, "the connection to \(socketPath) is closed") }
        let deadline = Date().addingTimeInterval(timeout)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { UnixSocket.send(fileDescriptor, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            guard let sent else {
                throw DaemonClientError(.closed, "the daemon on \(socketPath) closed the connection: \(errnoText())")
            }
            offset += sent
            if sent == 0 {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0, UnixSocket.waitFor(fileDescriptor, events: Int16(POLLOUT), timeout: remaining) else {
                    throw DaemonClientError(.timeout, "the daemon on \(socketPath) did not take the request within \(timeout) s")
                }
            }
        }
    }

    // MARK: - Receiving

    /// The next reply; events before it go to `pendingEvents`.
    public func nextReply(timeout: Double = 10) throws(DaemonClientError) -> DaemonReply {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while !received.isEmpty {
                switch received.removeFirst() {
                case .event(let event): pendingEvents.append(event)
                case .reply(let reply): return reply
                }
            }
            try receive(until: deadline, what: "a reply")
        }
    }

    /// The next event (one kept in `pendingEvents` first).
    public func nextEvent(timeout: Double = 10) throws(DaemonClientError) -> DaemonEvent {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
            if !received.isEmpty {
                switch received.removeFirst() {
                case .event(let event): return event
                case .reply(let reply):
                    throw DaemonClientError(.badMessage, "a reply came while only events were expected: \(reply)")
                }
            }
            try receive(until: deadline, what: "an event")
        }
    }

    /// Without waiting: every complete event already sent (events kept earlier first). A reply among them
    /// answers a request that gave up waiting for it, and is dropped. Throws `.closed` once the daemon has gone
    /// and nothing is left.
    public func receiveAvailable() throws(DaemonClientError) -> [DaemonEvent] {
        if !closed { try readOnce() }
        var events = pendingEvents
        for case .event(let event) in received { events.append(event) }
        let nothing = pendingEvents.isEmpty && received.isEmpty
        pendingEvents.removeAll()
        received.removeAll()
        if nothing && closed {
            throw DaemonClientError(.closed, "the daemon on \(socketPath) closed the connection")
        }
        return events
    }

    /// Waits until the daemon closes the connection, dropping what it sends; true when it did in time.
    public func waitForClose(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed {
            do {
                try receive(until: deadline, what: "the end")
            } catch {
                return error.code == .closed
            }
        }
        return true
    }

    private func receive(until deadline: Date, what: String) throws(DaemonClientError) {
        guard !closed else { throw DaemonClientError(.closed, "the daemon on \(socketPath) closed the connection") }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0, UnixSocket.waitFor(fileDescriptor, events: Int16(POLLIN), timeout: remaining) else {
            throw DaemonClientError(.timeout, "no \(what) from the daemon on \(socketPath) in time")
        }
        try readOnce()
        if closed && received.isEmpty {
            throw DaemonClientError(.closed, "the daemon on \(socketPath) closed the connection")
        }
    }

    /// Reads what is there now and parses the complete lines.
    private func readOnce() throws(DaemonClientError) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        readLoop: while true {
            let result = chunk.withUnsafeMutableBytes { UnixSocket.read(fileDescriptor, into: $0) }
            switch result {
            case .bytes(let n):
                framer.append(chunk[0..<n])
                if n < chunk.count { break readLoop }
            case .wouldBlock:
                break readLoop
            case .endOfFile:
                close()
                break readLoop
            case .failed(let code):
                close()
                if code != ECONNRESET { throw DaemonClientError(.io, "\(socketPath): \(errnoText(code))") }
                break readLoop
            }
        }
        while let item = framer.next() {
            switch item {
            case .tooLong:
                throw DaemonClientError(.badMessage, "the daemon sent a line over \(ByteSize.words(framer.maxLineLength))")
            case .line(let bytes, _):
                guard !bytes.isEmpty else { continue }
                guard let object = (try? JSONParser.parse(bytes))?.object else {
                    throw DaemonClientError(.badMessage, "the daemon sent a line that is not a JSON object")
                }
                do {
                    received.append(object["event"] != nil ? .event(try DaemonEvent(object)) : .reply(try DaemonReply(object)))
                } catch {
                    throw DaemonClientError(.badMessage, "the daemon sent a message rhr cannot read: \(error)")
                }
            }
        }
    }
}
