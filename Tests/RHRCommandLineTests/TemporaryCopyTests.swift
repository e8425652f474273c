import Foundation
import RHRTestSupport
import Testing

/// Temporary copies of health data are bounded and removed on every way out, signals included (docs/design.md
/// section 8): the real `rhr`, killed while it copies a Health Connect database out of a big zip.
@Suite("temporary copies: bounded, and gone after every signal", .serialized)
struct TemporaryCopyTests {
    /// A Health Connect export whose database is padded to 512 MiB with zeros: a small zip that takes a while to
    /// copy out. Made with the sample's database, `zip` and `head` (scripts/setup installs zip).
    func bigExport() throws -> String {
        let sample = SourceTree.samples + "/health-connect/Health Connect.zip"
        guard let zip = Subprocess.which("zip"), let unzip = Subprocess.which("unzip") else {
            throw TestFailure("zip and unzip are needed; scripts/setup installs them")
        }
        let script = "'\(unzip)' -p '\(sample)' > db && { cat db; head -c 536870912 /dev/zero; } | '\(zip)' -q -1 big.zip -"
        let made = try Subprocess.run("/bin/sh", ["-c", script], directory: sandbox.rhr.home)
        guard made.status == 0 else { throw TestFailure("cannot make the big export: \(made.stderr)") }
        return sandbox.rhr.directory.file("big.zip")
    }

    /// rhr's `TMPDIR` is empty before, and must be empty after.
    let sandbox: SandboxWithOwnTMPDIR
    init() throws { sandbox = try SandboxWithOwnTMPDIR() }

    /// Waits until a copy is being written in `TMPDIR`, then freezes the process there (SIGSTOP), so the signal
    /// that follows lands while the copy is half made whatever the machine's speed.
    func freezeWhileCopying(_ process: RunningProcess) throws {
        let copying = eventually(timeout: 30, every: 0.001) {
            guard let directory = sandbox.tmp.entries().first(where: { $0.hasPrefix("rhr-health-connect-") }) else { return false }
            let file = sandbox.tmp.file(directory + "/health_connect_export.db")
            return FileMode.size(file) ?? 0 > 1 << 20
        }
        process.signal(SIGSTOP)
        try #require(copying, "no copy appeared in \(sandbox.tmp.path): \(sandbox.rhr.log("import.log"))")
    }

    @Test("SIGINT, SIGTERM and SIGHUP during an import's copy end rhr with 128 + the signal and leave nothing behind",
          arguments: [SIGINT, SIGTERM, SIGHUP])
    func signalDuringCopy(_ signal: Int32) throws {
        let export = try bigExport()
        let process = try Subprocess.start(try SourceTree.builtProduct("rhr"), ["import", export], environment: sandbox.environment,
                                           directory: sandbox.rhr.home, stderrFile: sandbox.rhr.directory.file("import.log"))
        try freezeWhileCopying(process)
        process.signal(signal)
        process.signal(SIGCONT)
        #expect(process.waitForExit())
        #expect(process.termination == .exited(128 + signal), "\(sandbox.rhr.log("import.log"))")
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("SIGKILL (or the OOM killer) leaves the copy behind, and the next rhr to make a copy removes it")
    func killedOutright() throws {
        let export = try bigExport()
        let process = try Subprocess.start(try SourceTree.builtProduct("rhr"), ["import", export], environment: sandbox.environment,
                                           directory: sandbox.rhr.home, stderrFile: sandbox.rhr.directory.file("import.log"))
        try freezeWhileCopying(process)
        process.signal(SIGKILL)
        #expect(process.waitForExit())
        #expect(process.termination == .signalled(SIGKILL))
        let left = sandbox.tmp.entries()
        #expect(left.count == 1 && left[0].hasPrefix("rhr-health-connect-"), "\(left)")
        // The next import that makes a copy of its own (the sample Health Connect export) sweeps first.
        let next = try Subprocess.run(try SourceTree.builtProduct("rhr"), ["import", SourceTree.samples + "/health-connect/Health Connect.zip"],
                                      environment: sandbox.environment, directory: sandbox.rhr.home)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("an import that finishes or fails leaves nothing behind either; RHR_TEMP_LIMIT bounds the copy")
    func ordinaryEnds() throws {
        let export = try bigExport()
        let limited = try Subprocess.run(try SourceTree.builtProduct("rhr"), ["import", export],
                                         environment: sandbox.environment.merging(["RHR_TEMP_LIMIT": "64M"]) { $1 }, directory: sandbox.rhr.home)
        #expect(limited.status == 1)
        #expect(limited.stderr == "rhr import: \(export): read as a Health Connect export (zip): -: the database is larger than 64 MiB, the limit for its temporary "
            + "copy; RHR_TEMP_LIMIT raises it (such as RHR_TEMP_LIMIT=16G)\n")
        #expect(sandbox.tmp.entries().isEmpty)
        let bad = try Subprocess.run(try SourceTree.builtProduct("rhr"), ["import", export],
                                     environment: sandbox.environment.merging(["RHR_TEMP_LIMIT": "a lot"]) { $1 }, directory: sandbox.rhr.home)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("RHR_TEMP_LIMIT=a lot is not a size"), "\(bad.stderr)")
        let whole = try Subprocess.run(try SourceTree.builtProduct("rhr"), ["import", export], environment: sandbox.environment,
                                       directory: sandbox.rhr.home)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(sandbox.tmp.entries().isEmpty)
    }

    @Test("a daemon stopped while its folder watch copies an export stops and leaves nothing behind")
    func daemonStoppedDuringFolderImport() throws {
        let export = try bigExport()
        let inbox = sandbox.rhr.directory.file("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: false)
        let daemon = try Subprocess.start(try SourceTree.builtProduct("rhr"), ["daemon", "--watch", inbox], environment: sandbox.environment,
                                          directory: sandbox.rhr.home, stderrFile: sandbox.rhr.directory.file("import.log"))
        defer { daemon.kill() }
        try FileManager.default.copyItem(atPath: export, toPath: inbox + "/Health Connect.zip")
        try freezeWhileCopying(daemon)
        daemon.signal(SIGTERM)
        daemon.signal(SIGCONT)
        #expect(daemon.waitForExit(timeout: 10))
        #expect(daemon.termination == .exited(0), "\(sandbox.rhr.log("import.log"))")
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }
}
