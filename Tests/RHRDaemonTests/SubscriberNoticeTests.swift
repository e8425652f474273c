import Foundation
import RHRCore
@testable import RHRDaemon
import RHRStore
import RHRTestSupport
import Testing

/// The socket's pushes, the phone feeds and the folder watch write the store by one path and tell subscribers the
/// one way (docs/design.md section 4): a `changed` event with the store's revision and the days, a `resync` first
/// when another process had moved the store, and the loop's revision (`hello`) moved with it.
@Suite("subscribers hear every road's change the same way")
struct SubscriberNoticeTests {
    @Test func aPushARequestAndAFolderImportEachGiveOneChangedEventAndMoveTheRevision() throws {
        let directory = try TemporaryDirectory()
        let inbox = directory.file("inbox")
        mkdir(inbox, 0o700)
        let daemon = try TestDaemon(directory: directory) { configuration in
            configuration.http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            configuration.watchDirectories = [inbox]
            // The watch looks when the test says, and the store is looked at only when a write notes it.
            configuration.watchInterval = 3600
            configuration.externalChangeInterval = 3600
        }
        #expect(eventually { (daemon.server.watch?.looks ?? 0) >= 1 }, "the watch's first look")
        let token = try daemon.token("phone")
        let client = try daemon.client()
        let subscriber = try daemon.subscriber()

        #expect(try client.push(chainBatch(stream: "iphone", 1)).isOK)
        var event = try subscriber.nextEvent(timeout: 5)
        #expect(event.name == "changed")
        #expect(event.revision == 1)
        #expect(event.days == ["2026-11-02"])
        #expect(try client.request(.hello)["revision"]?.int64 == 1)

        #expect(try daemon.http().postResting([.init("2026-11-27 00:00:00 +0100", 55)], token: token).status == 200)
        event = try subscriber.nextEvent(timeout: 5)
        #expect(event.name == "changed")
        #expect(event.revision == 2)
        #expect(event.days == ["2026-11-27"])
        #expect(try client.request(.hello)["revision"]?.int64 == 2)

        let file = batchLine(liveBatch(stream: "bridge", previous: nil, next: "b1",
                                       samples: [restingSample(day: "2026-10-05", value: 52, uuid: "F1")])) + "\n"
        _ = try directory.write("inbox/bridge.jsonl", file)
        try FolderWatchTests.look(daemon, times: 2)
        event = try subscriber.nextEvent(timeout: 10)
        #expect(event.name == "imported")
        #expect(event.imported?.ok == true)
        event = try subscriber.nextEvent(timeout: 5)
        #expect(event.name == "changed")
        #expect(event.revision == 3)
        #expect(event.days == ["2026-10-05"])
        #expect(try client.request(.hello)["revision"]?.int64 == 3)

        // Another connection writes the store, as another process would (revision 4); the next request finds it
        // moved: resync, then its change.
        _ = try directory.store().apply(chainBatch(stream: "elsewhere", 1))
        #expect(try daemon.http().postResting([.init("2026-11-28 00:00:00 +0100", 56)], token: token).status == 200)
        event = try subscriber.nextEvent(timeout: 5)
        #expect(event.name == "resync")
        #expect(event.revision == 5)
        event = try subscriber.nextEvent(timeout: 5)
        #expect(event.name == "changed")
        #expect(event.revision == 5)
        #expect(event.days == ["2026-11-28"])
        #expect(try subscriber.receiveAvailable().isEmpty)
    }
}
