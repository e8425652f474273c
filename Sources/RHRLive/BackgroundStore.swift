import Foundation
import RHRStore

/// One connection for the dashboard's background reads, opened on first use and kept: the loader runs one
/// read at a time (on whichever thread), and a warm connection reads a few days in a millisecond or two.
/// The lock makes one-at-a-time a rule rather than a hope.
///
/// `@unchecked Sendable`: `database` (one SQLite connection, for one thread at a time) is opened and used under
/// `lock` only; the rest never changes.
public final class BackgroundStore: @unchecked Sendable {
    public let path: String
    private let machineZone: TimeZone
    private let lock = NSLock()
    private var database: HealthDatabase?

    public init(path: String, machineZone: TimeZone = .current) {
        self.path = path
        self.machineZone = machineZone
    }

    public func read<T>(_ body: (HealthDatabase) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if database == nil { database = try HealthDatabase(path: path, machineZone: machineZone) }
        return try body(database!)
    }
}
