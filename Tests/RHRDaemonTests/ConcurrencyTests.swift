import Foundation
import RHRCore
import RHRDaemonClient
import RHRTestSupport
import Testing

@Suite("daemon under load")
struct ConcurrencyTests {
    @Test func twentyConcurrentPushersAllLandInOrderPerStream() throws {
        let daemon = try TestDaemon()
        let subscriber = try daemon.subscriber()
        let pushers = 20, pushes = 10
        let failures = Recorder<String>()
        let socket = daemon.socketPath
        onThreads(pushers) { i in
            do {
                let client = try DaemonClient(socketPath: socket)
                for n in 1...pushes {
                    let reply = try client.push(chainBatch(stream: "bridge-\(i)", n), timeout: 30)
                    if !reply.isOK || reply["added"]?.int64 != 1 { failures.append("bridge-\(i) #\(n): \(reply)") }
                }
            } catch {
                failures.append("bridge-\(i): \(error)")
            }
        }.wait()
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")

        // Every push changed the store once: the subscriber hears revisions 1…200, each once, in order.
        var revisions: [Int64] = []
        while revisions.count < pushers * pushes {
            let event = try subscriber.nextEvent(timeout: 10)
            #expect(event.name == "changed")
            revisions.append(event.revision ?? -1)
        }
        #expect(revisions == Array(1...Int64(pushers * pushes)))
        let status = try subscriber.request(.status)
        #expect(status["revision"]?.int64 == Int64(pushers * pushes))
        let streams = status["streams"]?.array ?? []
        #expect(streams.count == pushers)
        #expect(streams.allSatisfy { $0["cursor"]?.string == "c\(pushes)" })
        #expect(try daemon.directory.store().samples().count == pushers * pushes)
    }

    @Test func aSubscriberThatNeverReadsBlocksNobodyAndGetsResync() throws {
        let daemon = try TestDaemon { configuration in
            configuration.subscriberEventLimit = 8
            configuration.sendBufferSize = 4096
        }
        let slow = try daemon.subscriber()
        let attentive = try daemon.subscriber()
        let pusher = try daemon.client()
        let total = 300
        for n in 1...total {
            let reply = try pusher.push(chainBatch(stream: "iphone", n, value: Double(50 + n % 30)), timeout: 10)
            #expect(reply.isOK, "push \(n): \(reply)")
            // The attentive subscriber keeps up while the slow one's queue overflows.
            let event = try attentive.nextEvent(timeout: 5)
            #expect(event.revision == Int64(n))
        }

        // Now the slow subscriber reads: some events, then resync in place of those it missed.
        var changed = 0, dropped = 0, resyncs = 0
        var last: Int64 = 0
        while last < Int64(total) {
            let event = try slow.nextEvent(timeout: 5)
            switch event {
            case .changed:
                changed += 1
            case .resync(_, let count, let reason):
                resyncs += 1
                dropped += count ?? 0
                #expect(reason.contains("too slowly"))
            default:
                Issue.record("unexpected event \(event)")
            }
            last = event.revision ?? last
        }
        #expect(resyncs >= 1)
        #expect(changed < total)
        // Each event was either delivered or counted in a resync, never both, never lost silently.
        #expect(changed + dropped == total)
        // The slow subscriber's connection still works.
        #expect(try slow.request(.hello).isOK)
    }

    @Test func aSubscriberThatVanishesCostsNothing() throws {
        let daemon = try TestDaemon { $0.sendBufferSize = 4096 }
        for _ in 0..<5 {
            let gone = try daemon.subscriber()
            gone.close()
        }
        let pusher = try daemon.client()
        for n in 1...50 { #expect(try pusher.push(chainBatch(stream: "iphone", n)).isOK) }
        #expect(eventually { (try? pusher.request(.status))?["clients"]?.int64 == 1 })
    }

    /// `rhr import` in another process and a stream of pushes to the daemon, on one store, at the same time:
    /// both land whole (WAL, busy timeout, short write transactions).
    @Test func anImportAndAStreamOfPushesBothLandWhole() throws {
        let daemon = try TestDaemon()
        let rhr = try RHRSandbox(directory: daemon.directory)
        let subscriber = try daemon.subscriber()

        // A file of 40 batches × 100 samples from another stream and writer.
        var lines: [String] = []
        let firstDay = LocalDay(year: 2024, month: 1, day: 1)!
        let scale = Writer(store: .healthKit, name: "Withings")
        for b in 0..<40 {
            let samples = (0..<100).map { i in
                restingSample(day: firstDay.adding(days: b * 100 + i).description, value: Double(55 + i % 9),
                              uuid: "IMP-\(b)-\(i)", writer: scale)
            }
            lines.append(batchLine(liveBatch(stream: "scale", previous: b == 0 ? nil : "s\(b)", next: "s\(b + 1)", samples: samples)))
        }
        let file = daemon.directory.file("import.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)

        let importer = try rhr.start(["import", "--store", daemon.directory.storePath, file], log: "import.log")
        let pusher = try daemon.client()
        var acknowledged = 0
        for n in 1...60 {
            let reply = try pusher.push(chainBatch(stream: "iphone", n), timeout: 30)
            #expect(reply.isOK, "\(reply)")
            if reply.isOK { acknowledged += 1 }
        }
        #expect(importer.waitForExit(timeout: 60))
        #expect(importer.termination == .exited(0), "\(rhr.log("import.log"))")

        let samples = try daemon.directory.store().samples()
        #expect(samples.filter { $0.sample.writer.name == "Withings" }.count == 4000)
        #expect(samples.filter { $0.sample.writer.name == watchWriter.name }.count == 60)
        #expect(acknowledged == 60)
        let streams = try daemon.directory.store().streams()
        #expect(streams.map { "\($0.stream) \($0.cursor ?? "-")" }.sorted() == ["iphone c60", "scale s40"])
        // The daemon noticed the store moved without it and told its subscriber to reload.
        #expect(eventually { (try? subscriber.receiveAvailable())?.contains { $0.name == "resync" } == true })
    }

    @Test func aChangeByAnotherProcessIsNoticedWhileClientsKeepAsking() throws {
        let daemon = try TestDaemon { $0.externalChangeInterval = 0.1 }
        let subscriber = try daemon.subscriber()
        let reader = try daemon.client()
        // Another connection to the store writes (as `rhr import` would), while a reader keeps the daemon busy.
        let other = try daemon.directory.store()
        #expect(try other.apply(chainBatch(stream: "elsewhere", 1)).revision == 1)
        var resync: DaemonEvent?
        let noticed = try eventually(timeout: 10) {
            #expect(try reader.request(["op": "days"]).isOK)
            resync = try subscriber.receiveAvailable().first { $0.name == "resync" }
            return resync != nil
        }
        #expect(noticed)
        #expect(resync == .resync(revision: 1, dropped: nil, reason: "the store was changed by another process"))
        // The daemon's own pushes go on from there; its subscriber hears them as usual.
        #expect(try reader.push(chainBatch(stream: "iphone", 1))["revision"]?.int64 == 2)
        #expect(try subscriber.nextEvent(timeout: 5).revision == 2)
    }
}
