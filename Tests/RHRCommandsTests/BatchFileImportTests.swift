// `rhr import` of a file of sync batches: read as it is applied, in one transaction, whole or not at all.
import Foundation
@testable import RHRCommands
import RHRStore
import RHRTestSupport
import Testing

/// A file of sync batches is streamed into the store a batch at a time (bounded memory, docs/design.md section 8) and
/// still applies whole or not at all: a line that does not read after others were applied leaves the store as it was;
/// a first line that does not read creates no store; what a batch passes over is kept (R14).
@Suite("rhr in process: importing a file of sync batches")
struct BatchFileImportTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    /// The lines of a sample batch file of three live batches.
    var lines: [String] {
        get throws {
            try String(contentsOfFile: InProcessRHR.sample("batches/healthkit-iphone.jsonl"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
    }

    @Test func aLineThatDoesNotReadAfterOthersWereAppliedLeavesTheStoreAsItWas() throws {
        #expect(rhr.run(["import", InProcessRHR.sample("batches/healthconnect-pixel.jsonl")]).status == 0)
        let before = rhr.run(["export", "--format", "json"]).stdout
        let revision = try HealthDatabase(path: rhr.sandbox.storePath).revision()
        let bad = try rhr.sandbox.write("late.jsonl", (try lines + ["{\"store\":\"healthkit\""]).joined(separator: "\n") + "\n")
        let result = rhr.run(["import", bad])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("rhr import: \(bad): read as a sync batch file (JSON lines): line \(try lines.count + 1), "),
                "\(result.stderr)")
        #expect(rhr.run(["export", "--format", "json"]).stdout == before)
        #expect(try HealthDatabase(path: rhr.sandbox.storePath).revision() == revision)
    }

    @Test func aFirstLineThatDoesNotReadCreatesNoStore() throws {
        let bad = try rhr.sandbox.write("first.jsonl", (["{\"store\":"] + (try lines)).joined(separator: "\n") + "\n")
        #expect(rhr.run(["import", bad]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    /// R14: an upsert that does not decode is passed over and kept, the rest of its batch and file applied.
    @Test func whatABatchPassesOverIsKeptAndCounted() throws {
        var lines = try self.lines
        lines[1] = lines[1].replacingOccurrences(of: "\"upserted\":[", with: "\"upserted\":[{\"type\":\"restingHeartRate\"},")
        let odd = try rhr.sandbox.write("odd.jsonl", lines.joined(separator: "\n") + "\n")
        let result = rhr.run(["import", odd])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 record passed over (kept in the store, rhr status lists them)"), "\(result.stdout)")
        #expect(result.stdout.contains("\(odd):   1 "), "\(result.stdout)")
        #expect(result.stdout.contains("line 2, upserted[0]"), "\(result.stdout)")
        #expect(rhr.run(["status"]).stdout.contains("passed over: 1 record, kept in the store raw:\n  1 HealthKit upserts whose start "
            + "rhr cannot read (\(odd), line 2, upserted[0])"))
    }
}
