import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// Every read sees the newest committed revision, however many connections this process holds on the store and
/// whatever other processes did to it: a dashboard keeps one connection for its first frame and another
/// for its background reads, and `rhr import` in another shell writes, closes, and (as the last connection it
/// knows of) removes the `-wal` and `-shm` it checkpointed.
@Suite("Readers see the newest revision", .serialized)
struct NewestRevisionTests {
    let sandbox: RHRSandbox
    let path: String
    init() throws {
        sandbox = try RHRSandbox()
        path = sandbox.directory.file("x.sqlite")
    }

    /// A Health Auto Export file of one resting value by `writer`, on an older day.
    func importOne(_ writer: String, day: Int) throws {
        let file = try sandbox.write("\(writer).json", """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[\
            {"date":"2026-02-0\(day) 00:00:00 +0100","qty":\(50 + day),"source":"\(writer)"}]}]}}
            """)
        let result = try sandbox.run(["import", "--store", path, file])
        guard result.status == 0 else { throw TestFailure("rhr import \(writer): \(result.stderr)") }
    }

    func writerNames(_ database: HealthDatabase) throws -> [String] {
        try database.writers().map(\.writer.name).sorted()
    }

    @Test("two readers in one process both see each import another process makes, one after another")
    func twoReadersFollowOtherProcesses() throws {
        try importOne("Writer a", day: 1)
        let first = try #require(try HealthDatabase.reading(path: path, machineZone: utc))
        #expect(try first.revision() == 1)
        // The second connection is opened after the first has read: what the dashboard's background reads do.
        let second = try #require(try HealthDatabase.reading(path: path, machineZone: utc))
        for (n, writer) in ["Writer b", "Writer c", "Writer d"].enumerated() {
            try importOne(writer, day: n + 2)
            #expect(try first.revision() == Int64(n + 2), "the first reader after \(writer)")
            #expect(try second.revision() == Int64(n + 2), "the second reader after \(writer)")
            #expect(try writerNames(second).last == writer)
        }
        #expect(try writerNames(first) == ["Writer a", "Writer b", "Writer c", "Writer d"])
    }

    @Test("a writer in this process, after a reader opened beside it, writes where other processes read")
    func writerBesideReaderWritesTheSharedStore() throws {
        try importOne("Writer a", day: 1)
        let writer = try HealthDatabase(path: path, machineZone: utc)
        #expect(try writer.revision() == 1)
        let reader = try #require(try HealthDatabase.reading(path: path, machineZone: utc))
        #expect(try reader.revision() == 1)
        try importOne("Writer b", day: 2)
        let t = ts("2026-02-05T08:00:00+01:00")
        _ = try writer.apply(SyncBatch(store: .healthKit, stream: "here", asOf: t, resting: [
            RestingSample(store: .healthKit, writer: Writer(store: .healthKit, name: "Writer here"),
                          start: t.date, end: t.date, offsetSeconds: 3600, value: 60)], origin: "test"))
        // Another process, opened now, sees both writes: the one made there and the one made here.
        let exported = try sandbox.run(["export", "--store", path, "--format", "csv"])
        #expect(exported.status == 0)
        #expect(exported.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("2026-02") }.map {
            $0.components(separatedBy: ",")[2]
        } == ["Writer a", "Writer b", "Writer here"])
        #expect(try reader.revision() == 3)
    }
}
