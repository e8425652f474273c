import Foundation
import RHRCore
import RHRDaemon
import RHRJSON
import RHRTestSupport
import Testing

/// A store that fails under the daemon, for real: another program added a trigger to it that refuses every change.
/// Clients and phones are told in rhr's words; the daemon's log has one line per failure, with SQLite's own text,
/// rate-limited as the phone feeds' refusals are (docs/daemon.md, "The log").
@Suite("store failures in the daemon's log")
struct StoreFailureLogTests {
    let log = Recorder<String>()
    let daemon: TestDaemon
    let refusal: String

    init() throws {
        let log = self.log
        daemon = try TestDaemon { configuration in
            configuration.http = HTTPFeedConfiguration(address: HTTPAddress(host: "127.0.0.1", port: 0))
            configuration.log = { log.append($0) }
        }
        try SQLiteFile.execute("CREATE TRIGGER no_more BEFORE UPDATE ON meta BEGIN SELECT RAISE(ABORT, 'no more'); END",
                               at: daemon.directory.storePath)
        refusal = "\(daemon.directory.storePath): the store refused the change: a trigger in it, which rhr never makes, "
            + "refused it (another program has changed the store), so nothing of this import or request was applied"
    }

    /// The n-th batch of the stream `iphone`, without a cursor: each one a push of its own that the store fails.
    static func batch(_ n: Int) -> SyncBatch {
        liveBatch(previous: nil, next: nil, samples: [restingSample(day: String(format: "2026-11-%02d", 1 + n % 28), value: 58,
                                                                    uuid: "u\(n)")])
    }

    @Test func aStoreFailureOnASocketPushIsRepliedInWordsAndLoggedAsOneLine() throws {
        let client = try daemon.client()
        let reply = try client.push(Self.batch(1))
        #expect(reply.errorCode == "internal")
        #expect(reply.errorMessage == refusal)
        #expect(eventually { log.all.contains { $0.hasPrefix("socket:") } })
        #expect(log.all.filter { $0.hasPrefix("socket:") }
                    == ["socket: the store failed on a push from client 1 (healthkit/iphone): \(refusal) (SQLite: no more)"])
    }

    @Test func socketStoreFailuresAreLoggedAtMostThirtyAtOnceAndTheRestCounted() throws {
        let client = try daemon.client()
        func lines() -> [String] { log.all.filter { $0.hasPrefix("socket: the store failed on a push") } }
        for n in 1...40 {
            #expect(try client.push(Self.batch(n)).errorCode == "internal")
        }
        // The line is said before the reply is sent. Failures go on until one gets a line again (one a second is
        // let through), which says how many went unsaid before it.
        let said = lines().count, deadline = Date().addingTimeInterval(30)
        var pushes = 40
        repeat {
            pushes += 1
            #expect(try client.push(Self.batch(pushes)).errorCode == "internal")
        } while lines().count == said && Date() < deadline
        let all = lines()
        #expect(all.prefix(30).allSatisfy { !$0.contains("not logged") }, "the first 30 are said at once")
        #expect(all.last?.contains("(healthkit/iphone)") == true && all.last?.contains("not logged") == true, "\(all.suffix(2))")
        let unsaid = all.compactMap { line -> Int? in
            guard let range = line.range(of: "(and ") else { return nil }
            return Int(String(line[range.upperBound...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)))   // "2,004"
        }
        #expect(all.count + unsaid.reduce(0, +) == pushes, "every failure is a line or counted in one: \(all.suffix(2))")
    }

    @Test func aStoreFailureOverHTTPIsAnsweredInWordsAndLoggedWithSQLitesOwnText() throws {
        let token = try daemon.token("phone")
        let day = LocalDay(year: 2026, month: 3, day: 1)!
        let answer = try daemon.http().post("/v1/health-auto-export", token: token, json: PhonePayloads.healthAutoExportDay(day))
        #expect(answer.status == 500)
        #expect(answer.errorMessage == "the store failed, nothing was applied: \(refusal)")
        #expect(!answer.text.contains("no more"), "SQLite's text is for the log")
        #expect(eventually { log.all.contains { $0.hasPrefix("phone feeds: the store failed") } })
        #expect(log.all.contains("phone feeds: the store failed on a request from 127.0.0.1, token phone: 500 internal: "
            + "the store failed, nothing was applied: \(refusal) (SQLite: no more)"), "\(log.all)")
        // A line of /v1/batches that the store fails is answered in the body (200) and logged too.
        let lines = try daemon.http().post("/v1/batches", token: token, json: Array((batchLine(Self.batch(1)) + "\n").utf8))
        #expect(lines.status == 200)
        let first = try JSONParser.parse(lines.text.split(separator: "\n").first.map(String.init) ?? "")
        #expect(first["error"]?["message"]?.string == refusal)
        #expect(eventually { log.all.contains { $0.contains("batch line 1") } })
        #expect(log.all.contains("phone feeds: the store failed on a request from 127.0.0.1, token phone: batch line 1: "
            + "\(refusal) (SQLite: no more)"), "\(log.all)")
    }
}
