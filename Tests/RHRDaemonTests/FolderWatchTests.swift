import Foundation
import RHRCore
@testable import RHRDaemon
@testable import RHRDaemonClient
import RHRTestSupport
import Testing

/// `rhr daemon --watch DIR`: files are imported once they stop growing, once per content.
@Suite("folder watch")
struct FolderWatchTests {
    /// A watching daemon on `directory`, looking every `interval` seconds at `directory/inbox`.
    static func watchingDaemon(_ directory: TemporaryDirectory, interval: Double = 0.2) throws -> TestDaemon {
        let inbox = directory.file("inbox")
        mkdir(inbox, 0o700)
        return try TestDaemon(directory: directory) { configuration in
            configuration.watchDirectories = [inbox]
            configuration.watchInterval = interval
        }
    }

    static func looks(_ client: DaemonClient) throws -> Int64 {
        try client.request(.status)["watch"]?["looks"]?.int64 ?? -1
    }

    /// Waits until the watch has looked `count` more times.
    static func waitForLooks(_ client: DaemonClient, _ count: Int64) throws {
        let start = try looks(client)
        #expect(try eventually { try looks(client) >= start + count }, "the watch stopped looking")
    }

    /// Makes the watch look `times` more times, one after the other, waiting for each. With a long interval these
    /// are its only looks.
    static func look(_ daemon: TestDaemon, times: Int = 1) throws {
        let watch = try #require(daemon.server.watch)
        for _ in 0..<times {
            let start = watch.looks
            watch.lookNow()
            #expect(eventually { watch.looks > start }, "the watch stopped looking")
        }
    }

    static func append(_ bytes: ArraySlice<UInt8>, to path: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Three batches of a bridge's feed, 30 samples, as a file of JSON lines.
    static var batchFile: [UInt8] {
        let lines = (1...3).map { b in
            batchLine(liveBatch(stream: "bridge", previous: b == 1 ? nil : "b\(b - 1)", next: "b\(b)", samples: (0..<10).map { i in
                restingSample(day: String(format: "2026-10-%02d", b * 10 - 9 + i), value: Double(52 + i), uuid: "F\(b)-\(i)")
            }))
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test func aFileArrivingInPiecesIsImportedOnceWhole() throws {
        let directory = try TemporaryDirectory()
        // The watch looks when the test says (`look`), and only then: a timed interval cannot promise that a slow
        // machine appends the next piece before the watch looks twice.
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 3600)
        #expect(eventually { (daemon.server.watch?.looks ?? 0) >= 1 }, "the watch's first look")
        let client = try daemon.client()
        let subscriber = try daemon.subscriber()
        let content = FolderWatchTests.batchFile
        let path = directory.file("inbox/Health Connect export.jsonl")
        // Four pieces cut mid-line; after each, the watch looks once before the next arrives, so no two looks in a
        // row see the same file until it is whole; then it looks again and imports it.
        let cuts = [0, content.count / 5, content.count / 2, content.count * 4 / 5, content.count]
        for (from, to) in zip(cuts, cuts.dropFirst()) {
            FolderWatchTests.append(content[from..<to], to: path)
            try FolderWatchTests.look(daemon)
        }
        #expect(try subscriber.receiveAvailable().isEmpty, "imported before it was whole")
        try FolderWatchTests.look(daemon)
        let imported = try subscriber.nextEvent(timeout: 10)
        #expect(imported.name == "imported")
        #expect(imported.imported?.ok == true, "\(imported)")
        #expect(imported.imported?.file == path)
        #expect(imported.imported?.kind == "sync batches (JSON lines)")
        #expect(imported.imported?.added == 30)
        #expect(imported.imported?.records == 30)
        #expect(imported.days.count == 30)
        let changed = try subscriber.nextEvent(timeout: 5)
        #expect(changed.name == "changed")
        #expect(changed.days == imported.days)
        #expect(changed.revision == 3)

        // It stays imported once: more looks, a touch, a copy under another name.
        try FolderWatchTests.look(daemon, times: 3)
        utimes(path, nil)
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("inbox/copy of export.jsonl"))
        try FolderWatchTests.look(daemon, times: 4)
        #expect(try subscriber.receiveAvailable().isEmpty)
        let status = try client.request(.status)
        #expect(status["watch"]?["imports"]?.array?.count == 1)
        #expect(try directory.store().samples().count == 30)

        // After a restart the ledger beside the store still knows the content.
        try daemon.stop()
        #expect(FileManager.default.fileExists(atPath: directory.storePath + "-imports"))
        let again = try TestDaemon(directory: directory) { configuration in
            configuration.watchDirectories = [directory.file("inbox")]
            configuration.watchInterval = 0.05
        }
        let second = try again.subscriber()
        try FolderWatchTests.waitForLooks(second, 4)
        #expect(try second.receiveAvailable().isEmpty)
        let imports = try second.request(.status)["watch"]?["imports"]?.array ?? []
        #expect(imports.map { $0["file"]?.string } == [path])
        try again.stop()
    }

    @Test func aBadFileIsReportedAndSkippedAndTheDaemonGoesOn() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        let broken = directory.file("inbox/export.zip")
        FolderWatchTests.append(Array("PK\u{3}\u{4} this is no zip at all".utf8)[...], to: broken)
        let first = try subscriber.nextEvent(timeout: 10)
        #expect(first.name == "imported")
        #expect(first.imported?.ok == false)
        #expect(first.imported?.file == broken)
        #expect(first.imported?.error?.hasPrefix(broken + ": ") == true, "\(first)")

        // A batch file with a bad third line: named by file and line, nothing of it applied.
        var lines = String(decoding: FolderWatchTests.batchFile, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: "\"store\":\"healthkit\"", with: "\"store\":\"healthkid\"")
        let badLine = directory.file("inbox/feed.jsonl")
        FolderWatchTests.append(Array((lines.joined(separator: "\n") + "\n").utf8)[...], to: badLine)
        let second = try subscriber.nextEvent(timeout: 10)
        #expect(second.imported?.ok == false)
        #expect(second.imported?.error?.hasPrefix(badLine + ": read as a sync batch file (JSON lines): line 3, store: ") == true, "\(second)")
        #expect(try directory.store().samples().isEmpty)

        // The daemon goes on: pushes, and the next good file.
        let pusher = try daemon.client()
        #expect(try pusher.push(chainBatch(stream: "iphone", 1)).isOK)
        #expect(try subscriber.nextEvent(timeout: 5).name == "changed")
        let good = directory.file("inbox/good.jsonl")
        FolderWatchTests.append(FolderWatchTests.batchFile[...], to: good)
        let third = try subscriber.nextEvent(timeout: 10)
        #expect(third.imported?.ok == true, "\(third)")
        #expect(third.imported?.file == good)
        let imports = try pusher.request(.status)["watch"]?["imports"]?.array ?? []
        #expect(imports.map { $0["ok"]?.bool } == [false, false, true])
        #expect(imports.map { $0["file"]?.string } == [broken, badLine, good])
    }

    /// The file's content is not remembered in the ledger beside the store.
    static func ledgerKnows(_ directory: TemporaryDirectory, _ path: String) throws -> Bool {
        let ledger = (try? String(contentsOfFile: directory.storePath + "-imports", encoding: .utf8)) ?? ""
        return ledger.contains(try SHA256.file(path))
    }

    /// A file that lands while another process holds the store's write lock (a large `rhr import`) waits, named in
    /// `rhr status` with why, and is not remembered as imported; once the lock is let go it is imported.
    @Test(.timeLimit(.minutes(2)))
    func aFileThatLandsWhileTheStoreIsBusyIsImportedOnceItIsFree() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        let lock = try StoreWriteLock(store: directory.storePath)
        let path = directory.file("inbox/feed.jsonl")
        FolderWatchTests.append(FolderWatchTests.batchFile[...], to: path)
        var waiting: [WatchWaiting] = []
        #expect(try eventually(timeout: 20) {
            waiting = try subscriber.request(.status).decode(StatusReply.self).waiting
            return !waiting.isEmpty
        }, "the file was never said to wait")
        #expect(waiting.map(\.file) == [path])
        #expect(waiting.first?.reason.hasPrefix(path + ": ") == true, "\(waiting)")
        #expect(waiting.first?.reason.contains("another process") == true, "\(waiting)")
        #expect(try subscriber.receiveAvailable().isEmpty, "reported as imported while it waits")
        #expect(try !FolderWatchTests.ledgerKnows(directory, path), "remembered as imported though it was not")

        lock.release()
        let imported = try subscriber.nextEvent(timeout: 40)
        #expect(imported.name == "imported")
        #expect(imported.imported?.ok == true, "\(imported)")
        #expect(imported.imported?.added == 30)
        #expect(try directory.store().samples().count == 30)
        #expect(try FolderWatchTests.ledgerKnows(directory, path))
        #expect(try subscriber.request(.status).decode(StatusReply.self).waiting.isEmpty)
    }

    /// A file refused for what it holds is remembered with its refusal and never read again, however often it is looked
    /// at or touched; no file waits.
    @Test func aFileRefusedForItsContentIsRememberedAndNotTriedAgain() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 3600)
        #expect(eventually { (daemon.server.watch?.looks ?? 0) >= 1 }, "the watch's first look")
        let subscriber = try daemon.subscriber()
        // Batches that do not continue from the stream's cursor (the first of three is missing): refused by the store.
        let lines = String(decoding: FolderWatchTests.batchFile, as: UTF8.self).split(separator: "\n").dropFirst()
        let path = directory.file("inbox/wrong.jsonl")
        FolderWatchTests.append(Array((lines.joined(separator: "\n") + "\n").utf8)[...], to: path)
        try FolderWatchTests.look(daemon, times: 2)
        let refused = try subscriber.nextEvent(timeout: 10)
        #expect(refused.imported?.ok == false, "\(refused)")
        #expect(refused.imported?.error?.contains("send a full resync or the missing batches") == true, "\(refused)")
        #expect(try FolderWatchTests.ledgerKnows(directory, path))
        try FolderWatchTests.look(daemon, times: 3)
        utimes(path, nil)
        try FolderWatchTests.look(daemon, times: 3)
        #expect(try subscriber.receiveAvailable().isEmpty, "tried again")
        #expect(daemon.server.watch?.waiting.isEmpty == true)
        #expect(try directory.store().samples().isEmpty)
    }

    @Test func aRetryWaitsLongerEachTimeUpToFiveMinutes() {
        #expect((1...5).map { FolderWatch.retryDelay(attempt: $0, interval: 0.5) } == [0.5, 1, 2, 4, 8])
        #expect(FolderWatch.retryDelay(attempt: 40, interval: 0.5) == 300)
        #expect(FolderWatch.retryDelay(attempt: 3, interval: 600) == 600)
    }

    /// What the Health Connect app's scheduled export and Apple's export leave in a synced folder.
    @Test func exportsOfBothPlatformsAreImportedAndAnOlderExportIsAnOlderRoad() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        let samples = SourceTree.samples + "/"
        func drop(_ sample: String, as name: String) throws -> DaemonEvent {
            try FileManager.default.copyItem(atPath: samples + sample, toPath: directory.file("inbox/" + name))
            while true {
                let event = try subscriber.nextEvent(timeout: 20)
                if event.name == "imported" { return event }
            }
        }
        let connect = try drop("health-connect/Health Connect.zip", as: "Health Connect.zip")
        #expect(connect.imported?.ok == true, "\(connect)")
        #expect(connect.imported?.kind == "Health Connect export (zip)")
        #expect(connect.imported?.added == 31)
        let newer = try drop("apple-health/export-2.xml", as: "export.xml")
        #expect(newer.imported?.ok == true, "\(newer)")
        #expect(newer.imported?.kind == "Apple Health export (XML)")
        // An older export landing after a newer one is an older road (R12): taken, bringing back nothing.
        let older = try drop("apple-health/export-1.xml", as: "export (1).xml")
        #expect(older.imported?.ok == true, "\(older)")
        #expect(older.imported?.added == 0 && older.imported?.deleted == 0, "\(older)")
        let streams = try subscriber.request(.status)["streams"]?.array?.compactMap { $0["stream"]?.string } ?? []
        #expect(streams.sorted() == ["apple-health-export", "health-connect-export"])
    }

    /// `rhr daemon` reads `RHR_TEMP_LIMIT` once, at start, into the configuration; every import of the watch keeps to it.
    @Test func theConfiguredTemporaryCopyLimitBoundsAWatchedImport() throws {
        let directory = try TemporaryDirectory()
        let inbox = directory.file("inbox")
        mkdir(inbox, 0o700)
        let daemon = try TestDaemon(directory: directory) { configuration in
            configuration.watchDirectories = [inbox]
            configuration.watchInterval = 0.05
            configuration.temporaryCopyLimit = 4 << 10
        }
        let subscriber = try daemon.subscriber()
        let zip = directory.file("inbox/Health Connect.zip")
        try FileManager.default.copyItem(atPath: SourceTree.samples + "/health-connect/Health Connect.zip", toPath: zip)
        let event = try subscriber.nextEvent(timeout: 20)
        #expect(event.imported?.ok == false, "\(event)")
        #expect(event.imported?.error?.contains("4 KiB") == true, "\(event)")
        #expect(event.imported?.error?.contains("RHR_TEMP_LIMIT raises it") == true, "\(event)")
        #expect(try directory.store().samples().isEmpty)
    }

    @Test func temporaryAndHiddenFilesAreLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let client = try daemon.subscriber()
        for name in [".export.jsonl", "export.jsonl.part", "export.jsonl.crdownload", "export.jsonl~"] {
            FolderWatchTests.append(FolderWatchTests.batchFile[...], to: directory.file("inbox/" + name))
        }
        mkdir(directory.file("inbox/sub"), 0o700)
        try FolderWatchTests.waitForLooks(client, 4)
        #expect(try client.receiveAvailable().isEmpty)
        // The sync client renames the finished file: now it is imported.
        rename(directory.file("inbox/export.jsonl.part"), directory.file("inbox/export.jsonl"))
        let event = try client.nextEvent(timeout: 10)
        #expect(event.imported?.ok == true)
        #expect(event.imported?.file == directory.file("inbox/export.jsonl"))
    }

    @Test func aMissingWatchDirectoryIsRefusedAtStart() throws {
        let directory = try TemporaryDirectory()
        var configuration = DaemonConfiguration(socketPath: directory.socketPath, storePath: directory.storePath)
        configuration.watchDirectories = [directory.file("nowhere")]
        #expect(throws: DaemonError("\(directory.file("nowhere")): no such directory to watch")) {
            try DaemonServer(configuration)
        }
    }

    @Test func theLedgerOfAStoreMadeAnewIsForgotten() throws {
        let directory = try TemporaryDirectory()
        let daemon = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let subscriber = try daemon.subscriber()
        FolderWatchTests.append(FolderWatchTests.batchFile[...], to: directory.file("inbox/feed.jsonl"))
        #expect(try subscriber.nextEvent(timeout: 10).imported?.ok == true)
        try daemon.stop()
        // The user deletes the store (not the ledger beside it) and starts again: the file comes back in.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: directory.storePath + suffix) }
        let again = try FolderWatchTests.watchingDaemon(directory, interval: 0.05)
        let client = try again.subscriber()
        let event = try client.nextEvent(timeout: 10)
        #expect(event.imported?.ok == true)
        #expect(event.imported?.added == 30)
    }
}

@Suite("content hash")
struct ContentHashTests {
    @Test func sha256KnownAnswers() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ]
        for (i, (text, digest)) in cases.enumerated() {
            let path = directory.file("f\(i)")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try SHA256.file(path) == digest)
        }
    }
}
