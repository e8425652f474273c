import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRTestSupport
import Testing

/// The daemon part of `rhr status`: which store the daemon serves, each phone feed's requests, times with their offset.
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

    @Test func eachPhoneFeedsAcceptedAndRefusedRequestsAndItsLastRefusal() throws {
        var feed = FeedRequests(token: "phone")
        feed.accepted = 12
        feed.refused = 2
        feed.lastRefusal = FeedRefusal(at: ts("2026-03-14T11:15:00+00:00").date, status: 400, reason: "invalid_payload: data: …")
        var anonymous = FeedRequests(token: nil)
        anonymous.refused = 5
        anonymous.lastRefusal = FeedRefusal(at: ts("2026-03-14T11:16:00+00:00").date, status: 0, reason: "too slow")
        var status = StatusReply(pid: 1, socket: "/s", store: "/st", uptime: 1, clients: 0, subscribers: 0, revision: 1,
                                 streams: [], watchDirectories: [], watchLooks: 0, imports: [])
        status.http = HTTPFeedStatus(address: "127.0.0.1:8787", tls: false, requests: 19, feeds: [feed, anonymous])
        let lines = DaemonStatus.lines(status, zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(lines.contains("    token phone: 12 accepted, 2 refused; last refused 2026-03-14T12:15:00+01:00 with 400: "
            + "invalid_payload: data: …"), "\(lines)")
        #expect(lines.contains("    without a known token: 0 accepted, 5 refused; last refused 2026-03-14T12:16:00+01:00: too slow"))
    }

    @Test func folderImportTimesAreLocalWithTheirOffset() throws {
        var entry = WatchImport(file: "/inbox/export.zip", sha256: "ab", at: ts("2026-03-14T11:15:00+00:00").date, ok: true)
        entry.kind = "Apple Health export (zip)"
        let status = StatusReply(pid: 1, socket: "/s", store: "/st", uptime: 1, clients: 0, subscribers: 0, revision: 1,
                                 streams: [], watchDirectories: ["/inbox"], watchLooks: 3, imports: [entry])
        let lines = DaemonStatus.lines(status, zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(lines.contains { $0.hasPrefix("    2026-03-14T12:15:00+01:00 ") }, "\(lines)")
    }

    /// A file the folder watch will try again is listed with why, how often it was tried and when it is tried next.
    @Test func filesWaitingToBeImportedAreListedWithWhy() throws {
        let waiting = WatchWaiting(file: "/inbox/feed.jsonl", reason: "/inbox/feed.jsonl: /st: another process …",
                                   since: ts("2026-03-14T11:15:00+00:00").date, attempts: 3,
                                   next: ts("2026-03-14T11:15:07+00:00").date)
        let status = StatusReply(pid: 1, socket: "/s", store: "/st", uptime: 1, clients: 0, subscribers: 0, revision: 1,
                                 streams: [], watchDirectories: ["/inbox"], watchLooks: 3, imports: [], waiting: [waiting])
        let lines = DaemonStatus.lines(status, zone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(lines.suffix(2) == ["  waiting to be imported (tried again, later each time):",
                                    "    /inbox/feed.jsonl: /st: another process … (3 tries since 2026-03-14T12:15:00+01:00; "
                                        + "next 2026-03-14T12:15:07+01:00)"], "\(lines)")
        // And the reply reads back as it was sent.
        #expect(try StatusReply(members: JSONMembers(status.members)).waiting == [waiting])
    }
}
