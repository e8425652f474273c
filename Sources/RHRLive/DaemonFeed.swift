import Foundation
import RHRCore
import RHRDaemonClient
import RHRDashboard
import RHRSystem

/// The dashboard's live feed: a subscription to `rhr daemon` (docs/design.md section 4) as dashboard events.
///
/// - `changed` → `.storeChanged(revision:days:)`; `resync` → the same with no days (read everything);
///   a folder import the daemon could not read → a note; the connection closing → `.liveFeedEnded`, after
///   which there is no descriptor to watch.
/// - Only a daemon that serves the store on screen is followed (the same file); one serving another store is
///   left alone, with a note when its socket was named on the command line.
/// - Without a daemon it looks again every few seconds (a connect to a missing socket costs microseconds),
///   so a daemon started later, or again, is followed from then on.
@MainActor
public final class DaemonFeed: DashboardFeed {
    public let socketPath: String
    /// The store on screen.
    public let storePath: String
    /// The socket was named on the command line: say why it is not followed.
    private let explicit: Bool
    private let retrySeconds: Double
    private var client: DaemonClient?
    private var lastAttempt = Date.distantPast
    /// Events of the connection made in `init`, handed over by `start()`.
    private var initial: [DashboardEvent] = []
    /// The other store the daemon on the socket serves, when it serves another one (noted once).
    private var notedOtherStore: String?

    /// Connects when a daemon listens and serves `storePath`, subscribing before anything is read, so no
    /// change can fall between the dashboard's first read and its subscription.
    public init(socketPath: String, storePath: String, explicit: Bool = false, retrySeconds: Double = 3) {
        self.socketPath = socketPath
        self.storePath = storePath
        self.explicit = explicit
        self.retrySeconds = retrySeconds
        initial = connect()
    }

    public var isConnected: Bool { client != nil }

    public var fileDescriptor: Int32? { client?.fileDescriptor }

    public func start() -> [DashboardEvent] {
        defer { initial = [] }
        return initial + (client == nil ? [] : receive())
    }

    public var idleInterval: Int32? {
        client == nil ? Int32(retrySeconds * 1000) : nil
    }

    public func idle() -> [DashboardEvent] {
        // A daemon that serves another store is asked less often: it is unlikely to change its mind soon.
        let wait = notedOtherStore == nil ? retrySeconds : retrySeconds * 10
        guard client == nil, Date().timeIntervalSince(lastAttempt) >= wait * 0.9 else { return [] }
        let events = connect()
        return client == nil ? events : events + receive()
    }

    public func receive() -> [DashboardEvent] {
        guard let client else { return [] }
        var events: [DashboardEvent] = []
        // Until nothing is left: a message read along with an earlier one would otherwise wait in the client
        // for the next wake-up.
        while true {
            let messages: [DaemonEvent]
            do {
                messages = try client.receiveAvailable()
            } catch {
                client.close()
                self.client = nil
                events.append(.liveFeedEnded(at: MachineClock.now()))
                return events
            }
            if messages.isEmpty { return events }
            events += messages.compactMap(Self.event)
        }
    }

    /// One daemon event as a dashboard event, if it is one the dashboard acts on.
    nonisolated static func event(_ event: DaemonEvent) -> DashboardEvent? {
        switch event {
        case .changed(let revision, let days):
            // A change that names no day cannot be patched: read everything.
            return .storeChanged(revision: revision, days: Set(days))
        case .resync(let revision, _, _):
            return .storeChanged(revision: revision, days: [])
        case .imported(let entry) where !entry.ok:
            let file = PathText.lastComponent(entry.file)
            return .liveFeedNote("The daemon's folder watch skipped \(file): \(entry.error ?? "unreadable")")
        case .imported, .other:
            return nil
        }
    }

    /// Connects, checks the daemon serves this store, subscribes. Quietly nothing when no daemon listens.
    private func connect() -> [DashboardEvent] {
        lastAttempt = Date()
        // Short waits: this runs before the first frame, and on the run loop's thread.
        guard let client = try? DaemonClient(socketPath: socketPath, timeout: 0.5) else { return [] }
        // A daemon that does not answer in time, or not as expected, is left alone like a missing one.
        guard let store = try? client.request(.status, timeout: 1).decode(StatusReply.self).store else {
            client.close()
            return []
        }
        guard Self.sameFile(store, storePath) else {
            client.close()
            let known = notedOtherStore == store
            notedOtherStore = store
            guard explicit, !known else { return [] }
            return [.liveFeedNote("The daemon on \(socketPath) serves another store (\(store)); not following it.")]
        }
        guard let revision = try? client.subscribe(timeout: 1).decode(SubscribeReply.self).revision else {
            client.close()
            return []
        }
        self.client = client
        notedOtherStore = nil
        return [.liveFeedStarted(revision: revision, socket: socketPath)]
    }

    /// Whether two paths name the same file (device and inode), however they are spelled.
    nonisolated public static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }
}
