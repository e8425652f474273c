import Foundation
import RHRStore
import Synchronization

/// One connection for the dashboard's background reads, opened on first use and kept: the loader runs one
/// read at a time (on whichever thread), and a warm connection reads a few days in a millisecond or two.
/// The mutex makes one-at-a-time a rule rather than a hope: the connection lives inside it and is only ever
/// handed to a read that holds it.
public final class BackgroundStore: Sendable {
    public let path: String
    private let machineZone: TimeZone
    private let database = Mutex<HealthDatabase?>(nil)

    public init(path: String, machineZone: TimeZone = .current) {
        self.path = path
        self.machineZone = machineZone
    }

    /// The store is opened read-only. Where there is none yet, `body` reads an empty one, and the next read
    /// looks again (a daemon or an import may make it meanwhile).
    public func read<T: Sendable>(_ body: (HealthDatabase) throws -> T) throws -> T {
        try database.withLock { database throws -> T in
            if database == nil { database = try HealthDatabase.reading(path: path, machineZone: machineZone) }
            return try body(try database ?? HealthDatabase.empty(machineZone: machineZone))
        }
    }
}
