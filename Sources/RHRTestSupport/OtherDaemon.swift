// A daemon of another rhr build on a real socket: it answers each request with what that build would say of itself.
import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import Synchronization

/// Listens on a real Unix socket and answers every request line with `{"ok":true,"id":…}` and `members`: what an rhr
/// of another build (an older daemon still running after an upgrade) says to `hello` and `status`. Stops when the
/// value goes away.
public final class OtherDaemon: Sendable {
    public let socketPath: String
    private let fd: Int32
    /// Shared with the thread that answers, which must not keep this value alive.
    private final class Run: Sendable {
        let stopping = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
    }
    private let run = Run()

    /// `status`: the members of its replies (`pid`, `socket`, `store`, `version`, maybe `build`, …).
    public init(socketPath: String, status members: JSONObject) throws {
        self.socketPath = socketPath
        try? FileManager.default.createDirectory(atPath: PathText.parent(socketPath), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        unlink(socketPath)
        fd = try UnixSocket.make()
        let bound = try UnixSocket.withAddress(socketPath) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw TestFailure("\(socketPath): cannot listen")
        }
        let listener = fd, run = self.run
        let thread = Thread {
            while !run.stopping.load(ordering: .relaxed) {
                guard UnixSocket.waitFor(listener, events: Int16(POLLIN), timeout: 0.05) else { continue }
                let client = accept(listener, nil, nil)
                guard client >= 0 else { continue }
                OtherDaemon.answer(client, members)
                close(client)
            }
            run.done.signal()
        }
        thread.start()
    }

    /// Reads request lines until the client closes, answering each.
    private static func answer(_ client: Int32, _ members: JSONObject) {
        var framer = JSONLineFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while UnixSocket.waitFor(client, events: Int16(POLLIN), timeout: 5) {
            let n = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            framer.append(buffer[0..<n])
            while case .line(let bytes, _)? = framer.next() {
                var reply: JSONObject = ["ok": true, "id": (try? JSONParser.parse(bytes))?["id"] ?? .null]
                for (key, value) in members { reply[key] = value }
                var out = JSONWriter.bytes(.object(reply))
                out.append(0x0A)
                _ = out.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            }
        }
    }

    /// What a daemon of rhr `version` (built from `build`, or of an rhr before builds were named) serving `store` says.
    public static func status(store: String, socket: String, pid: Int32, version: String, build: String?) -> JSONObject {
        var members: JSONObject = [
            "protocol": 1, "version": .string(version), "pid": .number(JSONNumber(Int(pid))), "socket": .string(socket),
            "store": .string(store), "uptime": 42, "clients": 1, "subscribers": 0, "revision": 3, "streams": [],
            "watch": ["directories": [], "looks": 0, "imports": []], "http": .null,
        ]
        if let build { members["build"] = .string(build) }
        return members
    }

    /// Stops answering and removes the socket, as a daemon that was stopped does.
    public func stop() {
        guard !run.stopping.exchange(true, ordering: .relaxed) else { return }
        run.done.wait()
        close(fd)
        unlink(socketPath)
    }

    deinit { stop() }
}
