import Foundation
import RHRCore
import RHRDaemonClient
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing

/// The real `rhr daemon` binary: signals, restarts, crashes, a second daemon.
@Suite("rhr daemon process")
struct ProcessTests {
    /// Starts `rhr daemon` in a fresh sandbox and pushes the "iphone" chain to it from a thread of its own; once
    /// `count` batches are acknowledged, sends the daemon `signal` and waits until both it and the pusher stopped.
    /// Returns the numbers of the batches the daemon acknowledged, in order.
    static func signalDuringPushes(_ signal: Int32, after count: Int) throws
        -> (rhr: RHRSandbox, daemon: RunningProcess, acknowledged: [Int]) {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        let acknowledged = Recorder<Int>(), pushing = DispatchGroup()
        pushing.enter()
        Thread { [socket = rhr.socketPath] in
            defer { pushing.leave() }
            guard let client = try? DaemonClient(socketPath: socket) else { return }
            for n in 1... {
                guard let reply = try? client.push(chainBatch(stream: "iphone", n), timeout: 20) else { break }
                guard reply.isOK else {
                    Issue.record("push \(n) refused: \(reply)")
                    break
                }
                acknowledged.append(n)
            }
        }.start()
        #expect(eventually { acknowledged.all.count >= count })
        daemon.signal(signal)
        try #require(daemon.waitForExit(), "the daemon did not stop on signal \(signal)")
        #expect(pushing.wait(timeout: .now() + 20) == .success)
        return (rhr, daemon, acknowledged.all)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalFinishesThePushInFlightAndRestartKeepsEverything(signal: Int32) throws {
        // Signalled while pushes are streaming in.
        let (rhr, daemon, acknowledged) = try ProcessTests.signalDuringPushes(signal, after: 20)
        #expect(daemon.termination == .exited(0), "\(rhr.log())")
        let socket = rhr.socketPath, lastAcknowledged = acknowledged.last ?? 0
        #expect(!FileManager.default.fileExists(atPath: socket))

        // Every acknowledged push is in the store, and nothing beyond: the push in flight got its reply.
        let restarted = try rhr.startDaemon()
        defer { restarted.stop() }
        let client = try DaemonClient(socketPath: socket)
        let cursor = try client.request(.cursor(store: .healthKit, stream: "iphone"))
        #expect(cursor["cursor"]?.string == "c\(lastAcknowledged)")
        let status = try client.request(.status)
        #expect(status["revision"]?.int64 == Int64(lastAcknowledged))
        // The chain goes on from where it stopped.
        #expect(try client.push(chainBatch(stream: "iphone", lastAcknowledged + 1)).isOK)
    }

    @Test func killNineDuringPushesLosesNothingAcknowledged() throws {
        let (rhr, daemon, acknowledged) = try ProcessTests.signalDuringPushes(SIGKILL, after: 30)
        #expect(daemon.termination == .signalled(SIGKILL))
        let socket = rhr.socketPath, last = acknowledged.last ?? 0
        #expect(last >= 30)

        // The crashed daemon left its socket: the next one replaces it.
        #expect(FileMode.status(socket) != nil, "a killed daemon leaves its socket file")
        let restarted = try rhr.startDaemon()
        defer { restarted.stop() }
        let client = try DaemonClient(socketPath: socket)
        let cursor = try client.request(.cursor(store: .healthKit, stream: "iphone"))["cursor"]?.string ?? ""
        // The store is at the last acknowledged push, or at the one after it (applied, its reply lost).
        #expect(cursor == "c\(last)" || cursor == "c\(last + 1)", "cursor \(cursor), last acknowledged \(last)")
        let samples = try HealthDatabase(path: rhr.storePath, machineZone: utc).samples()
        let stored = Set(samples.map { $0.sample.start })
        for n in 1...last {
            let expected = chainBatch(stream: "iphone", n).resting[0].start
            #expect(stored.contains(expected), "acknowledged push \(n) is missing")
        }
        // And the chain goes on from the stored cursor.
        let next = Int(cursor.dropFirst()) ?? last
        #expect(try client.push(chainBatch(stream: "iphone", next + 1)).isOK)
    }

    @Test func aSecondDaemonExitsOneWithAClearMessage() throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        defer { daemon.stop() }
        let second = try rhr.run(["daemon"])
        #expect(second.status == 1)
        #expect(second.stderr == "rhr daemon: another rhr daemon is already listening on \(rhr.socketPath); stop it first (or use --socket for another path)\n")
        #expect(DaemonClient.isListening(socketPath: rhr.socketPath))
    }

    @Test func pushAndStatusFromTheCommandLine() throws {
        let rhr = try RHRSandbox()
        let none = try rhr.run(["status"])
        #expect(none.status == 0)
        #expect(none.stdout.hasSuffix("daemon: no daemon listening on \(rhr.socketPath)\n"))
        let noDaemon = try rhr.run(["push", SourceTree.samples + "/batches/healthkit-iphone.jsonl"])
        #expect(noDaemon.status == 1)
        #expect(noDaemon.stderr.contains("no daemon listening on \(rhr.socketPath); start one with 'rhr daemon'"))

        let daemon = try rhr.startDaemon()
        defer { daemon.stop() }
        // A watch's draft for the 28th (61), then its replacement (58) and a deletion of the 27th. The second
        // batch's newer asOf also ends the provisional state of the days before (R3): those days change too.
        let sample = rhr.directory.file("feed.jsonl")
        try [
            batchLine(liveBatch(previous: nil, next: "a1", samples: [
                restingSample(day: "2026-11-27", value: 57, uuid: "S27"), restingSample(day: "2026-11-28", value: 61, uuid: "S28"),
            ], asOf: "2026-11-28T09:00:00+01:00")),
            batchLine(liveBatch(previous: "a1", next: "a2", samples: [restingSample(day: "2026-11-28", value: 58, uuid: "S28")],
                                asOf: "2026-11-29T08:00:00+01:00")),
            batchLine(liveBatch(previous: "a2", next: "a3", deleted: ["S27"], asOf: "2026-11-29T09:00:00+01:00")),
        ].joined(separator: "\n").write(toFile: sample, atomically: true, encoding: .utf8)
        let pushed = try rhr.run(["push", sample])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout == """
            \(sample): line 1: ok: 2 added, 0 replaced, 0 deleted; revision 1; days 2026-11-27, 2026-11-28
            \(sample): line 2: ok: 0 added, 1 replaced, 0 deleted; revision 2; days 2026-11-27, 2026-11-28, 2026-11-29
            \(sample): line 3: ok: 0 added, 0 replaced, 1 deleted; revision 3; days 2026-11-27

            """)
        let again = try rhr.run(["push", sample])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("\(sample): line 1: ok: applied before; nothing changed (revision 3)\n"))

        // A file with a bad line and a stale cursor: each failure names its line; exit 1.
        let bad = rhr.directory.file("bad.jsonl")
        let text = batchLine(liveBatch(stream: "other", previous: nil, next: "o1")) + "\n{\"store\":\n\n"
            + batchLine(liveBatch(previous: "a1", next: "zz")) + "\n"
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let failed = try rhr.run(["push", bad])
        #expect(failed.status == 1)
        #expect(failed.stdout.hasPrefix("\(bad): line 1: ok: "))
        #expect(failed.stderr.contains("\(bad): line 2, column 10, store: bad_json: expected a value, found the end of the input\n"))
        #expect(failed.stderr.contains("\(bad): line 4: cursor_mismatch: "))

        let status = try rhr.run(["status"])
        #expect(status.stdout.contains("daemon: listening on \(rhr.socketPath) (pid \(daemon.pid), rhr "))
        #expect(status.stdout.contains("  revision: 3"))   // the batch of "other" carried no sample
        #expect(status.stdout.contains("    healthkit/iphone: cursor a3, as of 2026-11-29T09:00:00+01:00"))
        #expect(status.stdout.contains("  folder watch: off"))
    }
}

extension ProcessTests {
    /// R14 over the socket: an upsert rhr cannot use costs nothing of its batch, is kept in the store, and the push's
    /// reply (and `rhr push`) says so as an import would; the same batch again keeps nothing twice.
    @Test func aPushSaysWhatItPassedOver() throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        defer { daemon.stop() }
        let line = batchLine(liveBatch(previous: nil, next: "p1", samples: [
            restingSample(day: "2026-11-27", value: 57, uuid: "GOOD"), restingSample(day: "2026-11-28", value: 58, uuid: "BAD"),
        ])).replacingOccurrences(of: "\"start\":\"2026-11-28T00:03:12+01:00\"", with: "\"start\":\"yesterday\"")
        try #require(line.contains("yesterday"))
        let file = try rhr.write("one-bad.jsonl", line)

        let pushed = try rhr.run(["push", file])
        #expect(pushed.stdout == "\(file): line 1: ok: 1 added, 0 replaced, 0 deleted; 1 record passed over (kept in the store, "
            + "rhr status lists them); revision 1; days 2026-11-27\n", "\(pushed.stderr)")
        let json = try rhr.run(["push", "--json", file])
        let reply = try #require(try? JSONParser.parse(Array(json.stdout.utf8)))
        #expect(reply["duplicate"]?.bool == true)
        #expect(reply["passedOver"]?.int64 == 0)
        let kept = try HealthDatabase(path: rhr.storePath, machineZone: utc).passedOverRecords()
        #expect(kept.map(\.record.place) == ["upserted[1]"])
        #expect(kept.map(\.record.reason) == ["upserted[1].start: not an ISO-8601 date"])
    }
}

@Suite("samples for the daemon")
struct DaemonSampleTests {
    /// `Samples/bridge/`: a day in which the watch's draft is replaced, replayed with `rhr push`.
    @Test func theBridgeSampleReplaysADayOfReplacedDrafts() throws {
        let rhr = try RHRSandbox()
        let daemon = try rhr.startDaemon()
        defer { daemon.stop() }
        let sample = SourceTree.samples + "/bridge/watch-draft-replaced.jsonl"
        let pushed = try rhr.run(["push", sample])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let lines = pushed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[1].hasPrefix("\(sample): line 2: ok: 1 added, 0 replaced, 1 deleted"))
        #expect(lines[5] == "\(sample): line 6: ok: applied before; nothing changed (revision 5)")

        let store = try HealthDatabase(path: rhr.storePath, machineZone: utc)
        let days = try store.days(aggregation: .latest)
        #expect(days.map { "\($0.day) \($0.bpmText)\($0.provisional ? " provisional" : "")" } == [
            "2026-03-13 57", "2026-03-14 57 provisional", "2026-03-15 60 provisional",
        ])
        let history = try store.revisions().map { "\($0.day) \($0.oldBPM.map { String(Int($0)) } ?? "?") → \($0.replacedByBPM.map { String(Int($0)) } ?? "-")" }
        #expect(history == ["2026-03-14 61 → 59", "2026-03-14 59 → 58", "2026-03-14 58 → 57"])
        #expect(try store.heartRateDays().reduce(0) { $0 + $1.total } == 10)
    }

    @Test func theSystemdUnitRunsTheDaemon() throws {
        let unit = try String(contentsOfFile: SourceTree.samples + "/systemd/rhr.service", encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(lines.contains("ExecStart=%h/.local/bin/rhr daemon"))
        #expect(lines.contains("KillSignal=SIGTERM"))
        #expect(lines.contains("StandardError=journal"))
        #expect(lines.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        #expect(lines.contains("UMask=0077"))
        #expect(lines.contains("RestrictAddressFamilies=AF_UNIX"))
        #expect(lines.contains("WantedBy=default.target"))
    }
}
