// `rhr import` of a file of sync batches: read as it is applied, in one transaction, whole or not at all.
import Foundation
import RHRCore
import RHRFormats
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

    /// A line of the sample's stream whose only upsert rhr cannot read.
    static func passedOverLine(asOf: String) -> String {
        #"{"store":"healthkit","stream":"iphone","asOf":"\#(asOf)","upserted":[{"type":"restingHeartRate"}]}"#
    }

    /// R14, the account, for a streamed file: not one record could be used, so it exits 1, keeps what it passed over,
    /// and no stream is dated by it.
    @Test func aBatchFileOfWhichNothingCouldBeUsedExits1AndMovesNoAsOf() throws {
        #expect(rhr.run(["import", InProcessRHR.sample("batches/healthconnect-pixel.jsonl")]).status == 0)
        let before = (rhr.run(["status"]).stdout, rhr.run(["export", "--format", "json"]).stdout)
        let odd = try rhr.sandbox.write("odd.jsonl", [Self.passedOverLine(asOf: "2026-03-20T21:30:00+01:00"),
                                                     Self.passedOverLine(asOf: "2026-03-21T21:30:00+01:00")].joined(separator: "\n") + "\n")
        let result = rhr.run(["import", odd])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "rhr import: nothing in \(odd) could be used: 2 records passed over, kept in the store (rhr status "
            + "lists them): 2 HealthKit upserts whose start rhr cannot read (first at line 1, upserted[0])\n", "\(result.stderr)")
        let after = rhr.run(["status"]).stdout
        #expect(after.contains("passed over: 2 records, kept in the store raw:"), "\(after)")
        #expect(!after.contains("iphone"), "\(after)")
        func streams(_ status: String) -> [Substring] { status.split(separator: "\n").filter { $0.contains("as of") } }
        #expect(streams(after) == streams(before.0) && !streams(after).isEmpty)
        #expect(rhr.run(["export", "--format", "json"]).stdout == before.1)
    }

    /// A line that passes everything over before lines that hold values: the file is applied as it is.
    @Test func aBatchFileWhoseFirstLinePassesEverythingOverIsApplied() throws {
        let odd = try rhr.sandbox.write("odd.jsonl", ([Self.passedOverLine(asOf: "2026-03-19T21:30:00+01:00")] + (try lines))
            .joined(separator: "\n") + "\n")
        let result = rhr.run(["import", odd])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 record passed over (kept in the store, rhr status lists them)"), "\(result.stdout)")
        #expect(rhr.run(["status"]).stdout.contains("iphone"))
    }

    /// The account of a streamed file (docs/design.md R14): records read, heart-rate readings and passed-over records
    /// add up, as when the file is read whole.
    @Test func aStreamedBatchFilesAccountAddsUp() throws {
        let line = """
            {"store":"healthconnect","stream":"pixel","asOf":"2024-01-03T08:00:00+01:00","upserted":[\
            {"type":"RestingHeartRate","time":"2024-01-02T05:40:00Z","zoneOffset":"+01:00","beatsPerMinute":54,"metadata":{"id":"r1","dataOrigin":"com.ouraring.oura"}},\
            {"type":"RestingHeartRate","time":"yesterday","beatsPerMinute":54,"metadata":{"id":"r2","dataOrigin":"com.ouraring.oura"}},\
            {"type":"HeartRate","startTime":"2024-01-02T06:00:00Z","endTime":"2024-01-02T06:10:00Z","samples":[\
            {"time":"2024-01-02T06:00:00Z","beatsPerMinute":70},{"time":"2024-01-02T06:05:00Z","beatsPerMinute":72}],\
            "metadata":{"id":"h1","dataOrigin":"com.ouraring.oura"}}],"deleted":["r0","bad\\u0000id"]}
            """
        let path = try rhr.sandbox.write("account.jsonl", line + "\n" + line.replacingOccurrences(of: "2024-01-03T08", with: "2024-01-04T08") + "\n")
        let opened = try FileImporter.open(path: path, options: ImportOptions(machineZone: utc))
        while try opened.stream?.next() != nil {}
        #expect(opened.recordsRead == 8 && opened.heartRateRead == 2 && opened.passedOver.total == 4)
        #expect(opened.recordsRead == opened.accounted)
        let result = rhr.run(["import", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(path): sync batches (JSON lines): 8 records read; Health Connect resting samples 1 added, "
            + "0 replaced, 0 deleted, 1 unchanged; 2 heart-rate readings (kept as day summaries, R8); 4 records passed over"),
                "\(result.stdout)")
    }

    /// A streamed file's batches name it, with when it was made (R12); a time later than the machine's clock by more than
    /// a day is not used, and the import line says so (R13).
    @Test func aStreamedBatchFileIsStampedWithItsNameAndTime() throws {
        let path = try rhr.sandbox.write("made.jsonl", (try lines).joined(separator: "\n") + "\n")
        try FileManager.default.setAttributes([.modificationDate: date("2099-01-01T00:00:00Z")], ofItemAtPath: path)
        let opened = try FileImporter.open(path: path, options: ImportOptions(machineZone: utc))
        let first = try #require(try opened.stream?.next())
        #expect(first.file == DeliveredFile(name: "made.jsonl", madeAt: Timestamp(date: date("2099-01-01T00:00:00Z"), offsetSeconds: 0)))
        let result = rhr.run(["import", path])
        #expect(result.stdout.contains("; file dated 1 Jan 2099, later than this machine's clock: its time is not used"), "\(result.stdout)")
    }
}
