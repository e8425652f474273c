import Foundation
import RHRJSON

/// An HTTP response as the tests read it.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as JSON, nil when it is not.
    public var json: JSONValue? { try? JSONParser.parse(body) }
    /// `error.code` of a JSON error answer.
    public var errorCode: String? { json?["error"]?["code"]?.string }
    public var errorMessage: String { json?["error"]?["message"]?.string ?? "" }
    /// The JSON lines of a `/v1/batches` answer.
    public var lines: [JSONValue] { text.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) } }
}

/// A small HTTP/1.1 client on a plain TCP socket, for the daemon's phone feeds (docs/design.md section 4b): it
/// sends exactly the bytes a test gives (headers without a body, a body in pieces), keeps the connection alive
/// between requests and reads answers by their `Content-Length`. Not URLSession: the tests need to see what the
/// server does with a request that is cut short, and a blocking socket with deadlines shows it.
public final class HTTPTestClient {
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port` (an IPv4 address), waiting at most `timeout` seconds; from the loopback address
    /// `source` when given (`127.0.0.3`: another client address on this machine).
    public init(host: String = "127.0.0.1", port: UInt16, timeout: Double = 5, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        if let source {
            guard HTTPTestClient.withAddress(source, port: 0, { bind(fd, $0, $1) }) == 0 else {
                throw TestFailure("cannot bind to \(source): \(String(cString: strerror(errno)))")
            }
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard HTTPTestClient.withAddress(host, port: port, { connect(fd, $0, $1) }) == 0 else {
            throw TestFailure("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
    }

    /// The only close: `deinit` runs when `init` throws too, once `fd` is set, so a close there as well would close
    /// whatever the process opened under that number meanwhile (another test's store, libmicrohttpd's wake-up fd).
    deinit { close(fd) }

    /// Calls `body` with the IPv4 address `host:port` as a `sockaddr` (for `bind` and `connect`).
    private static func withAddress(_ host: String, port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The bytes of a request: its line, `Host`, the headers given, and `Content-Length` when there is a body.
    public static func requestBytes(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + (body ?? [])
    }

    /// Sends a request and reads its answer.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                        timeout: Double = 10) throws -> HTTPResponse {
        try send(HTTPTestClient.requestBytes(method, path, headers: headers, body: body))
        return try response(timeout: timeout)
    }

    /// A POST with a bearer token and a JSON body.
    public func post(_ path: String, token: String, json body: [UInt8], timeout: Double = 10) throws -> HTTPResponse {
        try request("POST", path, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                    body: body, timeout: timeout)
    }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw TestFailure("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// Reads one answer: the status line, the headers, and a body of `Content-Length` bytes.
    public func response(timeout: Double = 10) throws -> HTTPResponse {
        let deadline = Date().addingTimeInterval(timeout)
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while true {
            if buffer.count >= 4 {
                end = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
            }
            if end != nil { break }
            guard try fill(until: deadline) else { throw TestFailure("the server closed the connection before answering") }
        }
        let head = String(decoding: buffer[0..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        let statusWords = head[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { throw TestFailure("not an HTTP answer: \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length {
            guard try fill(until: deadline) else { throw TestFailure("the server closed the connection in the middle of the body") }
        }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closes the connection within `timeout` seconds (reading and dropping what it sends).
    public func closedByServer(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            do {
                if try !fill(until: deadline) { return true }
            } catch {
                return false
            }
        }
        return false
    }

    /// Reads what arrives; false at the end of the stream; an error when the deadline passes first.
    private func fill(until deadline: Date) throws -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
        let ready = poll(&entry, 1, wait)
        guard ready > 0 else { throw TestFailure("no answer from the server in time") }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { return false }
        buffer += chunk[0..<n]
        return true
    }
}
