import CMicroHTTPD
import Foundation
import Synchronization

/// The phone feeds' HTTP server (docs/design.md section 4b), on libmicrohttpd: it carries bytes and nothing else;
/// `PhoneFeed` decides what they mean.
///
/// libmicrohttpd runs a thread per connection (at most `maxConnections`), so a slow phone holds up only its own
/// connection, and calls the access handler on that thread several times per request: with the headers (the
/// token is checked here, and a refusal is answered without reading the body), then with each piece of the body
/// (kept up to the limit), then once more to answer. Answering waits for the daemon's store thread, as a socket
/// push does. TLS goes through libmicrohttpd's GnuTLS support.
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
    private let inFlightCount = Atomic<Int>(0)
    private let requestCount = Atomic<Int>(0)

    /// Opens the listening socket and reads the TLS files; nothing is served until `start()`.
    init(feed: PhoneFeed) throws(DaemonError) {
        let configuration = feed.configuration
        if let tls = configuration.tls {
            guard MHD_is_feature_supported(.FEATURE_TLS) == .YES else {
                throw DaemonError("this libmicrohttpd was built without TLS; install Debian's libmicrohttpd12 (scripts/setup)")
            }
            certificate = strdup(try HTTPFeedServer.pem(tls.certificate, what: "certificate", marker: "CERTIFICATE"))
            key = strdup(try HTTPFeedServer.pem(tls.key, what: "key", marker: "PRIVATE KEY"))
        } else {
            certificate = nil
            key = nil
        }
        let socket: HTTPListenSocket
        do {
            socket = try HTTPListenSocket.open(configuration)
        } catch {
            free(certificate)
            free(key)
            throw error
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

    /// Starts serving on libmicrohttpd's threads.
    func start() throws(DaemonError) {
        guard daemon == nil, listenFD >= 0 else { return }
        let configuration = feed.configuration
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        if certificate != nil { flags |= MHD_USE_TLS.rawValue }
        let completed: MHD_RequestCompletedCallback = { _, _, context, _ in
            // The request's state goes with it, however it ended (answered, refused, or the phone went away).
            guard let context, let state = context.pointee else { return }
            Unmanaged<HTTPExchange>.fromOpaque(state).release()
            context.pointee = nil
        }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenFD), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeout, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: nil),
            // A connection thread needs little stack: the body lives on the heap.
            MHD_OptionItem(option: .THREAD_STACK_SIZE, value: 1 << 20, ptr_value: nil),
        ]
        if let certificate, let key {
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let me = Unmanaged.passUnretained(self).toOpaque()
        daemon = options.withUnsafeBufferPointer { rhr_mhd_start(flags, HTTPFeedServer.handler, me, $0.baseAddress) }
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
            let exchange = HTTPExchange()
            context.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let url = url.map { String(cString: $0) } ?? "/"
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            let head = HTTPRequestHead(method: method.map { String(cString: $0) } ?? "", path: path) { name in
                HTTPFeedServer.header(connection, name)
            }
            switch feed.admit(head) {
            case .answer(let answer):
                exchange.answered = true
                return respond(connection, answer)
            case .read(let admitted):
                exchange.admitted = admitted
                // Room for what is announced, up to a few MiB: a slow phone announcing 64 MiB reserves no more until
                // it sends it.
                if let length = admitted.expectedLength { exchange.body.reserveCapacity(min(length, 4 << 20)) }
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
            // Over the limit, or trickled in too slowly: libmicrohttpd takes no answer in the middle of a body, so the
            // connection is closed, and nothing more of it is read.
            if exchange.body.count + count > feed.configuration.maxBody
                || Date().timeIntervalSince(exchange.started) > feed.configuration.requestTime {
                exchange.answered = true
                return .NO
            }
            if let upload { exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count)) }
            return .YES
        }
        // The whole body is here.
        exchange.answered = true
        inFlightCount.add(1, ordering: .sequentiallyConsistent)
        let answer = feed.answer(admitted, body: exchange.body)
        exchange.body = []
        let result = respond(connection, answer)
        inFlightCount.subtract(1, ordering: .sequentiallyConsistent)
        return result
    }

    private func respond(_ connection: OpaquePointer, _ answer: HTTPAnswer) -> MHD_Result {
        requestCount.add(1, ordering: .sequentiallyConsistent)
        let response = answer.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Content-Type", answer.contentType)
        for (name, value) in answer.headers { MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(answer.status), response)
    }
}

/// One request's state between libmicrohttpd's calls, on its connection's thread only.
private final class HTTPExchange {
    let started = Date()
    var admitted: PhoneFeed.Admitted?
    var body: [UInt8] = []
    /// An answer was queued: nothing more is read.
    var answered = false
}
