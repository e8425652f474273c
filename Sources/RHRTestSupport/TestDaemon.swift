import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRJSON

/// A daemon served from a thread of this process, on a real socket and a real store in a temporary directory,
/// stopped when the value goes away.
public final class TestDaemon: Sendable {
    public let directory: TemporaryDirectory
    public let server: DaemonServer

    /// In UTC, with a short shutdown grace; `configure` changes the rest.
    public init(directory: TemporaryDirectory? = nil, configure: (inout DaemonConfiguration) -> Void = { _ in }) throws {
        self.directory = try directory ?? TemporaryDirectory(prefix: "rhrd")
        var configuration = DaemonConfiguration(socketPath: self.directory.socketPath, storePath: self.directory.storePath)
        configuration.machineZone = utc
        configuration.shutdownGrace = 5
        configure(&configuration)
        server = try TestDaemon.server(configuration)
        server.start()
    }

    /// The daemon, started again for a moment while its socket's lock is taken. A daemon stopped in this process
    /// has let go of the lock, but the lock's descriptor is copied into every child this process starts (other
    /// tests spawn programs all the time) until the child's `exec` closes it: a daemon started again on the same
    /// socket in that instant would take it for a live daemon there.
    private static func server(_ configuration: DaemonConfiguration) throws -> DaemonServer {
        let deadline = Date().addingTimeInterval(2)
        var result = Result { () throws(DaemonError) in try DaemonServer(configuration) }
        while case .failure(let error) = result, error.anotherDaemonListens,
              Date() < deadline {
            usleep(10_000)
            result = Result { () throws(DaemonError) in try DaemonServer(configuration) }
        }
        return try result.get()
    }

    public var socketPath: String { server.socketPath }

    /// With `configuration.http` set: where the phone feeds listen.
    public var httpPort: UInt16 { server.httpPort ?? 0 }

    /// Makes a token for the phone feeds, as `rhr token new NAME` does, beside the daemon's store.
    public func token(_ name: String) throws -> String {
        try FeedTokens(forStore: directory.storePath).create(name: name)
    }

    /// A connection to the phone feeds.
    public func http() throws -> HTTPTestClient { try HTTPTestClient(port: httpPort) }

    public func client() throws -> DaemonClient { try DaemonClient(socketPath: socketPath, timeout: 5) }

    /// A connection subscribed to the daemon's events; a refused subscription fails the test.
    public func subscriber() throws -> DaemonClient {
        let client = try client()
        let reply = try client.subscribe()
        guard reply.isOK else { throw TestFailure("subscribe refused: \(JSONWriter.string(.object(reply.message)))") }
        return client
    }

    /// Pushes a batch on a connection of its own, as `rhr push` does, and returns what it changed as the reply
    /// says; a refusal fails the test.
    @discardableResult
    public func push(_ batch: SyncBatch) throws -> BatchOutcome {
        let client = try client()
        defer { client.close() }
        let reply = try client.push(batch)
        guard reply.isOK else { throw TestFailure("push refused: \(JSONWriter.string(.object(reply.message)))") }
        return try reply.decode(BatchOutcome.self)
    }

    /// Stops the daemon and waits for it.
    public func stop() throws {
        server.stop()
        guard server.waitUntilStopped(timeout: 10) else { throw TestFailure("the daemon did not stop within 10 s") }
    }

    deinit {
        server.stop()
        server.waitUntilStopped(timeout: 10)
    }
}
