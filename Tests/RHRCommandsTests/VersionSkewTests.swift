// A newer rhr never migrates a store that a running daemon of another build serves: it says which daemon to stop.
import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemonClient
import RHRJSON
@testable import RHRStore
import RHRTestSupport
import Testing

/// docs/design.md section 8, version skew: after an upgrade, the new `rhr status`, `rhr import` or dashboard finds the
/// older daemon still serving the store (over its socket, or by the file it keeps beside the store) and refuses to bring
/// the schema up to date, naming the daemon (pid, socket, version and build); the store is left as it was. Once the
/// daemon is gone, the store is migrated and records which rhr did it.
@Suite("rhr in process: version skew")
struct VersionSkewTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    /// A store as the rhr before this one left it: every migration but the last.
    func makeOlderStore() throws {
        try FileManager.default.createDirectory(atPath: PathText.parent(rhr.sandbox.storePath), withIntermediateDirectories: true)
        try SQLiteFile.execute(StoreSchema.migrations.dropLast().joined(separator: ";\n")
            + ";\nPRAGMA user_version = \(StoreSchema.version - 1)", at: rhr.sandbox.storePath)
    }

    /// The store's schema version, read behind rhr's back.
    func schema() throws -> Int64 {
        let sqlite3 = try #require(Subprocess.which("sqlite3"), "sqlite3 is needed; scripts/setup installs it")
        let read = try Subprocess.run(sqlite3, [rhr.sandbox.storePath, "PRAGMA user_version"])
        return Int64(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func olderDaemon(pid: Int32, build: String?) throws -> OtherDaemon {
        let socket = rhr.sandbox.socketPath
        return try OtherDaemon(socketPath: socket, status: OtherDaemon.status(store: rhr.sandbox.storePath, socket: socket,
                                                                             pid: pid, version: "0.1.0", build: build))
    }

    @Test func aNewerRhrDoesNotMigrateAStoreAnOlderDaemonServes() throws {
        try makeOlderStore()
        let daemon = try olderDaemon(pid: 4242, build: "0123456789ab")
        let named = "rhr daemon pid 4242 (rhr 0.1.0 (build 0123456789ab), socket \(rhr.sandbox.socketPath)) serves it"
        for words in [["status"], ["import", InProcessRHR.sample("batches/healthkit-iphone.jsonl")], ["export"], ["summary"]] {
            let refused = rhr.run(words)
            #expect(refused.status == 1, "\(words): \(refused)")
            #expect(refused.stderr.contains("\(rhr.sandbox.storePath): the store's schema must be brought up to date "
                + "(\(StoreSchema.version - 1) → \(StoreSchema.version)) for rhr \(RHRVersion.described), but "),
                "\(words): \(refused.stderr)")
            #expect(refused.stderr.contains(named), "\(words): \(refused.stderr)")
            #expect(refused.stderr.contains("nothing was changed. Stop it (kill 4242, or systemctl --user stop rhr)"),
                    "\(refused.stderr)")
            #expect(try schema() == StoreSchema.version - 1, "\(words) migrated the store")
        }
        // The older daemon stopped: the store is brought up to date, and says by which rhr.
        daemon.stop()
        let status = rhr.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("schema: brought up to date by rhr \(RHRVersion.described)\n"), "\(status.stdout)")
        #expect(try schema() == StoreSchema.version)
    }

    /// Today's daemons name only their version: one is found all the same, and said to name no build.
    @Test func anOlderDaemonThatNamesNoBuildIsFound() throws {
        try makeOlderStore()
        let daemon = try olderDaemon(pid: 777, build: nil)
        let refused = rhr.run(["status"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("rhr daemon pid 777 (rhr 0.1.0 (build not named), socket \(rhr.sandbox.socketPath))"),
                "\(refused.stderr)")
        #expect(try schema() == StoreSchema.version - 1)
        _ = daemon
    }

    /// A daemon on a socket no command is told of is found by the file it keeps beside the store, alive while its
    /// socket's lock file is locked and its pid runs; a file whose daemon is gone is left from one that was killed, and
    /// is cleared away.
    @Test func aDaemonOnAnotherSocketIsFoundByItsFileBesideTheStore() throws {
        try makeOlderStore()
        // The daemon is this test's process, on a socket elsewhere whose lock file it holds.
        let socket = rhr.sandbox.home + "/elsewhere/rhr.sock"
        try FileManager.default.createDirectory(atPath: PathText.parent(socket), withIntermediateDirectories: true)
        let record = ServingDaemons.recordPrefix(forStore: rhr.sandbox.storePath) + String(getpid())
        let other = ServingDaemon(pid: getpid(), socket: socket, store: rhr.sandbox.storePath, version: "0.1.0",
                                  build: "fedcba987654")
        try (JSONWriter.string(.object(other.json)) + "\n").write(toFile: record, atomically: true, encoding: .utf8)
        let held = open(socket + ".lock", O_RDWR | O_CREAT, 0o600)
        #expect(flock(held, LOCK_EX) == 0)
        let refused = rhr.run(["export"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("rhr daemon pid \(getpid()) (rhr 0.1.0 (build fedcba987654), socket \(socket))"),
                "\(refused.stderr)")
        #expect(try schema() == StoreSchema.version - 1)
        close(held)   // the daemon was killed: nobody holds its socket's lock
        #expect(rhr.run(["export"]).status == 0)
        #expect(try schema() == StoreSchema.version)
        #expect(!FileManager.default.fileExists(atPath: record))
    }
}
