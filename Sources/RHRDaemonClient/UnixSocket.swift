import Foundation
import RHRSystem

/// The few POSIX socket calls the daemon and its clients need, with Swift types and errno in words.
package enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    package static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new non-blocking, close-on-exec Unix stream socket.
    package static func make() throws(DaemonError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("cannot create a Unix socket: \(errnoText())") }
        return fd
    }

    /// Calls `body` with the socket address of `path`.
    package static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(DaemonError) -> T {
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathBytes else {
            throw DaemonError("\(path): the socket path is \(bytes.count) bytes long; a Unix socket path holds at most \(maxPathBytes)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    package enum ConnectResult {
        /// The connected, non-blocking descriptor.
        case connected(Int32)
        /// The errno of the failure (ENOENT, ECONNREFUSED, ETIMEDOUT, …).
        case failed(Int32)
    }

    /// Connects a new socket to `path`, waiting at most `timeout` seconds.
    package static func connect(path: String, timeout: Double) throws(DaemonError) -> ConnectResult {
        let fd = try make()
        let status = try withAddress(path) { Foundation.connect(fd, $0, $1) }
        if status == 0 { return .connected(fd) }
        var code = errno
        if code == EINPROGRESS || code == EAGAIN {
            // A listener whose backlog is full: wait for the connection to complete.
            if waitFor(fd, events: Int16(POLLOUT), timeout: timeout) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return .connected(fd) }
                code = error
            } else {
                code = ETIMEDOUT
            }
        }
        close(fd)
        return .failed(code)
    }

    /// Waits until `fd` is ready for `events` or `timeout` seconds pass; true when ready (or hung up).
    package static func waitFor(_ fd: Int32, events: Int16, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let remaining = max(0, deadline.timeIntervalSinceNow)
            let n = poll(&entry, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if n > 0 { return true }
            if n < 0 && errno == EINTR { continue }
            if n == 0 && Date() < deadline { continue }
            return false
        }
    }

    /// The uid of the process at the other end of a connected Unix socket (`SO_PEERCRED`).
    package static func peerUID(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Glibc does not export it to Swift.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.1
    }

    /// Sends without raising SIGPIPE; returns the bytes written, 0 when the socket is full, nil when it broke.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count > 0 else { return 0 }
        while true {
            let n = Foundation.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return nil
            }
        }
    }

    package enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(Int32)
    }

    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }
}
