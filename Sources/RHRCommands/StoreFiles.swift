import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRLive
import RHRStore
import RHRSystem

/// Where the store lives and how commands open it: private directories, the default path, a temporary store.
enum StorePath {
    /// `$XDG_DATA_HOME/rhr/rhr.sqlite`, else `~/.local/share/rhr/rhr.sqlite`: the XDG rule the dashboard's files use.
    static func defaultPath(environment: [String: String]) -> String {
        DashboardFiles.base("XDG_DATA_HOME", fallback: ".local/share", environment: environment) + "/rhr/rhr.sqlite"
    }

    /// `path` from the root, the way the dashboard keys a store's view: symbolic links resolved when it exists.
    static func absolute(_ path: String) -> String { DashboardFiles.storeKey(path) }

    /// Creates the store's directory and any missing parents, each readable by its owner only.
    static func preparePrivateDirectory(for storePath: String) throws {
        do {
            try PrivateFiles.makeDirectories(PathText.parent(storePath))
        } catch {
            throw CommandFailure("\(error.path): cannot create the store's directory: \(error.reason)")
        }
    }
}

/// Opens the store the invocation names for writing, creating it and its private directory when needed.
func openStore(_ invocation: Invocation) throws -> HealthDatabase {
    let path = invocation.storePath
    try StorePath.preparePrivateDirectory(for: path)
    do {
        return try HealthDatabase(path: path, machineZone: invocation.machineZone,
                                  beforeMigrating: StorePath.migrationCheck(invocation))
    } catch {
        throw CommandFailure(error.message)
    }
}

/// Opens the store the invocation names for a command that only reads it (status, export, summary, the
/// dashboard): read-only, so a read-only store reads, and nothing is created. Where there is no store, a
/// `--store PATH` is a failure that says so and how to make one; the default path, before the first import,
/// is an empty store in memory, so the command shows what it shows on an empty store.
func openStoreForReading(_ invocation: Invocation) throws -> HealthDatabase {
    try openStoreForReading(invocation.storePath, named: invocation.arguments.value("store") != nil,
                            machineZone: invocation.machineZone, beforeMigrating: StorePath.migrationCheck(invocation))
}

/// `named`: the user named the path (`--store`), so no store there is a mistake to point out.
func openStoreForReading(_ path: String, named: Bool, machineZone: TimeZone,
                         beforeMigrating: MigrationCheck?) throws -> HealthDatabase {
    do {
        if let store = try HealthDatabase.reading(path: path, machineZone: machineZone, beforeMigrating: beforeMigrating) {
            return store
        }
        guard !named else { throw CommandFailure(StorePath.noStore(path)) }
        return try HealthDatabase.empty(machineZone: machineZone)
    } catch let error as StoreError {
        throw CommandFailure(error.message)
    }
}

extension StorePath {
    /// Refuses to bring the store up to date while a daemon of another build serves it (docs/design.md section 8,
    /// version skew): one that keeps its file beside the store, the one on the default socket, or on `--socket`.
    static func migrationCheck(_ invocation: Invocation) -> MigrationCheck {
        let given = invocation.arguments.value("socket").map(DaemonCommand.absolutePath)
        return VersionSkew.check(sockets: [SocketPath.defaultPath(environment: invocation.environment)] + (given.map { [$0] } ?? []))
    }

    /// What a reading command says about a `--store` that names no store.
    static func noStore(_ path: String) -> String {
        "\(path): no store there; rhr import --store \(path) FILE makes one"
    }
}

/// A store in a fresh private directory, removed when the value goes away, and by a signal before it ends the
/// process (a `ScratchDirectory`): the health data of `rhr PATH` and `rhr demo` outlives neither.
final class TemporaryStore {
    private let scratch: ScratchDirectory
    var path: String { scratch.file("rhr.sqlite") }

    init() throws {
        do {
            scratch = try ScratchDirectory(purpose: "store", files: ["rhr.sqlite"])
        } catch {
            throw CommandFailure("cannot create a temporary store: \(error.description)")
        }
    }

    func open(machineZone: TimeZone) throws -> HealthDatabase {
        do { return try HealthDatabase(path: path, machineZone: machineZone) } catch { throw CommandFailure(error.message) }
    }
}
