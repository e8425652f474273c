import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// rhr never changes a file it did not make (docs/design.md section 8, "Refuse before touching"): a store path that is
/// a symbolic link, an empty file, an SQLite database that is not rhr's or a directory is refused by every command
/// that opens a store, the daemon among them, and left exactly as it was. The real binary, as a user would run it.
@Suite("rhr refuses store paths it did not make")
struct StoreFileRefusalTests {
    let rhr: RHRSandbox
    init() throws { rhr = try RHRSandbox() }

    static let batch = SourceTree.samples + "/batches/healthkit-iphone.jsonl"

    /// Every command that opens the store, as run with `--store`; the daemon is started and must end by itself.
    static let commands: [[String]] = [["import", batch], ["status"], ["export"], ["summary"], ["token", "new", "phone"],
                                       ["token", "list"], ["token", "revoke", "phone"], ["daemon"]]

    struct Outcome {
        var command: [String]
        var status: Int32
        var stderr: String
    }

    /// Runs each of `commands` on `store`. A daemon that is still serving after 15 s is stopped and counts as status -1.
    func runEach(on store: String) throws -> [Outcome] {
        try Self.commands.map { command in
            guard command == ["daemon"] else {
                let result = try rhr.run(command + ["--store", store])
                return Outcome(command: command, status: result.status, stderr: result.stderr)
            }
            let daemon = try rhr.start(["daemon", "--store", store, "--socket", rhr.directory.file("run/d.sock")], log: "daemon.log")
            let ended = daemon.waitForExit(timeout: 15)
            if !ended { daemon.stop() }
            return Outcome(command: command, status: ended ? daemon.termination?.status ?? -1 : -1, stderr: rhr.log("daemon.log"))
        }
    }

    /// Each command failed with exit 1 and said `message`.
    func expectRefused(_ outcomes: [Outcome], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for outcome in outcomes {
            #expect(outcome.status == 1, "\(outcome.command): \(outcome.stderr)", sourceLocation: sourceLocation)
            #expect(outcome.stderr.contains(message), "\(outcome.command): \(outcome.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test("a store path that is a symbolic link is refused by every command; its target keeps its mode and content")
    func symbolicLinkRefused() throws {
        let store = rhr.directory.file("targets/rhr.sqlite")
        try rhr.imported(["import", "--store", store, Self.batch])
        let notes = try rhr.write("targets/notes.txt", "buy milk\n")
        for target in [store, notes] {
            chmod(target, 0o644)
            let link = rhr.directory.file("link-\(PathText.lastComponent(target))")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let before = FileFingerprint(target), neighbours = rhr.directory.entries("targets")
            expectRefused(try runEach(on: link), "\(link): is a symbolic link (to \(target)); rhr does not follow a link at "
                + "the store's path, so nothing was changed; give the file itself with --store")
            #expect(FileFingerprint(target) == before, "\(target) kept its mode (0644) and content")
            #expect(rhr.directory.entries("targets") == neighbours, "no -wal, -shm or -tokens beside the target")
            #expect(!FileManager.default.fileExists(atPath: link + "-tokens"))
        }
    }

    @Test("a symbolic link among the store's directories is followed: the store is the file at the end of the path")
    func linkedDirectoryIsFine() throws {
        try FileManager.default.createDirectory(atPath: rhr.directory.file("real"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: rhr.directory.file("linked"), withDestinationPath: rhr.directory.file("real"))
        let store = rhr.directory.file("linked/rhr.sqlite")
        try rhr.imported(["import", "--store", store, Self.batch])
        #expect(FileMode.permissions(rhr.directory.file("real/rhr.sqlite")) == 0o600)
        let status = try rhr.run(["status", "--store", store])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("store: \(store)\nrevision: 3\n"), "\(status.stdout)")
        let export = try rhr.run(["export", "--store", store])
        let real = try rhr.run(["export", "--store", rhr.directory.file("real/rhr.sqlite")])
        #expect(export.status == 0 && export == real)
    }

    @Test("an empty file at the store path is refused by every command, never taken over as the store")
    func emptyFileRefused() throws {
        let empty = try rhr.write("empty.sqlite", "")
        chmod(empty, 0o644)
        let outcomes = try runEach(on: empty)
        expectRefused(outcomes, "\(empty): not an rhr store (an empty file); nothing was changed; rhr makes a new store only "
            + "where there is no file")
        #expect(FileMode.size(empty) == 0 && FileMode.permissions(empty) == 0o644)
        #expect(rhr.directory.entries().filter { $0.hasPrefix("empty.sqlite") } == ["empty.sqlite"])
    }

    @Test("an SQLite database without tables is not a store to take over: refused by every command, left as it was")
    func sqliteWithoutTablesRefused() throws {
        let path = rhr.directory.file("blank.sqlite")
        try SQLiteFile.execute("CREATE TABLE t(x); DROP TABLE t", at: path)
        chmod(path, 0o644)
        let before = FileFingerprint(path)
        let outcomes = try runEach(on: path)
        expectRefused(outcomes, "\(path): not an rhr store (an SQLite database with no tables); nothing was changed")
        #expect(FileFingerprint(path) == before)
        #expect(rhr.directory.entries().filter { $0.hasPrefix("blank.sqlite") } == ["blank.sqlite"])
    }

    @Test("a directory given as the store is refused by every command, rhr token included, and nothing is made beside it")
    func directoryRefused() throws {
        let directory = rhr.directory.file("adir")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let outcomes = try runEach(on: directory)
        expectRefused(outcomes, "\(directory): is a directory, not an rhr store")
        #expect(rhr.directory.entries().filter { $0.hasPrefix("adir") } == ["adir"], "no adir-tokens beside it")
        #expect(rhr.directory.entries("adir").isEmpty)
    }

    @Test("imports and readers starting at once on one new store: every import succeeds, no reader sees half a store")
    func racingOnANewStore() throws {
        for round in 0..<6 {
            let store = rhr.directory.file("race-\(round)/rhr.sqlite")
            let results = Recorder<(String, SubprocessResult)>()
            DispatchQueue.concurrentPerform(iterations: 5) { i in
                let command = i < 3 ? ["import", "--store", store, Self.batch] : ["status", "--store", store]
                do { results.append((command[0], try rhr.run(command))) } catch {
                    results.append((command[0], SubprocessResult(status: -1, stdout: "", stderr: "\(error)")))
                }
            }
            for (command, result) in results.all {
                if command == "import" {
                    #expect(result.status == 0, "round \(round): \(result.stderr)")
                } else {
                    // Before the store is in place there is none; once it is, it is whole.
                    let none = "rhr status: \(store): no store there; rhr import --store \(store) FILE makes one\n"
                    #expect(result.status == 0 || result.stderr == none, "round \(round): \(result.stderr)")
                }
            }
            // Only SQLite's own files (a reader that closed last leaves its -wal and -shm), no half-made store.
            #expect(Set(rhr.directory.entries("race-\(round)")).isSubset(of: ["rhr.sqlite", "rhr.sqlite-wal", "rhr.sqlite-shm"]),
                    "round \(round): \(rhr.directory.entries("race-\(round)"))")
        }
    }
}
