import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemon
import RHRTestSupport
import Testing

/// The daemon part of `rhr status` (issues 25 and 28).
@Suite("rhr status and the daemon")
struct DaemonStatusTests {
    @Test func statusOfAnotherStoreDoesNotShowTheDefaultStoresDaemonAsItsOwn() throws {
        let rhr = try InProcessRHR()
        let sandbox = rhr.sandbox
        try FileManager.default.createDirectory(atPath: sandbox.dataHome + "/rhr", withIntermediateDirectories: true)
        let daemon = try TestDaemon(directory: sandbox.directory) { configuration in
            configuration.socketPath = sandbox.socketPath
            configuration.storePath = sandbox.storePath
        }
        defer { try? daemon.stop() }
        let own = rhr.run(["status"])
        #expect(own.stdout.contains("daemon: listening on \(sandbox.socketPath) (pid \(getpid()), "), "\(own.stdout)")

        let other = sandbox.home + "/other.sqlite"
        #expect(rhr.run(["import", "--store", other, SourceTree.samples + "/apple-health/export-1.xml"]).status == 0)
        let status = rhr.run(["status", "--store", other])
        #expect(status.status == 0)
        #expect(status.stdout.hasSuffix("daemon: the daemon on \(sandbox.socketPath) serves another store, "
            + "\(sandbox.storePath); none serves this one there (rhr daemon --store \(other) --socket PATH)\n"), "\(status.stdout)")
        #expect(!status.stdout.contains("revision: 0\n  cursors"))
    }

    @Test func folderImportTimesAreLocalWithTheirOffset() throws {
        var entry = WatchImport(file: "/inbox/export.zip", sha256: "ab", at: ts("2026-03-14T11:15:00+00:00").date, ok: true)
        entry.kind = "Apple Health export (zip)"
        let status = StatusReply(pid: 1, socket: "/s", store: "/st", uptime: 1, clients: 0, subscribers: 0, revision: 1,
                                 streams: [], watchDirectories: ["/inbox"], watchLooks: 3, imports: [entry])
        let lines = DaemonStatus.lines(status, zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(lines.contains { $0.hasPrefix("    2026-03-14T12:15:00+01:00 ") }, "\(lines)")
    }
}
