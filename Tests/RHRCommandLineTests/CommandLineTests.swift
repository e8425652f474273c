import Foundation
import RHRTestSupport
import Testing

/// The command line end to end: the real binary, a real store in a private directory.
@Suite("rhr command line")
struct CommandLineTests {
    let rhr: RHRSandbox

    init() throws { rhr = try RHRSandbox() }

    var sampleBatches: [String] {
        ["healthkit-iphone.jsonl", "healthconnect-pixel.jsonl"].map { SourceTree.samples + "/batches/" + $0 }
    }

    @Test func importThenExportGivesTheRowsTheRulesSay() throws {
        let imported = try rhr.run(["import"] + sampleBatches)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("healthkit-iphone.jsonl: sync batches (JSON lines): "))
        #expect(imported.stdout.contains("HealthKit resting samples 20 added, 0 replaced, 1 deleted"))
        let export = try rhr.run(["export", "--from", "2026-03-18"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == """
            date,store,writer,writer_name,aggregate,bpm,samples,provisional,offset_assumed,out_of_range,implausible_date,derivation
            2026-03-18,healthconnect,com.ouraring.oura,Oura,latest,56,1,false,false,0,0,oura
            2026-03-18,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,57,1,false,false,0,0,apple-watch
            2026-03-18,healthkit,Withings,Withings,latest,60.5,1,false,false,0,0,withings
            2026-03-19,healthconnect,com.example.sleeptracker,Sleep Tracker,latest,,0,false,false,1,0,unknown-healthconnect
            2026-03-19,healthconnect,com.ouraring.oura,Oura,latest,54,1,false,false,0,0,oura
            2026-03-19,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,56,1,false,false,0,0,apple-watch
            2026-03-19,healthkit,Withings,Withings,latest,60.8,1,false,false,0,0,withings
            2026-03-20,healthconnect,com.example.manuallog,Manual Log,latest,61,1,false,false,0,0,unknown-healthconnect
            2026-03-20,healthconnect,com.ouraring.oura,Oura,latest,53,1,false,false,0,0,oura
            2026-03-20,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,58,1,true,false,0,0,apple-watch
            2026-03-21,healthconnect,com.ouraring.oura,Oura,latest,55,1,false,true,0,0,oura
            2026-03-21,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,59,1,true,false,0,0,apple-watch

            """)
        // The replaced draft is gone from the trend and named in the history.
        #expect(!export.stdout.contains(",62,"))
        let status = try rhr.run(["status"])
        #expect(status.stdout.contains("healthkit/iphone: as of 2026-03-21T22:30:00+01:00, cursor YW5jaG9yLTM="))
        // Importing the same files again changes nothing.
        let again = try rhr.run(["import"] + sampleBatches)
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 added, 0 replaced, 0 deleted"))
        #expect(try rhr.run(["export", "--from", "2026-03-18"]).stdout == export.stdout)
    }

    @Test func aFileOfBothStoresCountsEachByName() throws {
        // R1: one batch file may carry HealthKit and Health Connect batches; their counts are never added up.
        let both = try sampleBatches.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        let imported = try rhr.run(["import", try rhr.write("both.jsonl", both)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("; HealthKit resting samples 20 added, 0 replaced, 1 deleted; "
            + "Health Connect resting samples 16 added, 0 replaced, 0 deleted; 1 out of range among them (kept, excluded from the trend)"),
                "\(imported.stdout)")
    }

    @Test func exportAggregatesAndJSON() throws {
        try rhr.imported(["import"] + sampleBatches)
        let mean = try rhr.run(["export", "--aggregate", "mean", "--from", "2026-03-19", "--to", "2026-03-19"])
        #expect(mean.stdout.split(separator: "\n").dropFirst().map(String.init) == [
            "2026-03-19,healthconnect,com.example.sleeptracker,Sleep Tracker,mean,,0,false,false,1,0,unknown-healthconnect",
            "2026-03-19,healthconnect,com.ouraring.oura,Oura,mean,54.0,1,false,false,0,0,oura",
            "2026-03-19,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,mean,56.0,1,false,false,0,0,apple-watch",
            "2026-03-19,healthkit,Withings,Withings,mean,60.8,1,false,false,0,0,withings",
        ])
        let json = try rhr.run(["export", "--format", "json", "--from", "2026-03-21"])
        #expect(json.status == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.count == 2)
        #expect(rows?.last?["writer"] as? String == "Jane’s Apple Watch")
        #expect(rows?.last?["bpm"] as? Double == 59)
        #expect(rows?.last?["provisional"] as? Bool == true)
        #expect(rows?.first?["offset_assumed"] as? Bool == true)
        #expect(Set(rows?.first?.keys.map { $0 } ?? []) == ["date", "store", "writer", "writer_name", "aggregate", "bpm", "samples",
                                                            "provisional", "offset_assumed", "out_of_range",
                                                            "implausible_date", "derivation"])
    }

    @Test func theStoreIsPrivate() throws {
        try rhr.imported(["import", sampleBatches[1]])
        #expect(FileMode.permissions(rhr.storePath) == 0o600)
        #expect(FileMode.permissions(rhr.dataHome + "/rhr") == 0o700)
        // --store names another place.
        let other = rhr.home + "/elsewhere/mine.sqlite"
        #expect(try rhr.run(["--store", other, "import", sampleBatches[1]]).status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func aBadBatchIsRefusedWithNothingStoredAndABadUpsertPassedOver() throws {
        try rhr.imported(["import", sampleBatches[1]])
        let before = try rhr.run(["export"]).stdout
        let lines = try String(contentsOfFile: sampleBatches[0], encoding: .utf8).split(separator: "\n")
        let broken = lines[0] + "\n" + lines[1].replacingOccurrences(of: "\"start\":\"2026-03-21T00:03:12+01:00\"",
                                                                     with: "\"start\":\"21 Nov\"") + "\n"
        let path = try rhr.write("broken.jsonl", broken)
        // A batch rhr cannot read as a whole (here its asOf) refuses the file, and nothing of it is stored.
        let badBatch = try rhr.write("bad-batch.jsonl", broken.replacingOccurrences(of: "\"asOf\":\"", with: "\"asOf\":\"x"))
        let refused = try rhr.run(["import", badBatch])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad-batch.jsonl: read as a sync batch file (JSON lines): line 1, asOf: not an ISO-8601 date"),
                "\(refused.stderr)")
        #expect(try rhr.run(["export"]).stdout == before)
        // An upsert that does not decode is passed over, named by line and path (R14); the rest imports.
        let result = try rhr.run(["import", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("broken.jsonl:   1 HealthKit upserts whose start rhr cannot read (line 2, upserted[0])"),
                "\(result.stdout)")
    }

    @Test func aCursorGapIsRefusedWithNothingStored() throws {
        let lines = try String(contentsOfFile: sampleBatches[0], encoding: .utf8).split(separator: "\n")
        let path = try rhr.write("gap.jsonl", lines[0] + "\n" + lines[2] + "\n")
        let result = try rhr.run(["import", path])
        #expect(result.status == 1)
        // The batch refused is named by its line.
        #expect(result.stderr == "rhr import: \(path): line 2: stream healthkit/iphone is at cursor \"YW5jaG9yLTE=\", but the batch continues "
            + "from \"YW5jaG9yLTI=\"; send a full resync or the missing batches\n")
        #expect(try rhr.run(["export"]).stdout == "date,store,writer,writer_name,aggregate,bpm,samples,provisional,offset_assumed,out_of_range,implausible_date,derivation\n")
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [["export", "--format", "xml"], ["export", "--from", "yesterday"], ["import"], ["export", "--bogus"],
                     ["export", "--aggregate", "median"], ["export", "--from", "2026-03-20", "--to", "2026-03-01"],
                     ["summary", "--days", "0"]] {
            let result = try rhr.run(args)
            #expect(result.status == 2, "\(args)")
            #expect(result.stderr.hasPrefix("rhr"), "\(args)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func failuresExitOneAndNameTheFile() throws {
        let missing = try rhr.run(["import", rhr.home + "/nope.zip"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.zip: no such file"))
        let garbage = try rhr.write("notes.txt", "just some words\n")
        let unknown = try rhr.run(["import", garbage])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("notes.txt: not a file rhr reads"))
    }

    @Test func helpAndVersion() throws {
        let help = try rhr.run(["--help"])
        #expect(help.status == 0)
        for word in ["rhr import", "rhr export", "rhr summary", "rhr status", "--store", "not medical advice"] {
            #expect(help.stdout.contains(word), "\(word)")
        }
        let exportHelp = try rhr.run(["export", "--help"])
        #expect(exportHelp.stdout.hasPrefix("usage: rhr export [--format csv|json]"))
        let version = try rhr.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("rhr 0."))
    }

    @Test func summaryNamesWritersFlagsAndTheEmptyState() throws {
        let empty = try rhr.run(["summary"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("No data yet."))
        // Every way in: exports, a bridge, phones over HTTP.
        for way in ["rhr import export.zip", "rhr push batches.jsonl", "rhr daemon --http ADDR:PORT"] {
            #expect(empty.stdout.contains(way), "\(way)")
        }
        try rhr.imported(["import"] + sampleBatches)
        let summary = try rhr.run(["summary"])
        // The export's 22:30 +01:00 in the machine's clock (UTC here).
        #expect(summary.stdout.contains("HealthKit as of 21 Mar 21:30"))
        #expect(summary.stdout.contains("one value per day: latest"))
        #expect(summary.stdout.contains("HK Jane’s Apple Watch"))
        #expect(summary.stdout.contains("59 p"))
        #expect(summary.stdout.contains("55 o"))   // the null offset, same letter as the dashboard
        #expect(summary.stdout.contains("– x"))    // the zero: out of range, no valid value
        #expect(summary.stdout.contains("p provisional: Apple may still replace this estimate (read 21 Mar 21:30 +00:00)"))  // 22:30 +01:00, the machine at UTC
        #expect(summary.stdout.contains("without READ_HEALTH_DATA_HISTORY"))
        // R10: the sample feed last read on 21 Mar 2026 (08:10 +01:00); the child runs at UTC. Its changes token
        // is named once that is more than 30 days ago (either side of a midnight passing during the test).
        let lastRead = Date(timeIntervalSince1970: 1_774_077_000)
        let idle = Int(Date().timeIntervalSince1970 / 86_400) - Int(lastRead.timeIntervalSince1970 / 86_400)
        let tokenLines = [idle, idle + 1].filter { $0 > 30 }.map {
            "Health Connect (pixel): last read \($0) days ago; its changes token expires after 30 days unused, "
                + "so the bridge may need a full resync"
        }
        if idle > 30 {
            #expect(tokenLines.contains { summary.stdout.contains($0) }, "\(summary.stdout)")
        } else if idle < 30 {
            #expect(!summary.stdout.contains("changes token"))
        }
        // `rhr` alone, not on a terminal, prints the summary.
        #expect(try rhr.run([]).stdout == summary.stdout)
    }
}
