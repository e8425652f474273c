import Foundation
import RHRCore
import RHRDaemon
import RHRDaemonClient
import RHRFormats
import RHRTestSupport
import Testing

/// Sync-batch lines have one reader (`SyncBatchLines`): a file `rhr import` reads and the body of `POST /v1/batches`
/// refuse the same bad line in the same words, and pass over the same upsert under the same place.
@Suite("sync-batch lines: one reader for a file and for POST /v1/batches")
struct BatchLineTests {
    static let lines = [
        batchLine(liveBatch(previous: nil, next: "a1", samples: [restingSample(day: "2026-11-27", value: 56, uuid: "A")])),
        "{\"store\":",
        batchLine(liveBatch(previous: "a1", next: "a2", samples: [restingSample(day: "2026-11-28", value: 57, uuid: "B")]))
            .replacingOccurrences(of: "\"start\":\"2026-11-28T00:03:12+01:00\"", with: "\"start\":\"yesterday\""),
    ]
    static let notJSON = "line 2, column 10, store: expected a value, found the end of the input"

    @Test func aBadLineAndABadUpsertAreNamedAlikeInAFileAndOverHTTP() throws {
        #expect(Self.lines[2].contains("\"start\":\"yesterday\""))
        let daemon = try HTTPFeedTests.daemon()
        let token = try daemon.token("bridge")
        let answer = try daemon.http().request("POST", "/v1/batches", headers: [("Authorization", "Bearer \(token)")],
                                               body: Array(Self.lines.joined(separator: "\n").utf8))
        let replies = answer.lines
        #expect(replies.map { $0["ok"]?.bool ?? false } == [true, false, true])
        #expect(replies[1]["error"]?["code"]?.string == "bad_json")
        #expect(replies[1]["error"]?["message"]?.string == "not JSON: " + Self.notJSON)
        // The upsert of line 3 is passed over under its line, as a file's is (it used to lack the line over HTTP).
        let kept = try daemon.directory.store().passedOverRecords().map(\.record)
        #expect(kept.map(\.place) == ["line 3, upserted[0]"])
        #expect(kept.map(\.reason) == ["upserted[0].start: not an ISO-8601 date"])

        let dir = try TemporaryDirectory()
        let options = ImportOptions(machineZone: utc)
        let refused = #expect(throws: InputError.self) {
            try BatchFileReader.read(path: try dir.write("b.jsonl", Self.lines.joined(separator: "\n")), options: options, progress: nil)
        }
        #expect(refused.map { $0.place.words($0.message) } == Self.notJSON)
        var fine = Self.lines
        fine[1] = ""
        let file = try BatchFileReader.read(path: try dir.write("fine.jsonl", fine.joined(separator: "\n")), options: options,
                                            progress: nil)
        #expect(file.passedOver.records.map(\.place) == kept.map(\.place))
        #expect(file.passedOver.records.map(\.reason) == kept.map(\.reason))
    }

    @Test func aLineOverTheLimitIsNamedByItsLine() throws {
        let refusal = #expect(throws: SyncBatchLines.Refusal.self) {
            try SyncBatchLines.batch(.tooLong(number: 7), maxLineLength: 16 << 20, machineZone: utc, origin: "")
        }
        #expect(refusal?.kind == .tooLong)
        #expect(ProtocolError(try #require(refusal)).description == "too_large: line 7: longer than 16 MiB, the limit for one batch")
    }
}
