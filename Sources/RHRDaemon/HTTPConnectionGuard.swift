import CMicroHTTPD
import Foundation
import Synchronization

/// What keeps slow or greedy clients of the phone feeds from locking the others out (docs/design.md section 4b):
/// a cap on the connections one address may hold, and deadlines libmicrohttpd does not have. Its connection
/// timeout is an idle timeout, so a client that trickles a header byte every few seconds would hold a connection
/// for ever; here the request line and headers must arrive within `headerTime` of the connection (or of the answer
/// before, on a kept-alive connection), and a body within `requestTime` of its headers. A connection past its
/// deadline is shut down (`shutdown(2)`), which ends libmicrohttpd's read on it; the daemon's answers themselves
/// have no deadline here (the store's wait is bounded on its own).
///
/// The per-address cap is counted here rather than with `MHD_OPTION_PER_IP_CONNECTION_LIMIT`, which refuses before
/// the accept policy is asked, silently: here each refusal is a log line and a count.
///
/// libmicrohttpd calls the policy and the start and close of each connection on its one listening thread, in that
/// order, so the counts are exact; the close of a connection comes before its socket is closed, so a deadline never
/// shuts down a descriptor that has been reused.
final class HTTPConnectionGuard: Sendable {
    struct Limits: Sendable {
        var perAddress: Int
        var headerTime: Double
        var requestTime: Double
    }

    private struct Entry {
        var fd: Int32
        var address: String
        var deadline: Date?
        /// What the deadline waits for, for the log.
        var waitingFor = "its request line and headers"
        var shut = false
    }

    private struct State {
        var perAddress: [String: Int] = [:]
        var connections: [UInt: Entry] = [:]
        var running = true
    }

    let limits: Limits
    private let state = Mutex(State())
    private let wake = NSCondition()
    private let refused: @Sendable (_ address: String, _ reason: String) -> Void

    /// `refused` hears of each connection refused or cut off, with the address and why.
    init(limits: Limits, refused: @escaping @Sendable (_ address: String, _ reason: String) -> Void) {
        self.limits = limits
        self.refused = refused
        let thread = Thread { [self] in watch() }
        thread.name = "rhr-http-deadlines"
        thread.start()
    }

    /// Ends the deadline thread; call when libmicrohttpd has stopped.
    func stop() {
        state.withLock { $0.running = false }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    /// Connections open now (for the tests and the status).
    var openConnections: Int { state.withLock { $0.connections.count } }

    // MARK: - From libmicrohttpd's threads

    /// The accept policy: false when `address` holds its share of connections already.
    func admit(_ address: String) -> Bool {
        let open = state.withLock { $0.perAddress[address, default: 0] }
        guard open >= limits.perAddress else { return true }
        refused(address, "\(open) connections from that address are open, the most one address may hold; closed at once")
        return false
    }

    func started(_ connection: OpaquePointer, fd: Int32, address: String) {
        state.withLock { state in
            state.perAddress[address, default: 0] += 1
            state.connections[key(connection)] = Entry(fd: fd, address: address,
                                                       deadline: Date().addingTimeInterval(limits.headerTime))
        }
    }

    /// The headers are in: the body has `requestTime` to arrive.
    func headersArrived(_ connection: OpaquePointer) {
        update(connection) { $0.deadline = Date().addingTimeInterval(limits.requestTime); $0.waitingFor = "its body" }
    }

    /// The request is being answered: no deadline while the daemon works on it.
    func answering(_ connection: OpaquePointer) { update(connection) { $0.deadline = nil } }

    /// The answer went out: a kept-alive connection's next request head has `headerTime` to arrive.
    func completed(_ connection: OpaquePointer) {
        update(connection) {
            $0.deadline = Date().addingTimeInterval(limits.headerTime)
            $0.waitingFor = "its next request line and headers"
        }
    }

    func closed(_ connection: OpaquePointer) {
        state.withLock { state in
            guard let entry = state.connections.removeValue(forKey: key(connection)) else { return }
            let left = state.perAddress[entry.address, default: 1] - 1
            state.perAddress[entry.address] = left > 0 ? left : nil
        }
    }

    /// The client's address as numbers, as `started` was told it.
    func address(of connection: OpaquePointer) -> String? {
        state.withLock { $0.connections[key(connection)]?.address }
    }

    private func update(_ connection: OpaquePointer, _ change: (inout Entry) -> Void) {
        state.withLock { state in
            if var entry = state.connections[key(connection)] {
                change(&entry)
                state.connections[key(connection)] = entry
            }
        }
    }

    private func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }

    // MARK: - The deadline thread

    private func watch() {
        while true {
            let now = Date()
            var cut: [(String, String)] = []
            let running = state.withLock { state in
                for (key, var entry) in state.connections where !entry.shut {
                    guard let deadline = entry.deadline, deadline <= now else { continue }
                    // Under the lock: the close of this connection, which comes before its socket's, waits for it.
                    shutdown(entry.fd, Int32(SHUT_RDWR))
                    entry.shut = true
                    state.connections[key] = entry
                    cut.append((entry.address, entry.waitingFor))
                }
                return state.running
            }
            guard running else { return }
            for (address, what) in cut {
                let time = what == "its body" ? limits.requestTime : limits.headerTime
                refused(address, "\(what) did not arrive within \(HTTPConnectionGuard.seconds(time)); connection closed")
            }
            wake.lock()
            _ = wake.wait(until: Date().addingTimeInterval(0.1))
            wake.unlock()
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension SocketAddress {
    /// The numbers of the address `raw` points to (IPv4 or IPv6), without the port.
    static func numericHost(of raw: UnsafePointer<sockaddr>) -> String {
        let length = Int32(raw.pointee.sa_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        let host = SocketAddress(bytes: Array(UnsafeRawBufferPointer(start: raw, count: length))).numericHost
        // An IPv4 client on an IPv6 socket: its IPv4 numbers.
        return host.hasPrefix("::ffff:") && host.contains(".") ? String(host.dropFirst(7)) : host
    }
}
