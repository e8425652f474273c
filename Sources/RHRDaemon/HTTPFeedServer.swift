import CMicroHTTPD
import Foundation
import RHRCore
import RHRDaemonClient
import RHRSystem
import Synchronization

/// The phone feeds' HTTP server (docs/design.md section 4b), on libmicrohttpd: it carries bytes and nothing else;
/// `PhoneFeed` decides what they mean.
///
/// libmicrohttpd runs a thread per connection (at most `maxConnections`, and `perAddressConnections` from one address:
/// `HTTPConnectionGuard`, with the deadlines for a request's head and body), so a slow phone holds up only its own
/// connection, and calls the access handler on that thread several times per request: with the headers (the
/// token is checked here, and a refusal is answered without reading the body), then with each piece of the body
/// (kept up to the limit, and within `maxBodiesInFlight` over all connections), then once more to answer. Answering
/// waits for the daemon's store thread, as a socket push does. TLS (1.2 and 1.3 only) goes through libmicrohttpd's
/// GnuTLS support. Every answer is counted for its token, and every refusal logged (`FeedRecord`).
///
/// `@unchecked Sendable`: libmicrohttpd's threads reach this object through a raw pointer the compiler cannot
/// follow, and two of its properties change: `daemon` (a C handle, not Sendable) and `listenFD`, set in `init` and
/// `start()` (before any request) and cleared in `stop()` (after libmicrohttpd's threads have ended), an order
/// the C library keeps, not the type system. Everything else is `let` or atomic.
final class HTTPFeedServer: @unchecked Sendable {
    let feed: PhoneFeed
    /// Where it listens, as numbers (`[::1]:8787` for `localhost:8787`), with the port the system gave for port 0.
    let listening: HTTPAddress
    /// Other addresses the name given stands for, not listened on.
    let unusedAddresses: [String]
    var port: UInt16 { listening.port }
    var address: String { listening.description }
    var usesTLS: Bool { certificate != nil }

    private var daemon: OpaquePointer?
    private var listenFD: Int32
    /// PEM text handed to libmicrohttpd, kept for as long as it runs.
    private let certificate: UnsafeMutablePointer<CChar>?
    private let key: UnsafeMutablePointer<CChar>?
    private let priorities: UnsafeMutablePointer<CChar>?
    private let inFlightCount = Atomic<Int>(0)
    private let requestCount = Atomic<Int>(0)
    let connections: HTTPConnectionGuard
    /// Bytes of request bodies held now, and the most held at once since the start.
    private let bodyBytes = Atomic<Int>(0)
    private let bodyBytesPeak = Atomic<Int>(0)

    /// Opens the listening socket and reads the TLS files; nothing is served until `start()`.
    init(feed: PhoneFeed) throws(DaemonError) {
        let configuration = feed.configuration
        if let tls = configuration.tls {
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else {
                throw DaemonError("this libmicrohttpd was built without TLS; install Debian's libmicrohttpd12 (scripts/setup)")
            }
            certificate = strdup(try HTTPFeedServer.pem(tls.certificate, what: "certificate", marker: "CERTIFICATE"))
            key = strdup(try HTTPFeedServer.pem(tls.key, what: "key", marker: "PRIVATE KEY"))
            priorities = strdup(configuration.tlsPriorities)
        } else {
            certificate = nil
            key = nil
            priorities = nil
        }
        let socket: HTTPListenSocket
        do {
            socket = try HTTPListenSocket.open(configuration)
        } catch {
            free(certificate)
            free(key)
            free(priorities)
            throw error
        }
        let record = feed.record
        connections = HTTPConnectionGuard(limits: .init(perAddress: configuration.perAddressConnections,
                                                        headerTime: configuration.headerTime,
                                                        requestTime: configuration.requestTime)) { address, reason in
            record.connectionRefused(address: address, reason: reason)
        }
        self.feed = feed
        listenFD = socket.fd
        listening = socket.address
        unusedAddresses = socket.unused
    }

    deinit {
        stop()
        free(certificate)
        free(key)
        free(priorities)
    }

    private static func pem(_ path: String, what: String, marker: String) throws(DaemonError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DaemonError("--tls-\(what == "certificate" ? "cert" : "key") \(path): cannot be read (\(errnoText()))")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN"), text.contains(marker) else {
            throw DaemonError("\(path): not a PEM \(what) (no \"-----BEGIN …\(marker)-----\" line)")
        }
        return text
    }

    /// Requests handed to the store and not yet answered.
    var inFlight: Int { inFlightCount.load(ordering: .sequentiallyConsistent) }
    /// Requests answered since the start.
    var requests: Int { requestCount.load(ordering: .sequentiallyConsistent) }
    /// The most bytes of request bodies held at once since the start (the bench prints it).
    var peakBodyBytes: Int { bodyBytesPeak.load(ordering: .sequentiallyConsistent) }

    /// What `rhr status` shows of the feeds.
    var status: HTTPFeedStatus {
        HTTPFeedStatus(address: address, tls: usesTLS, requests: requests, feeds: feed.record.all)
    }

    /// Starts serving on libmicrohttpd's threads.
    func start() throws(DaemonError) {
        guard daemon == nil, listenFD >= 0 else { return }
        let configuration = feed.configuration
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        if certificate != nil { flags |= MHD_USE_TLS.rawValue }
        let completed: MHD_RequestCompletedCallback = { cls, connection, context, _ in
            if let cls, let connection {
                Unmanaged<HTTPFeedServer>.fromOpaque(cls).takeUnretainedValue().connections.completed(connection)
            }
            // The request's state goes with it, however it ended (answered, refused, or the phone went away).
            guard let context, let state = context.pointee else { return }
            let exchange = Unmanaged<HTTPExchange>.fromOpaque(state).takeRetainedValue()
            if let cls { Unmanaged<HTTPFeedServer>.fromOpaque(cls).takeUnretainedValue().release(exchange) }
            context.pointee = nil
        }
        let notified: MHD_NotifyConnectionCallback = { cls, connection, _, code in
            guard let cls, let connection else { return }
            let server = Unmanaged<HTTPFeedServer>.fromOpaque(cls).takeUnretainedValue()
            if code == .CONNECTION_NOTIFY_STARTED {
                let address = rhr_mhd_connection_address(connection).map(SocketAddress.numericHost) ?? "?"
                server.connections.started(connection, fd: rhr_mhd_connection_fd(connection), address: address)
            } else {
                server.connections.closed(connection)
            }
        }
        let policy: MHD_AcceptPolicyCallback = { cls, address, _ in
            guard let cls, let address else { return .NO }
            let server = Unmanaged<HTTPFeedServer>.fromOpaque(cls).takeUnretainedValue()
            return server.connections.admit(SocketAddress.numericHost(of: address)) ? .YES : .NO
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenFD), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeout, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: me),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(notified, to: Int.self), ptr_value: me),
            // A connection thread needs little stack: the body lives on the heap.
            MHD_OptionItem(option: .THREAD_STACK_SIZE, value: 1 << 20, ptr_value: nil),
        ]
        if let certificate, let key {
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
            options.append(MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: priorities.map { UnsafeMutableRawPointer($0) }))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        daemon = options.withUnsafeBufferPointer { rhr_mhd_start(flags, policy, me, HTTPFeedServer.handler, me, $0.baseAddress) }
        guard daemon != nil else {
            throw DaemonError("--http \(address): libmicrohttpd would not start"
                + (certificate != nil ? " (is the key the certificate's, and both PEM?)" : ""))
        }
    }

    /// Stops taking connections and answers new requests on open ones with 503; requests in flight go on.
    func quiesce() {
        feed.beginStop()
        guard let daemon else { return }
        // The socket it gives back stays open until `stop()`: a connection thread may still look at it.
        _ = MHD_quiesce_daemon(daemon)
    }

    /// Closes every connection and waits for libmicrohttpd's threads to end; call once nothing is in flight.
    func stop() {
        if let daemon {
            // Quiesced (again, if `quiesce()` ran: then a no-op), libmicrohttpd leaves the listening socket to us, so
            // it is closed once, below; unquiesced, its stop would close it too and ours could hit a reused fd.
            _ = MHD_quiesce_daemon(daemon)
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }
        connections.stop()
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
        }
    }

    // MARK: - libmicrohttpd's callback

    private static let handler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let uploadSize, let context else { return .NO }
        let server = Unmanaged<HTTPFeedServer>.fromOpaque(cls).takeUnretainedValue()
        return server.handle(connection, url: url, method: method, upload: upload, uploadSize: uploadSize, context: context)
    }

    /// A request header's value with its length, so a NUL inside it is kept (and refused, `PhoneFeed`) rather
    /// than taken for its end.
    private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        var value: UnsafePointer<CChar>?
        var length = 0
        guard MHD_lookup_connection_value_n(connection, .HEADER_KIND, name, name.utf8.count, &value, &length) == .YES,
              let value else { return nil }

        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private func handle(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                        context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let state = context.pointee else {
            // First call: the headers only. The URL and method are made Strings here only: a body comes in many calls.
            connections.headersArrived(connection)
            let exchange = HTTPExchange(address: connections.address(of: connection) ?? "?")
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let url = url.map { String(cString: $0) } ?? "/"
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            var head = HTTPRequestHead(method: method.map { String(cString: $0) } ?? "", path: path) { name in
                HTTPFeedServer.header(connection, name)
            }
            head.values = { name in HTTPFeedServer.headerValues(connection, name) }
            switch feed.admit(head) {
            case .answer(let answer, let token):
                exchange.answered = true
                exchange.token = token
                return respond(connection, answer, exchange)
            case .read(let admitted):
                exchange.admitted = admitted
                exchange.token = admitted.token
                if let length = admitted.expectedLength, length > 0 {
                    // The whole announced body is reserved now, so a request that would not fit is answered before
                    // a byte of it is read.
                    guard reserve(length, for: exchange) else {
                        exchange.answered = true
                        return respond(connection, busyWithBodies(), exchange)
                    }
                    // Room for what is announced, up to a few MiB: a slow phone announcing 64 MiB takes no more memory
                    // until it sends it.
                    exchange.body.reserveCapacity(min(length, 4 << 20))
                }
                return .YES
            }
        }
        let exchange = Unmanaged<HTTPExchange>.fromOpaque(state).takeUnretainedValue()
        guard let admitted = exchange.admitted, !exchange.answered else {
            // Refused already: whatever still comes is not read.
            uploadSize.pointee = 0
            return .NO
        }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            // Over the limit, or trickled in too slowly, or (without an announced length) past what the daemon holds
            // at once: libmicrohttpd takes no answer in the middle of a body, so the connection is closed, and
            // nothing more of it is read.
            let grown = exchange.body.count + count
            if grown > feed.configuration.maxBody || Date().timeIntervalSince(exchange.started) > feed.configuration.requestTime
                || (grown > exchange.reserved && !reserve(grown - exchange.reserved, for: exchange)) {
                exchange.answered = true
                feed.record.connectionRefused(address: exchange.address, reason: grown > feed.configuration.maxBody
                    ? "a body sent without its length grew past \(ByteSize.words(feed.configuration.maxBody)); connection closed"
                    : "the body did not arrive in time, or the daemon holds too many bodies at once; connection closed")
                return .NO
            }
            if let upload { exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count)) }
            return .YES
        }
        // The whole body is here.
        exchange.answered = true
        connections.answering(connection)
        inFlightCount.add(1, ordering: .sequentiallyConsistent)
        let answer = feed.answer(admitted, body: exchange.body)
        exchange.body = []
        release(exchange)
        let result = respond(connection, answer, exchange)
        inFlightCount.subtract(1, ordering: .sequentiallyConsistent)
        return result
    }

    private func respond(_ connection: OpaquePointer, _ answer: HTTPAnswer, _ exchange: HTTPExchange) -> MHD_Result {
        requestCount.add(1, ordering: .sequentiallyConsistent)
        feed.record.answered(answer, token: exchange.token, address: exchange.address)
        let response = answer.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", answer.contentType)
        for (name, value) in answer.headers { MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }

    /// Every value of the request header `name`, in the order sent.
    private static func headerValues(_ connection: OpaquePointer, _ name: String) -> [String] {
        final class Collected { var name = ""; var values: [String] = [] }
        let collected = Collected()
        collected.name = name.lowercased()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
            if String(cString: key).lowercased() == collected.name { collected.values.append(value.map { String(cString: $0) } ?? "") }
            return .YES
        }
        withExtendedLifetime(collected) {
            _ = MHD_get_connection_values(connection, .HEADER_KIND, iterator, Unmanaged.passUnretained(collected).toOpaque())
        }
        return collected.values
    }

    // MARK: - The bodies held at once

    /// Takes `count` bytes of the bodies' budget for `exchange`; false when they would pass `maxBodiesInFlight`.
    private func reserve(_ count: Int, for exchange: HTTPExchange) -> Bool {
        let limit = feed.configuration.maxBodiesInFlight
        var current = bodyBytes.load(ordering: .sequentiallyConsistent)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = bodyBytes.compareExchange(expected: current, desired: current + count,
                                                                   ordering: .sequentiallyConsistent)
            if exchanged { break }
            current = original
        }
        exchange.reserved += count
        let now = current + count
        var peak = bodyBytesPeak.load(ordering: .sequentiallyConsistent)
        while now > peak {
            let (exchanged, original) = bodyBytesPeak.compareExchange(expected: peak, desired: now, ordering: .sequentiallyConsistent)
            if exchanged { break }
            peak = original
        }
        return true
    }

    /// Gives back what `exchange` reserved (once its body is read, or however its request ended).
    private func release(_ exchange: HTTPExchange) {
        guard exchange.reserved > 0 else { return }
        bodyBytes.subtract(exchange.reserved, ordering: .sequentiallyConsistent)
        exchange.reserved = 0
    }

    private func busyWithBodies() -> HTTPAnswer {
        .error(503, "busy", "the daemon is taking in other large requests (\(ByteSize.words(feed.configuration.maxBodiesInFlight)) "
            + "at once at most); nothing of this one was read; send it again in a moment", headers: [("Retry-After", "10"),
                                                                                                 ("Connection", "close")])
    }
}

/// One request's state between libmicrohttpd's calls, on its connection's thread only.
private final class HTTPExchange {
    let started = Date()
    /// The client's address as numbers, for the log.
    let address: String
    var admitted: PhoneFeed.Admitted?
    /// The known token's name, once checked.
    var token: String?
    var body: [UInt8] = []
    /// Bytes of the bodies' budget this request holds.
    var reserved = 0
    /// An answer was queued: nothing more is read.
    var answered = false

    init(address: String) { self.address = address }
}
