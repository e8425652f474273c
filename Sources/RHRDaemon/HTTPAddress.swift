import Foundation
import RHRDaemonClient
import RHRSystem

/// `--http ADDR:PORT`: where the phone feeds listen (docs/design.md section 4b). `127.0.0.1:8787`,
/// `[::1]:8787`, `localhost:8787`, `0.0.0.0:8787`; port 0 takes any free port (tests).
public struct HTTPAddress: Sendable, Equatable, CustomStringConvertible {
    /// As given, without the brackets of an IPv6 address.
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(DaemonError) {
        let host: Substring, port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw HTTPAddress.malformed(text) }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw HTTPAddress.malformed(text) }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let number = UInt16(port) else { throw HTTPAddress.malformed(text) }
        self.init(host: String(host), port: number)
    }

    private static func malformed(_ text: String) -> DaemonError {
        DaemonError("--http \(text): expected ADDRESS:PORT, like 127.0.0.1:8787, [::1]:8787 or 0.0.0.0:8787")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The addresses the host stands for (a name is looked up; most are numbers).
    func resolve() throws(DaemonError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw DaemonError("--http \(self): cannot find the address \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var found: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                found.append(SocketAddress(bytes: Array(UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))))
            }
            entry = current.pointee.ai_next
        }
        return found
    }

    /// Whether every address the host stands for is on this machine only: 127.0.0.0/8 or ::1 (and a v4-mapped
    /// 127.x). `0.0.0.0` and `::` listen on every interface: not loopback.
    public func isLoopback() throws(DaemonError) -> Bool {
        let addresses = try resolve()
        return !addresses.isEmpty && addresses.allSatisfy(\.isLoopback)
    }
}

/// A `sockaddr_in` or `sockaddr_in6` as bytes.
struct SocketAddress {
    var bytes: [UInt8]

    var family: Int32 { bytes.withUnsafeBytes { Int32($0.load(as: sockaddr.self).sa_family) } }

    var isLoopback: Bool {
        bytes.withUnsafeBytes { raw in
            switch Int32(raw.load(as: sockaddr.self).sa_family) {
            case AF_INET:
                let address = raw.load(as: sockaddr_in.self).sin_addr.s_addr
                return UInt32(bigEndian: address) >> 24 == 127
            case AF_INET6:
                let a = withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
                let loopback = a[0..<15].allSatisfy { $0 == 0 } && a[15] == 1
                let mapped = a[0..<10].allSatisfy { $0 == 0 } && a[10] == 0xFF && a[11] == 0xFF && a[12] == 127
                return loopback || mapped
            default:
                return false
            }
        }
    }

    /// The address as numbers, without the port: `127.0.0.1`, `::1`.
    var numericHost: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = bytes.withUnsafeBytes { raw in
            getnameinfo(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count), &host,
                        socklen_t(host.count), nil, 0, NI_NUMERICHOST)
        }
        guard status == 0 else { return "?" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The socket's own address (after binding port 0) and its port.
    static func port(of fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0 else { return 0 }
        return withUnsafeBytes(of: storage) { raw in
            switch Int32(storage.ss_family) {
            case AF_INET: return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: return 0
            }
        }
    }
}

/// The phone feeds' listening TCP socket, opened before the daemon serves, so that a port in use is said at
/// start, in words. A name that stands for several addresses (`localhost`: `::1` and `127.0.0.1`) is listened on at
/// the first only, and the others are named, so that nobody posts to one rhr does not listen on.
struct HTTPListenSocket {
    let fd: Int32
    /// Where it listens, as numbers: `127.0.0.1:8787`, `[::1]:8787`, with the port the system gave for port 0.
    let address: HTTPAddress
    /// The other addresses the name given stands for, not listened on (`127.0.0.1`).
    let unused: [String]

    /// Binds the first address `configuration.address` stands for, refusing plain HTTP there unless it is loopback
    /// (or TLS or a tunnel was asked for): the address judged is the one bound, from the same lookup.
    static func open(_ configuration: HTTPFeedConfiguration) throws(DaemonError) -> HTTPListenSocket {
        let address = configuration.address
        let all = try address.resolve()
        guard let first = all.first else { throw DaemonError("--http \(address): no address to listen on") }
        guard first.isLoopback || configuration.mayServePlainHTTPAnywhere else { throw configuration.plainHTTPRefused }
        // Non-blocking, as libmicrohttpd's polling thread wants its listening socket.
        let fd = socket(first.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("--http \(address): cannot create a socket: \(errnoText())") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = first.bytes.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = errnoText()
            close(fd)
            throw DaemonError("--http \(address): cannot listen there: \(reason)")
        }
        return HTTPListenSocket(fd: fd, address: HTTPAddress(host: first.numericHost, port: SocketAddress.port(of: fd)),
                                unused: others(than: first, in: all))
    }

    /// The addresses in `all` other than `first`, as numbers, each once (a name's list repeats an address per
    /// protocol on some systems).
    static func others(than first: SocketAddress, in all: [SocketAddress]) -> [String] {
        let listened = first.numericHost
        var others: [String] = []
        for other in all.map(\.numericHost) where other != listened && !others.contains(other) {
            others.append(other)
        }
        return others
    }
}
