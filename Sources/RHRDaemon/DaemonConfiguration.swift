import Foundation
import RHRDaemonClient
import RHRSystem

/// How a daemon runs: where it listens, which store it serves, what it watches, and its limits.
public struct DaemonConfiguration: Sendable {
    public var socketPath: String
    public var storePath: String
    /// R5: the zone assumed for Health Connect records without an offset.
    public var machineZone: TimeZone = .current
    /// `--watch DIR`: directories whose exports are imported as they land.
    public var watchDirectories: [String] = []
    /// Seconds between two looks at the watched directories.
    public var watchInterval: Double = 0.5
    /// The most one temporary copy of a watched file may hold (`RHR_TEMP_LIMIT`, docs/design.md section 8).
    public var temporaryCopyLimit = TemporaryCopyLimit.defaultBytes
    /// Events that may wait for one subscriber before they are dropped for one `resync`.
    public var subscriberEventLimit = 1024
    /// Reply bytes that may wait for one client before the daemon stops reading its requests; also the
    /// most event bytes that may wait for one subscriber.
    public var outputByteLimit = 4 << 20
    /// `SO_SNDBUF` for client sockets; nil keeps the system's default (tests make it small).
    public var sendBufferSize: Int?
    /// The only uid allowed to connect (`SO_PEERCRED`): the daemon's own.
    public var allowedUID: uid_t = getuid()
    public var maxLineLength = DaemonProtocol.maxLineLength
    /// How often the daemon checks whether another process changed the store.
    public var externalChangeInterval: Double = 1
    /// At shutdown, how long requests in flight may take to finish and their replies to be written.
    public var shutdownGrace: Double = 15
    /// Where the daemon says what it does (stderr for `rhr daemon`, and its `--log FILE`).
    public var log: (@Sendable (String) -> Void)?
    /// SIGHUP, after `installSignalHandlers()`: the daemon goes on and calls this (reopen the log file).
    public var onHangup: (@Sendable () -> Void)?
    /// `--http`: the phone feeds (docs/design.md section 4b); nil listens on no network.
    public var http: HTTPFeedConfiguration?

    public init(socketPath: String, storePath: String) {
        self.socketPath = socketPath
        self.storePath = storePath
    }
}
