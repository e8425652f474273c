import CSQLite
import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// The store under real processes: several creating one new store at once, and stores that cannot be written
/// (docs/design.md section 8).
@Suite("rhr processes on one store")
struct StoreProcessTests {
    let rhr: RHRSandbox
    init() throws { rhr = try RHRSandbox() }

    static let batches = ["healthkit-iphone.jsonl", "healthconnect-pixel.jsonl"].map { SourceTree.samples + "/batches/" + $0 }

    @Test("imports started at once on one new store all succeed, round after round")
    func concurrentImportsOnANewStore() throws {
        for round in 0..<8 {
            let store = rhr.directory.file("round-\(round)/rhr.sqlite")
            let results = Recorder<SubprocessResult>()
            DispatchQueue.concurrentPerform(iterations: 3) { i in
                let file = Self.batches[i % 2]
                do { results.append(try rhr.run(["import", "--store", store, file])) } catch {
                    results.append(SubprocessResult(status: -1, stdout: "", stderr: "\(error)"))
                }
            }
            for result in results.all {
                #expect(result.status == 0, "round \(round): \(result.stderr)")
            }
        }
    }

    @Test("a daemon and an import starting at once on one new store both succeed, and the daemon keeps serving")
    func daemonAndImportOnANewStore() throws {
        for round in 0..<5 {
            let store = rhr.directory.file("d\(round)/rhr.sqlite")
            let socket = rhr.directory.file("s\(round)/rhr.sock")
            let daemon = try rhr.start(["daemon", "--store", store, "--socket", socket], log: "daemon-\(round).log")
            defer { daemon.stop() }
            let imported = try rhr.run(["import", "--store", store, Self.batches[round % 2]])
            #expect(imported.status == 0, "round \(round): \(imported.stderr)")
            #expect(eventually { FileManager.default.fileExists(atPath: socket) || !daemon.isRunning })
            #expect(daemon.isRunning, "round \(round): \(rhr.log("daemon-\(round).log"))")
        }
    }

    // MARK: - Stores that cannot be written

    /// Runs `rhr ARGS` as the owner of the sandbox's files, without the power to write what is read-only. As
    /// root (which may write anything) that is another user: the sandbox is handed to `nobody` and rhr runs
    /// under `setpriv` as it.
    func runWithoutPrivilege(_ arguments: [String]) throws -> SubprocessResult {
        guard geteuid() == 0 else { return try rhr.run(arguments) }
        let setpriv = try #require(Subprocess.which("setpriv"), "running as root, the test needs setpriv to drop root")
        let chown = try Subprocess.run(try #require(Subprocess.which("chown")), ["-R", "65534:65534", rhr.home])
        try #require(chown.status == 0, "\(chown.stderr)")
        return try Subprocess.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", try SourceTree.builtProduct("rhr")]
                                      + arguments, environment: rhr.environment, directory: "/")
    }

    /// `runWithoutPrivilege` with the store's directory read-only (0500) for the while.
    func runInReadOnlyDirectory(_ arguments: [String]) throws -> SubprocessResult {
        let directory = PathText.parent(rhr.storePath)
        chmod(directory, 0o500)
        defer { chmod(directory, 0o700) }
        return try runWithoutPrivilege(arguments)
    }

    /// A store with the sample batches, and what `rhr export` says of it while it can be written.
    func importedStore() throws -> String {
        try rhr.imported(["import"] + Self.batches)
        let export = try rhr.run(["export"])
        try #require(export.status == 0 && export.stdout.split(separator: "\n").count > 5, "\(export.stderr)")
        return export.stdout
    }

    func storeDirectoryEntries() -> [String] { rhr.directory.entries("data/rhr") }

    @Test("a store whose file is read-only (0400) reads, and nothing is left beside it")
    func readOnlyFile() throws {
        let expected = try importedStore()
        chmod(rhr.storePath, 0o400)
        let before = storeDirectoryEntries()
        for command in [["export"], ["summary"], ["status"]] {
            let result = try runWithoutPrivilege(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            if command == ["export"] { #expect(result.stdout == expected) }
        }
        #expect(storeDirectoryEntries() == before, "no -wal or -shm made beside a store that cannot be written")
        let refused = try runWithoutPrivilege(["import", Self.batches[0]])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(rhr.storePath): the store cannot be written"), "\(refused.stderr)")
    }

    @Test("a store of an earlier schema that cannot be written says so, not that reading commands can read it")
    func olderSchemaReadOnly() throws {
        _ = try importedStore()
        try SQLiteFile.execute("PRAGMA user_version = 2", at: rhr.storePath)
        let status = try runInReadOnlyDirectory(["status"])
        #expect(status.status == 1)
        #expect(status.stderr.contains("\(rhr.storePath): the store was written by an earlier rhr (schema 2; this one reads "), "\(status.stderr)")
        #expect(!status.stderr.contains("commands that only read it"), "\(status.stderr)")
    }

    @Test("a store in a read-only directory reads")
    func readOnlyDirectory() throws {
        let expected = try importedStore()
        let result = try runInReadOnlyDirectory(["export"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
    }

    @Test("in a read-only directory each command that writes says what it cannot do and why, in rhr's words; reading goes on")
    func writingInAReadOnlyDirectory() throws {
        _ = try importedStore()
        let store = rhr.storePath, directory = PathText.parent(store), fresh = directory + "/new.sqlite"
        // The export, a reader that closed last, left an empty -wal and its -shm, through which SQLite could write
        // without making a file: as the store is when every process is done with it, they go.
        try #require(FileMode.size(store + "-wal") ?? 0 == 0)
        for suffix in ["-wal", "-shm"] { unlink(store + suffix) }
        let cannotWrite = "\(store): the store cannot be written here: its directory \(directory) may not be written "
            + "(permission denied), and SQLite keeps the store's -wal and -shm there; nothing was changed; commands that only "
            + "read it (status, export, summary, the dashboard) can"
        let cases: [([String], String)] = [
            (["import", Self.batches[0]], "rhr import: " + cannotWrite),
            (["daemon"], "rhr daemon: " + cannotWrite),
            (["import", "--store", fresh, Self.batches[0]],
             "rhr import: \(fresh): cannot make the store: its directory \(directory) may not be written (permission denied); "
                + "nothing was changed"),
            (["token", "new", "phone"],
             "rhr token: \(store)-tokens: the tokens cannot be changed: \(directory) may not be written (permission denied), "
                + "and they are kept beside the store"),
        ]
        for (command, message) in cases {
            let result = try runInReadOnlyDirectory(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix(message), "\(command): \(result.stderr)")
            for raw in ["readonly database", "unable to open database file", "cannot prepare"] {
                #expect(!result.stderr.contains(raw), "\(command): \(result.stderr)")
            }
        }
        for command in [["token", "list"], ["status"]] {
            let result = try runInReadOnlyDirectory(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
    }

    @Test("a store in a read-only directory whose -wal holds commits reads through its -shm")
    func readOnlyDirectoryWithWAL() throws {
        _ = try importedStore()
        // A connection held open keeps the commits below in the -wal (nothing checkpoints them into the file).
        var holder: OpaquePointer?
        try #require(sqlite3_open(rhr.storePath, &holder) == SQLITE_OK)
        defer { sqlite3_close(holder) }
        sqlite3_exec(holder, "PRAGMA wal_autocheckpoint = 0; UPDATE meta SET value = '41' WHERE key = 'revision'", nil, nil, nil)
        try #require(FileMode.size(rhr.storePath + "-wal") ?? 0 > 0)
        let status = try runInReadOnlyDirectory(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("revision: 41"), "the commit in the -wal was read: \(status.stdout)")
    }

    @Test("a -wal with commits and no -shm in a read-only directory is refused with the reason")
    func unreadableWAL() throws {
        _ = try importedStore()
        var holder: OpaquePointer?
        try #require(sqlite3_open(rhr.storePath, &holder) == SQLITE_OK)
        sqlite3_exec(holder, "PRAGMA wal_autocheckpoint = 0; UPDATE meta SET value = '41' WHERE key = 'revision'", nil, nil, nil)
        // A copy of the file and its -wal, as a crash would leave them, without the -shm.
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: rhr.storePath + suffix, toPath: rhr.directory.file("copy.sqlite" + suffix))
        }
        sqlite3_close(holder)
        chmod(rhr.directory.path, 0o500)
        defer { chmod(rhr.directory.path, 0o700) }
        let result = try runWithoutPrivilege(["export", "--store", rhr.directory.file("copy.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("copy.sqlite-wal holds changes that SQLite reads through a -shm file it cannot create here"),
                "\(result.stderr)")
    }
}
