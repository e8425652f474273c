import Foundation
import Synchronization

/// Connections that send a request head slowly (a slowloris): the request line at once, then one header byte
/// every half second from a thread of its own, until `stop()` or until `bytes` of them are sent (nil: no limit).
/// The daemon's test of its header deadline and the load bench's measure under the same attack use this one.
public final class TricklingHeads: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchGroup()
    /// Held, never used, so that their descriptors stay open while the thread writes to them: a client released
    /// early closes its socket, and its number, taken again by the next connection the caller opens, would get the
    /// trickled bytes (the good client of the load bench was answered 400 and 405 that way).
    nonisolated(unsafe) private let connections: [HTTPTestClient]

    public init(_ connections: [HTTPTestClient], bytes limit: Int? = nil) {
        self.connections = connections
        let descriptors = connections.map(\.fd)
        done.enter()
        Thread { [self] in
            defer { done.leave() }
            func send(_ text: String) {
                for fd in descriptors { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
            }
            send("POST /v1/health-auto-export HTTP/1.1\r\n")
            var sent = 0
            while !stopped.load(ordering: .relaxed), sent < limit ?? .max {
                usleep(500_000)
                send("X")
                sent += 1
            }
        }.start()
    }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    /// Waits for the thread to end (after `stop()`, within half a second).
    public func wait(timeout: DispatchTime = .distantFuture) -> DispatchTimeoutResult { done.wait(timeout: timeout) }
}
