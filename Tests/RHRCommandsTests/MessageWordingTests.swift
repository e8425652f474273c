import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRTestSupport
import Testing

/// How rhr words what it says: one prefix per message, the same words for the same thing in every command,
/// counts in the right number, and errors that say what a file was read as and what to do about it.
@Suite("rhr in process: the wording of messages")
struct MessageWordingTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    @Test func aMissingFileIsWordedAlikeByImportAndPush() {
        let missing = rhr.sandbox.home + "/nope.jsonl"
        #expect(rhr.run(["import", missing]) == SubprocessResult(status: 1, stdout: "", stderr: "rhr import: \(missing): no such file\n"))
        // The file is opened before any daemon is asked, so no daemon is needed to hear about it.
        #expect(rhr.run(["push", missing]) == SubprocessResult(status: 1, stdout: "", stderr: "rhr push: \(missing): no such file\n"))
        #expect(rhr.run(["push", rhr.sandbox.home]) == SubprocessResult(status: 1, stdout: "", stderr: "rhr push: \(rhr.sandbox.home): is a directory\n"))
        // A folder is looked into for the files rhr reads (ImportInputsCommandTests).
        #expect(rhr.run(["import", rhr.sandbox.home]).stderr.hasPrefix("rhr import: \(rhr.sandbox.home): a folder holding no file rhr reads"))
    }

    @Test func everyMessageHasOnePrefixAndNoneLacksIt() throws {
        let notes = try rhr.sandbox.write("notes.txt", "some words\n")
        let bad = try rhr.sandbox.write("bad.jsonl", "{\"store\":\n")
        let cases: [([String], String)] = [
            (["import"], "rhr import"), (["import", notes, bad], "rhr import"), (["push", "a", "b"], "rhr push"),
            (["push", bad], "rhr push"), (["daemon", "x"], "rhr daemon"), (["export", "--bogus"], "rhr export"),
            (["--from"], "rhr"), ([notes], "rhr"), (["frobnicate"], "rhr"), (["summary", "--days", "x"], "rhr summary"),
            (["--store", notes, "status"], "rhr status"),
        ]
        for (words, prefix) in cases {
            let result = rhr.run(words, environment: ["XDG_RUNTIME_DIR": rhr.sandbox.home + "/no-daemon"])
            #expect(result.status != 0, "\(words)")
            #expect(!result.stderr.isEmpty, "\(words)")
            for line in result.stderr.split(separator: "\n").map(String.init) {
                if line.hasPrefix("Try '") {
                    #expect(line == "Try '\(prefix) --help'.", "\(words)")
                    continue
                }
                #expect(line.hasPrefix(prefix + ": "), "\(words): \(line)")
                // "rhr import: rhr import needs at least one PATH" said it twice.
                #expect(!line.dropFirst(prefix.count + 2).hasPrefix("rhr"), "\(words): \(line)")
            }
        }
    }

    @Test func anImportLineSaysOutOfRangeOnlyWhenThereIsSome() {
        let watch = InProcessRHR.sample("batches/healthkit-iphone.jsonl")
        let pixel = InProcessRHR.sample("batches/healthconnect-pixel.jsonl")
        let result = rhr.run(["import", watch, pixel])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            \(watch): sync batches (JSON lines): 36 records read; HealthKit resting samples 20 added, 0 replaced, 1 deleted; \
            16 heart-rate readings (kept as day summaries, R8)
            \(pixel): sync batches (JSON lines): 16 records read; Health Connect resting samples 16 added, 0 replaced, 0 deleted; \
            1 out of range among them (kept, excluded from the trend)

            """)
    }

    @Test func countsOfOneAreSingular() throws {
        let line = try String(contentsOfFile: InProcessRHR.sample("batches/healthconnect-pixel.jsonl"), encoding: .utf8)
        guard case .object(var batch) = try JSONParser.parse(line) else { throw TestFailure("a batch is an object") }
        batch["upserted"] = .array([try #require(batch["upserted"]?.array?.first)])
        let one = try rhr.sandbox.write("one.jsonl", JSONWriter.string(.object(batch)) + "\n")
        let result = rhr.run(["import", one])
        #expect(result.stdout.hasPrefix("\(one): sync batches (JSON lines): 1 record read; Health Connect resting samples 1 added,"),
                "\(result.stdout)")
        #expect(rhr.run(["status"]).stdout.contains("\nHealth Connect: 1 resting sample from 1 writer, 0 heart-rate samples from 0 writers\n"))
        var outcome = BatchOutcome()
        outcome.added = 1
        outcome.heartRateSummaries = 1
        outcome.revision = 4
        #expect(PushCommand.describe(outcome) == "ok: 1 added, 0 replaced, 0 deleted; 1 heart-rate summary; revision 4")
    }

    @Test func importCountsAreWordedAlikeByImportPushTheFolderWatchAndHTTP() throws {
        var counts = SampleCounts()
        counts.added = 1204
        counts.replaced = 1
        counts.outOfRange = 2
        counts.unchanged = 3
        let words = "1,204 added, 1 replaced, 0 deleted, 3 unchanged; 2 out of range among them (kept, excluded from the trend)"
        #expect(counts.words == words)
        var outcome = BatchOutcome()
        outcome.samples = counts
        outcome.revision = 9
        var duplicate = BatchOutcome()
        duplicate.duplicate = true
        // `rhr import` and the daemon's HTTP answers (which answer with `ImportSummary.words`).
        var batch = SyncBatch(store: .healthKit, stream: "iphone", asOf: try #require(Timestamp.parse("2026-11-29T08:00:00Z")))
        batch.origin = "x.jsonl"
        let imported = ImportedFile(path: "x.jsonl", kind: .syncBatches, batches: [batch, batch], recordsRead: 1210)
        #expect(ImportSummary.words(imported, [outcome, duplicate])
                == "sync batches (JSON lines): 1,210 records read; HealthKit resting samples \(words); 1 batch applied before")
        // `rhr push`.
        #expect(PushCommand.describe(outcome) == "ok: \(words); revision 9")
        // The folder watch's log and `rhr status`.
        var entry = WatchImport(file: "/inbox/x.jsonl", sha256: "", at: Date(timeIntervalSince1970: 0), ok: true)
        entry.kind = InputKind.syncBatches.description
        entry.records = 1210
        entry.samples = counts
        entry.duplicates = 1
        #expect(entry.summary == "x.jsonl: sync batches (JSON lines): 1,210 records read; resting samples \(words); 1 batch applied before")
    }

    @Test func aFileThatDoesNotParseSaysWhatItWasReadAs() throws {
        let foo = try rhr.sandbox.write("foo.json", "{\"stream\":1}\n")
        #expect(rhr.run(["import", foo])
            == SubprocessResult(status: 1, stdout: "", stderr: "rhr import: \(foo): read as a sync batch file (JSON lines): line 1, store: missing\n"))
        // Cut before its first record: an export cut later reads up to the cut (R14).
        let cut = try rhr.sandbox.write("export.xml", String(try String(contentsOfFile: InProcessRHR.sample("apple-health/export-2.xml"),
                                                                            encoding: .utf8).prefix(600)))
        let truncated = rhr.run(["import", cut])
        #expect(truncated.stderr.hasPrefix("rhr import: \(cut): read as an Apple Health export (XML): byte "), "\(truncated.stderr)")
    }

    @Test func aZipCutShortSaysToCopyItAgain() throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: InProcessRHR.sample("apple-health/exportar.zip")))
        let cut = try rhr.sandbox.directory.write("cut.zip", Array(zip.prefix(zip.count / 2)))
        let result = rhr.run(["import", cut])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("rhr import: \(cut): "), "\(result.stderr)")
        // libarchive's own words go in the brackets ("ZIP decompression failed", "Truncated input file …").
        #expect(result.stderr.contains(": the zip is truncated or damaged ("), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("); copy it again from the phone\n"), "\(result.stderr)")
    }
}
