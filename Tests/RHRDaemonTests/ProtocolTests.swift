import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing

/// Protocol v1 over a real socket: every operation and every error code.
@Suite("daemon protocol")
struct ProtocolTests {
    @Test func helloNamesTheProtocol() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let reply = try client.request(["op": "hello", "id": "h1"])
        #expect(reply.isOK)
        #expect(reply["protocol"]?.int64 == 1)
        #expect(reply["server"]?.string == "rhr")
        #expect(reply["id"]?.string == "h1")
        #expect(reply["revision"]?.int64 == 0)
    }

    @Test func pushSaysWhatChangedAndEchoesItsID() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let first = liveBatch(previous: nil, next: "a1", samples: [
            restingSample(day: "2026-11-27", value: 57, uuid: "S-27"),
            restingSample(day: "2026-11-28", value: 61, uuid: "S-28"),
            restingSample(day: "2026-11-26", value: 0, uuid: "S-26"),
        ])
        let reply = try client.request(.push(first), id: "push-1")
        #expect(reply.isOK, "\(reply)")
        #expect(reply["id"]?.string == "push-1")
        #expect(reply["added"]?.int64 == 3)
        #expect(reply["outOfRange"]?.int64 == 1)
        #expect(reply["duplicate"]?.bool == false)
        #expect(reply["revision"]?.int64 == 1)
        #expect(reply.days == ["2026-11-26", "2026-11-27", "2026-11-28"])
        let outcome = try reply.decode(BatchOutcome.self)
        #expect(outcome.added == 3 && outcome.outOfRange == 1 && outcome.revision == 1)
        #expect(outcome.changedDays == [LocalDay("2026-11-26")!, LocalDay("2026-11-27")!, LocalDay("2026-11-28")!])

        // The watch replaces its draft of the 28th and Apple deletes the 27th.
        let second = liveBatch(previous: "a1", next: "a2",
                               samples: [restingSample(day: "2026-11-28", value: 58, uuid: "S-28")], deleted: ["S-27"])
        let replaced = try client.request(.push(second), id: .number(JSONNumber(Int64(42))))
        #expect(replaced["id"]?.int64 == 42)
        #expect(replaced["replaced"]?.int64 == 1)
        #expect(replaced["deleted"]?.int64 == 1)
        #expect(replaced["added"]?.int64 == 0)
        #expect(replaced["revision"]?.int64 == 2)
        #expect(replaced.days == ["2026-11-27", "2026-11-28"])

        // What the store holds now, read by another connection as `rhr export` would.
        let days = try storeDays(daemon.directory.storePath).filter { $0.bpm != nil }
        #expect(days.map { "\($0.day) \($0.bpmText)" } == ["2026-11-28 58"])
    }

    @Test func aDuplicateIsOKAndChangesNothing() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let subscriber = try daemon.subscriber()
        let batch = chainBatch(stream: "iphone", 1)
        #expect(try client.push(batch)["added"]?.int64 == 1)
        #expect(try subscriber.nextEvent(timeout: 5).revision == 1)
        let again = try client.push(batch)
        #expect(again.isOK)
        #expect(again["duplicate"]?.bool == true)
        #expect(again["added"]?.int64 == 0)
        #expect(again["revision"]?.int64 == 1)
        #expect(again.days.isEmpty)
        // No event for a push that changed nothing: the next one the subscriber sees is the next change.
        #expect(try client.push(chainBatch(stream: "iphone", 2))["revision"]?.int64 == 2)
        #expect(try subscriber.nextEvent(timeout: 5).revision == 2)
    }

    @Test func aStaleCursorIsRefusedUntilAFullResync() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        #expect(try client.push(chainBatch(stream: "iphone", 1)).isOK)
        #expect(try client.push(chainBatch(stream: "iphone", 2)).isOK)
        // A batch that continues from a cursor the stream has moved past, and one from nowhere.
        let stale = liveBatch(previous: "c1", next: "x2", samples: [restingSample(day: "2026-11-20", value: 50, uuid: "X")])
        let refused = try client.push(stale)
        #expect(refused.errorCode == "cursor_mismatch")
        #expect(refused.errorMessage.contains("\"c2\""))
        #expect(refused["id"] != nil)
        let fromNowhere = try client.push(liveBatch(previous: "zzz", next: "x3"))
        #expect(fromNowhere.errorCode == "cursor_mismatch")
        // Nothing of the refused batches landed; the cursor stays.
        let cursor = try client.request(.cursor(store: .healthKit, stream: "iphone"))
        #expect(cursor["cursor"]?.string == "c2")
        #expect(try storeDays(daemon.directory.storePath).count == 2)
        // A full resync replaces what the stream said before.
        var resync = stale
        resync.fullResync = true
        let accepted = try client.push(resync)
        #expect(accepted.isOK, "\(accepted)")
        #expect(accepted["deleted"]?.int64 == 2)
        #expect(try client.request(.cursor(store: .healthKit, stream: "iphone"))["cursor"]?.string == "x2")
    }

    @Test func cursorOfAKnownAndAnUnknownStream() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let unknown = try client.request(["op": "cursor", "store": "healthconnect", "stream": "pixel"])
        #expect(unknown.isOK)
        #expect(unknown["known"]?.bool == false)
        #expect(unknown["cursor"]?.isNull == true)
        _ = try client.push(chainBatch(stream: "iphone", 1))
        let known = try client.request(["op": "cursor", "store": "healthkit", "stream": "iphone"])
        #expect(known["known"]?.bool == true)
        #expect(known["cursor"]?.string == "c1")
        #expect(known["asOf"]?.string == "2026-11-29T08:00:00+01:00")
        #expect(try client.request(["op": "cursor", "store": "healthkit"]).errorCode == "bad_request")
        #expect(try client.request(["op": "cursor", "store": "fitbit", "stream": "x"]).errorCode == "bad_request")
    }

    @Test func daysAnswersOneValuePerWriterAndDay() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
        let hc = SyncBatch(store: .healthConnect, stream: "pixel", asOf: ts("2026-11-29T08:00:00+01:00"),
                           cursor: .init(previous: nil, next: "t1"), resting: [
                            .healthConnect(id: "aa-01", writer: oura, time: ts("2026-11-27T05:40:00Z").date,
                                           zoneOffset: 3600, beatsPerMinute: 55),
                            .healthConnect(id: "aa-02", writer: oura, time: ts("2026-11-27T09:40:00Z").date,
                                           zoneOffset: 3600, beatsPerMinute: 52),
                           ])
        #expect(try client.push(hc).isOK)
        #expect(try client.push(liveBatch(previous: nil, next: "a1", samples: [
            restingSample(day: "2026-11-27", value: 57.5, uuid: "W27"), restingSample(day: "2026-11-28", value: 59, uuid: "W28"),
        ])).isOK)

        let latest = try client.request(["op": "days", "from": "2026-11-27", "to": "2026-11-27", "aggregate": "latest"])
        #expect(latest.isOK, "\(latest)")
        let rows = latest["days"]?.array ?? []
        #expect(rows.count == 2)
        // R1: each row names its store and writer; Health Connect's latest is the 09:40 record.
        #expect(rows.map { "\($0["store"]!.string!) \($0["writer"]!.string!) \($0["bpm"]!)" } == [
            "healthconnect com.ouraring.oura 52", "healthkit Jane’s Apple Watch 57.5",
        ])
        #expect(rows[0]["appName"]?.string == "Oura")
        // R3: the watch's value of the day before asOf is provisional, with the asOf it was read at.
        let all = try client.request(["op": "days"])
        let watch28 = all["days"]?.array?.first { $0["date"]?.string == "2026-11-28" }
        #expect(watch28?["provisional"]?.bool == true)
        #expect(watch28?["asOf"]?.string == "2026-11-29T08:00:00+01:00")
        let lowest = try client.request(["op": "days", "from": "2026-11-27", "to": "2026-11-27", "aggregate": "lowest"])
        #expect(lowest["aggregate"]?.string == "lowest")
        #expect(lowest["days"]?[0]?["bpm"]?.int64 == 52)

        #expect(try client.request(["op": "days", "from": "27 Nov"]).errorCode == "bad_request")
        #expect(try client.request(["op": "days", "from": "2026-11-28", "to": "2026-11-27"]).errorCode == "bad_request")
        #expect(try client.request(["op": "days", "aggregate": "median"]).errorCode == "bad_request")
    }

    @Test func statusDescribesTheDaemon() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        let subscriber = try daemon.subscriber()
        defer { subscriber.close() }  // counted below while it is open
        _ = try client.push(chainBatch(stream: "iphone", 1))
        let status = try client.request(.status)
        #expect(status.isOK)
        #expect(status["socket"]?.string == daemon.socketPath)
        #expect(status["store"]?.string == daemon.directory.storePath)
        #expect(status["pid"]?.int64 == Int64(getpid()))
        #expect(status["clients"]?.int64 == 2)
        #expect(status["subscribers"]?.int64 == 1)
        #expect(status["revision"]?.int64 == 1)
        #expect((status["uptime"]?.double ?? -1) >= 0)
        let streams = status["streams"]?.array ?? []
        #expect(streams.count == 1)
        #expect(streams.first?["cursor"]?.string == "c1")
        #expect(status["watch"]?["directories"]?.array?.isEmpty == true)
        // The same reply read into its type, as `rhr status` reads it.
        let typed = try status.decode(StatusReply.self)
        #expect(typed.pid == getpid() && typed.clients == 2 && typed.subscribers == 1 && typed.revision == 1)
        #expect(typed.streams.map { "\($0.store.rawValue)/\($0.stream) \($0.cursor ?? "-")" } == ["healthkit/iphone c1"])
        #expect(typed.members == status.message.filter { $0.key != "ok" && $0.key != "id" }.reduce(into: JSONObject()) { $0[$1.key] = $1.value })
    }

    /// The `days` reply and `rhr export --format json` write a day with one encoder: the same keys, the same numbers.
    @Test func daysRowsAreTheExportsRows() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        #expect(try client.push(liveBatch(previous: nil, next: "a1", samples: [
            restingSample(day: "2026-11-27", value: 57, uuid: "A"), restingSample(day: "2026-11-27", value: 58.5, uuid: "B", second: 60),
            restingSample(day: "2026-11-28", value: 59.53, uuid: "C"), restingSample(day: "2026-11-28", value: 0, uuid: "D", second: 60),
        ])).isOK)
        for aggregation in Aggregation.allCases {
            let reply = try client.request(.days(from: nil, to: nil, aggregation: aggregation))
            let rows = reply["days"]?.array ?? []
            let exported = DaySeries(try daemon.directory.store().samples())
                .values(by: aggregation)
            #expect(rows.count == exported.count && rows.count == 2)
            for (row, value) in zip(rows, exported) {
                let export = DayValueJSON.encode(value).object!
                for key in DayValueJSON.keys { #expect(row[key] == export[key], "\(aggregation) \(key)") }
            }
            #expect(try reply.decode(DaysReply.self).days.map(\.bpmText) == exported.map(\.bpmText))
        }
        let mean = try client.request(.days(from: nil, to: nil, aggregation: .mean))
        #expect(mean["days"]?.array?.map { JSONWriter.string($0["bpm"]!) } == ["57.8", "59.5"])
    }

    @Test func subscribersHearEveryChangeWithItsDays() throws {
        let daemon = try TestDaemon()
        let pusher = try daemon.client()
        let first = try daemon.client(), second = try daemon.client()
        #expect(try first.subscribe()["subscribed"]?.bool == true)
        _ = try second.subscribe()
        for n in 1...3 { #expect(try pusher.push(chainBatch(stream: "iphone", n)).isOK) }
        for subscriber in [first, second] {
            for n in 1...3 {
                let event = try subscriber.nextEvent(timeout: 5)
                #expect(event.name == "changed")
                #expect(event.revision == Int64(n))
                #expect(event.days == [String(format: "2026-11-%02d", 1 + n)])
            }
        }
    }

    @Test func everyErrorCodeAndTheConnectionGoesOn() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        func raw(_ text: String) throws -> DaemonReply {
            try client.sendRaw(Array((text + "\n").utf8))
            return try client.nextReply(timeout: 5)
        }
        let garbage = try raw("this is not json")
        #expect(garbage.errorCode == "bad_json")
        #expect(garbage.errorMessage.contains("column 1"))
        #expect(try raw(#"{"op":"push","batch":"#).errorCode == "bad_json")
        #expect(try raw("[1,2]").errorCode == "bad_request")
        #expect(try raw(#"{"id":7}"#).errorCode == "bad_request")
        let unknown = try raw(#"{"op":"fly","id":"u"}"#)
        #expect(unknown.errorCode == "bad_request")
        #expect(unknown["id"]?.string == "u")
        #expect(unknown.errorMessage.contains("hello, push, subscribe, days, status, cursor"))
        #expect(try raw(#"{"op":7}"#).errorCode == "bad_request")
        #expect(try raw(#"{"op":"push","id":1}"#).errorCode == "bad_request")

        // A batch's errors name the JSON path inside the request.
        // (An upsert that does not decode is passed over, R14: the batch as a whole must be wrong to be refused.)
        var bad = SyncBatchJSON.encode(chainBatch(stream: "iphone", 1)).object!
        bad["asOf"] = "yesterday"
        let invalid = try client.request(["op": "push", "id": 9, "batch": .object(bad)])
        #expect(invalid.errorCode == "invalid_batch")
        #expect(invalid["id"]?.int64 == 9)
        #expect(invalid.errorMessage.hasPrefix("batch.asOf: "), "\(invalid.errorMessage)")
        let notObject = try client.request(["op": "push", "batch": "x"])
        #expect(notObject.errorCode == "invalid_batch")
        #expect(notObject.errorMessage.hasPrefix("batch: "))
        let mixed = try client.request(["op": "push", "batch": ["store": "healthkit", "stream": "", "asOf": "2026-11-29T08:00:00Z"]])
        #expect(mixed.errorCode == "invalid_batch")
        #expect(mixed.errorMessage.contains("batch.stream"))

        #expect(ProtocolError(StoreError(.database, "disk I/O error")).code == .internalError)

        // After all of that the same connection still serves.
        #expect(try client.request(.hello).isOK)
        #expect(try client.push(chainBatch(stream: "iphone", 1)).isOK)
        // Blank lines: DaemonEdgeTests.aBlankLineGetsABadRequestReply.
    }

    @Test func theStoreFailingIsInternal() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        #expect(try client.push(chainBatch(stream: "iphone", 1)).isOK)
        // Someone breaks the store behind the daemon's back (the sqlite3 shell drops a table it needs).
        let shell = try Subprocess.status("/usr/bin/sqlite3", [daemon.directory.storePath, "DROP TABLE stream_cursor"])
        #expect(shell == 0)
        let reply = try client.push(chainBatch(stream: "iphone", 2))
        #expect(reply.errorCode == "internal", "\(reply)")
        // In rhr's words, not SQLite's ("no such table: stream_cursor").
        #expect(reply.errorMessage.contains("the store's tables are not as rhr made them"), "\(reply.errorMessage)")
        // Nothing of the failed push landed, and the daemon goes on serving.
        #expect(try client.request(.cursor(store: .healthKit, stream: "iphone"))["cursor"]?.string == "c1")
        #expect(try daemon.client().request(.hello).isOK)
    }

    @Test func garbageOnOneConnectionDoesNotDisturbAnother() throws {
        let daemon = try TestDaemon()
        let bad = try daemon.client(), good = try daemon.client()
        try bad.sendRaw(Array("\u{1}\u{2}{{{\n".utf8))
        // A line cut off by a client that then vanishes.
        let vanishing = try daemon.client()
        try vanishing.sendRaw(Array(#"{"op":"push","batch":{"store":"heal"#.utf8))
        vanishing.close()
        #expect(try good.push(chainBatch(stream: "iphone", 1)).isOK)
        #expect(try bad.nextReply(timeout: 5).errorCode == "bad_json")
        #expect(try bad.request(.hello).isOK)
    }

    @Test func aClientThatClosesItsSideStillGetsItsReplies() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        // Like `socat` or `nc -N` sending a file: requests, then end of input, then read what comes back.
        try client.send(.object(["op": "push", "id": 1, "batch": SyncBatchJSON.encode(chainBatch(stream: "iphone", 1))]))
        try client.send(["op": "hello", "id": 2])
        shutdown(client.fileDescriptor, Int32(SHUT_WR))
        #expect(try client.nextReply(timeout: 5)["added"]?.int64 == 1)
        #expect(try client.nextReply(timeout: 5)["id"]?.int64 == 2)
        #expect(client.waitForClose(timeout: 5))
    }

    @Test func anOversizeLineGetsTooLargeAndItsConnectionCloses() throws {
        let daemon = try TestDaemon()
        let other = try daemon.client()
        let client = try daemon.client()
        // 16 MiB + 2 bytes without an end: known to be too long before it ends.
        let prefix = Array(#"{"op":"push","batch":{"pad":""#.utf8)
        var line = prefix + [UInt8](repeating: UInt8(ascii: "x"), count: (16 << 20) + 2 - prefix.count)
        try client.sendRaw(line, timeout: 30)
        line = []
        let reply = try client.nextReply(timeout: 10)
        #expect(reply.errorCode == "too_large")
        #expect(reply.errorMessage.contains("16 MiB"))
        #expect(client.waitForClose(timeout: 10), "the connection stays open after too_large")
        // Everyone else goes on.
        #expect(try other.request(.hello).isOK)
        #expect(try daemon.client().push(chainBatch(stream: "iphone", 1)).isOK)
    }

    @Test func aLargePushParsedOffTheLoopLandsWhole() throws {
        let daemon = try TestDaemon()
        let client = try daemon.client()
        var samples: [RestingSample] = []
        let first = LocalDay(year: 2020, month: 1, day: 1)!
        for i in 0..<2000 {
            samples.append(restingSample(day: first.adding(days: i).description, value: Double(50 + i % 20), uuid: "BIG-\(i)"))
        }
        let batch = liveBatch(previous: nil, next: "big", samples: samples)
        #expect(batchLine(batch).utf8.count > 64 << 10)
        let reply = try client.push(batch, timeout: 30)
        #expect(reply.isOK, "\(reply)")
        #expect(reply["added"]?.int64 == 2000)
        #expect(try daemon.client().request(.hello).isOK)
    }
}
