// Which daemons serve a store: before a store is migrated, rhr asks, and refuses while one of another build does.
import Foundation
import RHRCore
import RHRJSON

/// A daemon serving a store, as it says of itself: in the file it keeps locked beside the store while it runs
/// (`STORE-daemon-PID`, written by the daemon), or in its `status` reply over its socket.
public struct ServingDaemon: Sendable, Equatable {
    public var pid: Int32
    public var socket, store, version: String
    /// Its commit's first 12 digits; nil for an rhr before builds were named (it says only its version).
    public var build: String?

    public init(pid: Int32, socket: String, store: String, version: String, build: String?) {
        (self.pid, self.socket, self.store, self.version, self.build) = (pid, socket, store, version, build)
    }

    public var json: JSONObject {
        ["pid": .number(JSONNumber(Int(pid))), "socket": .string(socket), "store": .string(store),
         "version": .string(version), "build": build.map { .string($0) } ?? .null]
    }

    public init(members: JSONMembers) throws(JSONPathError) {
        self.init(pid: try members.requiredDecode("pid", "a process id") { $0.int64.flatMap { Int32(exactly: $0) } },
                  socket: try members.requiredString("socket"), store: try members.requiredString("store"),
                  version: try members.requiredString("version"), build: try members.string("build"))
    }

    /// "rhr daemon pid 4242 (rhr 0.1.0 (build c765f90a1b2c), socket /run/user/1000/rhr/rhr.sock)".
    public var description: String {
        "rhr daemon pid \(pid) (rhr \(RHRVersion.describe(version: version, build: build)), socket \(socket))"
    }

    /// Whether it is this very build: same version, same commit.
    public var isThisBuild: Bool { version == RHRVersion.current && build == RHRVersion.build }
}

/// Finds the daemons that serve a store (docs/design.md section 8, version skew): those that keep their file beside it,
/// and the one on each socket given (the default one, and one a command was given), asked over it, which is how a
/// daemon of an rhr before these files is found. A newer rhr does not bring a store's schema up to date while one of
/// another build serves it: that daemon would fail on the new schema ("no such column") or write what it forbids.
public enum ServingDaemons {
    /// The prefix of the files daemons keep beside `store`: `rhr.sqlite-daemon-`, then the pid.
    public static func recordPrefix(forStore store: String) -> String { store + "-daemon-" }

    public static func find(store: String, sockets: [String]) -> [ServingDaemon] {
        var found = recorded(store: store)
        for socket in Set(sockets) where !found.contains(where: { $0.socket == socket }) {
            if let daemon = asked(socket: socket, store: store) { found.append(daemon) }
        }
        return found.sorted { $0.pid < $1.pid }
    }

    /// Why the store at `path` may not be migrated now, naming the daemons to stop; nil when none of another build
    /// serves it.
    public static func refusal(store path: String, from: Int64, to: Int64, sockets: [String]) -> String? {
        let others = find(store: path, sockets: sockets).filter { !$0.isThisBuild }
        guard !others.isEmpty else { return nil }
        let pids = others.map { String($0.pid) }.joined(separator: " ")
        return "\(path): the store's schema must be brought up to date (\(from) → \(to)) for rhr \(RHRVersion.described), "
            + "but \(others.map(\.description).joined(separator: "; ")) serves it, and would fail on the new schema; "
            + "nothing was changed. Stop it (kill \(pids), or systemctl --user stop rhr), run this again, then start "
            + "the daemon of this rhr"
    }

    /// The daemons whose files are beside the store and alive: the lock file of its socket locked (a daemon holds it
    /// while it runs) and its pid running. A file whose daemon is gone is left from one that was killed, and is removed.
    static func recorded(store: String) -> [ServingDaemon] {
        let prefix = recordPrefix(forStore: store)
        let directory = PathText.parent(prefix), name = PathText.lastComponent(prefix)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var found: [ServingDaemon] = []
        for file in names where file.hasPrefix(name) && file.dropFirst(name.count).allSatisfy(\.isNumber) {
            let path = PathText.join(directory, file)
            guard let data = FileManager.default.contents(atPath: path), let value = try? JSONParser.parse(Array(data)),
                  let object = value.object, let daemon = try? ServingDaemon(members: JSONMembers(object)) else { continue }
            guard isAlive(daemon) else {
                unlink(path)
                continue
            }
            found.append(daemon)
        }
        return found
    }

    /// Its pid runs and the lock file of its socket is held (`SOCKET.lock`, which a daemon keeps locked while it runs).
    static func isAlive(_ daemon: ServingDaemon) -> Bool {
        guard kill(daemon.pid, 0) == 0 || errno == EPERM else { return false }
        let fd = open(daemon.socket + ".lock", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// The daemon on `socket`, when one answers and serves `store`.
    static func asked(socket: String, store: String) -> ServingDaemon? {
        guard let client = try? DaemonClient(socketPath: socket, timeout: 1),
              let status: StatusReply = try? client.request(.status, timeout: 3).decode(),
              sameFile(status.store, store) else { return nil }
        return ServingDaemon(pid: status.pid, socket: status.socket, store: status.store, version: status.version,
                             build: status.build)
    }

    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
