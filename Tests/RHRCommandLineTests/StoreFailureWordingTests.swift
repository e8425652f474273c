import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// Every way a store can fail that a user can meet, produced for real and seen through the real binary: each is said
/// in rhr's words (what cannot be done, why, that nothing was changed, what to do), never SQLite's own text
/// (docs/design.md section 8). A store with garbage pages is refused before the daemon serves it or an import writes.
@Suite("store failures in rhr's words")
struct StoreFailureWordingTests {
    let rhr: RHRSandbox
    init() throws { rhr = try RHRSandbox() }

    static let batches = ["healthkit-iphone.jsonl", "healthconnect-pixel.jsonl"].map { SourceTree.samples + "/batches/" + $0 }
    /// What SQLite says of itself, which no user should read.
    static let sqliteWords = ["database disk image is malformed", "file is not a database", "database or disk is full",
                              "disk I/O error", "unable to open database file", "attempt to write a readonly database",
                              "statement failed", "cannot prepare", "constraint failed"]

    func expectWorded(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for words in Self.sqliteWords {
            #expect(!text.contains(words), "\(what): \(text)", sourceLocation: sourceLocation)
        }
    }

    /// The default store with the sample batches in it, its log checkpointed into the file (every process closed it).
    func importedStore() throws -> String {
        try rhr.imported(["import"] + Self.batches)
        try #require(!FileManager.default.fileExists(atPath: rhr.storePath + "-wal"))
        return rhr.storePath
    }

    /// Health Auto Export JSON with a resting value for each of `days` days from 1 Jan 2010: a file that makes the
    /// store grow by about a kilobyte a day.
    func bigFile(days: Int) throws -> String {
        let first = LocalDay(year: 2010, month: 1, day: 1)!
        let points = (0..<days).map { n in
            PhonePayloads.Point("\(first.adding(days: n)) 00:00:00 +0100", Double(50 + n % 20), source: "Writer \(n % 7)")
        }
        return try rhr.directory.write("big.json", PhonePayloads.healthAutoExport(resting: points))
    }

    /// `rhr daemon` on `store`, which must refuse to start: its exit status (-1 when it served instead) and its log.
    func refusedDaemon(store: String) throws -> (status: Int32, log: String) {
        let daemon = try rhr.start(["daemon", "--store", store, "--socket", rhr.directory.file("run/d.sock")])
        let ended = daemon.waitForExit(timeout: 20)
        if !ended { daemon.stop() }
        return (ended ? daemon.termination?.status ?? -1 : -1, rhr.log())
    }

    static func damagedWords(_ store: String) -> String {
        "\(store): the store is damaged: some of its pages are not what SQLite wrote there; nothing was changed. "
            + "Restore it from a backup, or save what can still be read: sqlite3 \(store) .recover | sqlite3 recovered.sqlite"
    }

    enum Damage: CaseIterable {
        /// Every table's and index's first page but `meta`'s: the store still says it is rhr's.
        case tablePages
        /// Every page after the first: only SQLite's header is left.
        case everyPageAfterTheFirst
    }

    /// Overwrites pages of the store with random bytes (seeded), as a disk fault or another program would.
    func damage(_ store: String, _ damage: Damage) throws {
        let pageSize = 4096
        let size = Int(try #require(FileMode.size(store)))
        var pages: [Int] = []
        switch damage {
        case .everyPageAfterTheFirst:
            pages = Array(2...(size / pageSize))
        case .tablePages:
            let roots = try rhr.directory.write("roots.sql", "SELECT rootpage FROM sqlite_master WHERE rootpage > 1 AND name != 'meta';")
            let sqlite3 = try #require(Subprocess.which("sqlite3"), "sqlite3 is needed; scripts/setup installs it")
            let listed = try Subprocess.run(sqlite3, [store, ".read \(roots)"])
            pages = listed.stdout.split(separator: "\n").compactMap { Int($0) }
            let metaRoot = try Subprocess.run(sqlite3, [store, "SELECT rootpage FROM sqlite_master WHERE name = 'meta'"])
            try #require(pages.count > 5 && !pages.contains(Int(metaRoot.stdout.dropLast()) ?? 0), "\(listed)")
        }
        var random = SplitMix64(seed: 21)
        let fd = open(store, O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        for page in pages {
            let garbage = (0..<pageSize).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let written = garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, pageSize, off_t((page - 1) * pageSize)) }
            try #require(written == pageSize)
        }
    }

    @Test("a store with garbage pages: the daemon does not serve it, an import changes nothing, readers say it is damaged",
          arguments: Damage.allCases)
    func garbagePages(_ kind: Damage) throws {
        let store = try importedStore()
        try damage(store, kind)
        let before = FileFingerprint(store)
        let daemon = try refusedDaemon(store: store)
        #expect(daemon.status == 1, "the daemon served a damaged store: \(daemon.log)")
        #expect(daemon.log.contains("rhr daemon: " + Self.damagedWords(store)), "\(daemon.log)")
        let imported = try rhr.run(["import", Self.batches[0]])
        #expect(imported.status == 1)
        #expect(imported.stderr == "rhr import: " + Self.damagedWords(store) + "\n")
        #expect(FileFingerprint(store) == before, "nothing was written to the damaged store")
        for command in ["status", "export", "summary"] {
            let read = try rhr.run([command])
            #expect(read.status == 1, "\(command): \(read.stdout)")
            #expect(read.stderr == "rhr \(command): " + Self.damagedWords(store) + "\n", "\(command)")
        }
        // SQLite's -wal and -shm, opened and left empty, are all there may be beside it.
        #expect(Set(rhr.directory.entries("data/rhr")).isSubset(of: ["rhr.sqlite", "rhr.sqlite-wal", "rhr.sqlite-shm"]))
        #expect(FileMode.size(store + "-wal") ?? 0 == 0)
    }

    /// Runs `rhr ARGS` in a mount namespace of its own where `directory` is a tmpfs of `kilobytes` KiB: a disk that
    /// fills for real, without root (a user namespace maps this user to root there). The shell runs `script` with
    /// `$RHR` the binary and `$D` the small disk.
    static func onSmallDisk(kilobytes: Int, _ script: String, rhr: RHRSandbox) throws -> SubprocessResult {
        let directory = rhr.directory.file("small")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let unshare = try #require(Subprocess.which("unshare"), "unshare (util-linux) is needed")
        return try Subprocess.run(unshare, ["--user", "--map-root-user", "--mount", "/bin/sh", "-c",
                                            "mount -t tmpfs -o size=\(kilobytes)k tmpfs \"$D\" && \(script)"],
                                  environment: rhr.environment.merging(["RHR": try SourceTree.builtProduct("rhr"), "D": directory]) { $1 },
                                  directory: rhr.home)
    }

    /// Whether this machine lets a user mount a tmpfs in a namespace of its own.
    static let smallDisksMount: Bool = {
        guard let unshare = Subprocess.which("unshare") else { return false }
        return (try? Subprocess.run(unshare, ["--user", "--map-root-user", "--mount", "/bin/sh", "-c",
                                              "mount -t tmpfs -o size=64k tmpfs /tmp"]).status) == 0
    }()

    @Test("a full disk: the import says the disk is full in rhr's words and the store keeps what it had",
          .enabled(if: smallDisksMount, "needs a user namespace to mount a small tmpfs"))
    func fullDisk() throws {
        let big = try bigFile(days: 4000)
        let result = try Self.onSmallDisk(kilobytes: 512, """
            "$RHR" import --store "$D/rhr.sqlite" \(Self.batches[0]) >/dev/null || exit 9
            "$RHR" status --store "$D/rhr.sqlite"; echo ---
            "$RHR" import --store "$D/rhr.sqlite" \(big); echo "import: $?"; echo ---
            "$RHR" status --store "$D/rhr.sqlite"
            """, rhr: rhr)
        let store = rhr.directory.file("small/rhr.sqlite")
        let parts = result.stdout.components(separatedBy: "---\n")
        #expect(parts.count == 3 && parts[1] == "import: 1\n" && parts[0] == parts[2], "\(result.stdout) \(result.stderr)")
        #expect(result.stderr == "rhr import: \(big): \(store): the disk that holds the store is full: the store could not "
            + "grow; nothing was changed; free some space on it and try again\n")
        expectWorded(result.stderr, "full disk")
    }

    @Test("a write the system refuses (a file size limit): an I/O error in rhr's words, and the store keeps what it had")
    func writeRefusedBySystem() throws {
        let store = try importedStore()
        let before = try rhr.run(["status"])
        let big = try bigFile(days: 2000)
        // `ulimit -f`: writes past 256 KiB fail with EFBIG; SIGXFSZ ignored, so the write fails instead of the process.
        let limited = try Subprocess.run("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 512; exec \"$0\" \"$@\"",
                                                     try SourceTree.builtProduct("rhr"), "import", big],
                                         environment: rhr.environment, directory: rhr.home)
        #expect(limited.status == 1)
        // SQLite keeps the system's errno only now and then: the words name it when they have it.
        #expect(limited.stderr.hasPrefix("rhr import: \(big): \(store): reading or writing the store failed (an I/O error"))
        #expect(limited.stderr.hasSuffix("); nothing was changed; check the disk, then try again\n"), "\(limited.stderr)")
        expectWorded(limited.stderr, "I/O error")
        #expect(try rhr.run(["status"]) == before)
    }

    @Test("a file SQLite keeps beside the store that cannot be opened (a -wal that is a directory): said in rhr's words")
    func companionCannotBeOpened() throws {
        let store = try importedStore()
        try FileManager.default.createDirectory(atPath: store + "-wal", withIntermediateDirectories: false)
        let imported = try rhr.run(["import", Self.batches[0]])
        #expect(imported.status == 1)
        #expect(imported.stderr == "rhr import: \(store): cannot open the store or a file SQLite keeps beside it (its -wal or "
            + "-shm): Is a directory; nothing was changed\n")
        let daemon = try refusedDaemon(store: store)
        #expect(daemon.status == 1)
        expectWorded(daemon.log, "daemon")
        let status = try rhr.run(["status"])
        expectWorded(status.stderr, "status")
    }

    @Test("a store whose tables another program dropped (all but meta): readers and an import say so in rhr's words")
    func tablesDroppedByAnotherProgram() throws {
        let store = try importedStore()
        let sqlite3 = try #require(Subprocess.which("sqlite3"), "sqlite3 is needed; scripts/setup installs it")
        let listed = try Subprocess.run(sqlite3, [store, "SELECT type || ' \"' || name || '\"' FROM sqlite_master "
                                                      + "WHERE type IN ('table', 'view') AND name != 'meta'"])
        let drops = listed.stdout.split(separator: "\n").map { "DROP \($0);" }.joined()
        try #require(!drops.isEmpty)
        try SQLiteFile.execute("PRAGMA foreign_keys = OFF; " + drops, at: store)
        let words = "\(store): the store's tables are not as rhr made them (has another program changed the file?); "
            + "nothing was changed\n"
        for command in [["status"], ["export"], ["import", try bigFile(days: 3)]] {
            let result = try rhr.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasSuffix(words), "\(command): \(result.stderr)")
            expectWorded(result.stderr, "\(command)")
            #expect(!result.stderr.contains("no such"), "\(command): \(result.stderr)")
        }
    }

    @Test("a store another program added a trigger to, which refuses rhr's writes: a constraint in rhr's words")
    func constraintAddedByAnotherProgram() throws {
        let store = try importedStore()
        try SQLiteFile.execute("CREATE TRIGGER no_more BEFORE UPDATE ON meta BEGIN SELECT RAISE(ABORT, 'no more'); END", at: store)
        let imported = try rhr.run(["import", try bigFile(days: 30)])
        #expect(imported.status == 1)
        #expect(imported.stderr.hasSuffix(": \(store): the store refused the change: a trigger in it, which rhr never makes, "
            + "refused it (another program has changed the store), so nothing of this import or request was applied\n"), "\(imported.stderr)")
        expectWorded(imported.stderr, "constraint")
        #expect(!imported.stderr.contains("no more"), "the trigger's own text is for the daemon's log, not the user")
    }
}
