import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// What `rhr import`, `rhr summary` and `rhr export` say about odd real exports, implausible dates and one watch
/// over several roads.
@Suite("Odd imports through the commands")
struct OddImportsCommandTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    func rows(_ arguments: [String] = []) -> [String] { rhr.exportRows(arguments) }

    @Test func anExportWithoutHeartDataSaysWhatWasImportedNotTheFirstRun() {
        let imported = rhr.run(["import", InProcessRHR.sample("odd-exports/no-heart-data-2019.xml")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = rhr.run(["summary"]).stdout
        #expect(!summary.contains("No data yet"), "\(summary)")
        // The year, since it is not this one, wherever the date is shown; the time in the machine's clock (UTC
        // here), not the phone's 10:36 -07:00.
        #expect(summary.hasPrefix("HealthKit as of 19 Jul 2019 17:36 +00:00\n"), "\(summary)")
        #expect(summary.contains("HealthKit: Apple Health export as of 19 Jul 2019 17:36 +00:00 (apple-health-export), "
            + "with no resting or heart-rate records."))
        #expect(rows().isEmpty)
    }

    @Test func aTrimmedExportSaysWhatItWasTakenAsOf() {
        let imported = rhr.run(["import", InProcessRHR.sample("odd-exports/trimmed-export.xml")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("; no <ExportDate>: taken as of the latest end date in the file, "
            + "2024-05-03T21:15:00+02:00\n"), "\(imported.stdout)")
        #expect(rows() == [
            "2024-05-02,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,56,1,true,false,0,0,apple-watch",
            "2024-05-03,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,59,1,true,false,0,0,apple-watch",
        ])
    }

    @Test func aTrimmedExportReadLaterSpeaksOnlyForItsOwnSpan() throws {
        #expect(rhr.run(["import", InProcessRHR.sample("apple-health/export-1.xml")]).status == 0)
        let before = rows(["--to", "2026-03-13"])
        #expect(before.count == 40)
        // Cut down to two days after the export above, and newer than it: it says nothing of what came before.
        let trimmed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2026-03-16 00:00:00 +0100" endDate="2026-03-16 23:40:00 +0100" value="56"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2026-03-17 00:00:00 +0100" endDate="2026-03-17 20:50:00 +0100" value="60"/>
            </HealthData>

            """
        let path = try rhr.sandbox.write("trimmed.xml", trimmed)
        let imported = rhr.run(["import", path])
        #expect(imported.stdout.contains("2 added, 0 replaced, 0 deleted"), "\(imported.stdout)")
        #expect(rows(["--to", "2026-03-13"]) == before)
        #expect(rows(["--from", "2026-03-16"]).count == 2)
    }

    @Test func anIOS9ExportImportsItsHeartRate() {
        let imported = rhr.run(["import", InProcessRHR.sample("odd-exports/ios9-export.xml")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = rhr.run(["summary"]).stdout
        // 17:19 +01:00 on the phone, in the machine's clock (UTC here).
        #expect(summary.hasPrefix("HealthKit as of 7 Nov 2015 16:19 +00:00\n"), "\(summary)")
        #expect(summary.contains("holds 4 heart-rate samples from Jane’s Apple Watch and Polar H7 and no resting heart rate. "
                                 + "HealthKit's own resting heart rate is an estimate only an Apple Watch writes"))
    }

    @Test func unwrappedHealthAutoExportWithACombinedWriterAndAPossibleWatch() {
        let imported = rhr.run(["import", InProcessRHR.sample("odd-exports/hae-unwrapped.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        // The combined writer is a writer of its own; the point without a source is the one watch the file names
        // (docs/design.md section 2): the file was read as of 3 Jan, so the watch's 2 and 3 Jan are provisional (R3).
        #expect(rows() == [
            "2024-01-02,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,56,1,true,false,0,0,apple-watch",
            "2024-01-02,healthkit,Jane’s Apple Watch + Oura (combined),Jane’s Apple Watch + Oura (combined),latest,55,1,true,false,0,0,combined",
            "2024-01-03,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,57,1,true,false,0,0,apple-watch",
        ])
    }

    @Test func implausibleDatesAreCountedInTheExportAndFlaggedInTheSummary() throws {
        let batch = #"{"store":"healthkit","stream":"iphone","asOf":"2026-03-14T08:00:00+01:00","cursor":{"previous":null,"next":"a1"},"fullResync":false,"upserted":["#
            + #"{"type":"restingHeartRate","uuid":"A","start":"2026-03-13T00:05:00+01:00","end":"2026-03-13T23:40:00+01:00","value":57,"unit":"count/min","source":{"name":"Withings"}},"#
            + #"{"type":"restingHeartRate","uuid":"B","start":"2026-03-13T00:05:00+01:00","end":"2026-03-16T23:40:00+01:00","value":40,"unit":"count/min","source":{"name":"Withings"}},"#
            + #"{"type":"restingHeartRate","uuid":"C","start":"2026-03-19T00:05:00+01:00","end":"2026-03-19T06:00:00+01:00","value":41,"unit":"count/min","source":{"name":"Withings"}}"#
            + #"],"deleted":[]}"# + "\n"
        let path = try rhr.sandbox.write("odd.jsonl", batch)
        #expect(rhr.run(["import", path]).status == 0)
        #expect(rows(["--aggregate", "mean"]) == [
            "2026-03-13,healthkit,Withings,Withings,mean,57.0,1,false,false,0,0,withings",
            "2026-03-14,healthkit,Withings,Withings,mean,,0,false,false,0,1,withings",
            "2026-03-19,healthkit,Withings,Withings,mean,,0,false,false,0,1,withings",
        ])
        let json = rhr.run(["export", "--format", "json"]).stdout
        #expect(json.split(separator: "\n").filter { $0.contains("implausible_date") }
                    == [#"    "implausible_date": 0,"#, #"    "implausible_date": 1,"#, #"    "implausible_date": 1,"#], "\(json)")
        let summary = rhr.run(["summary"]).stdout
        #expect(summary.contains("2026-03-19  – d"), "\(summary)")
        #expect(summary.contains("d implausible date (kept, not in the value)"))
    }

    @Test func oneWatchOverThreeRoadsShowsTheBridgesChainInTheSummary() {
        for file in ["apple-health/export-2.xml", "health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json",
                     "bridge/watch-draft-replaced.jsonl"] {
            #expect(rhr.run(["import", InProcessRHR.sample(file)]).status == 0)
        }
        let summary = rhr.run(["summary", "--aggregate", "mean"]).stdout
        // When each road read the value, in the machine's clock (UTC here; the roads wrote +01:00).
        #expect(summary.contains("""
              2026-03-14 HK Jane’s Apple Watch: draft 61 → 59 (watch-draft-replaced.jsonl, 14 Mar 11:15 +00:00)
              2026-03-14 HK Jane’s Apple Watch: draft 59 → 58 (watch-draft-replaced.jsonl, 14 Mar 22:58 +00:00)
              2026-03-14 HK Jane’s Apple Watch: draft 58 → 57 (watch-draft-replaced.jsonl, 15 Mar 06:35 +00:00)
              2026-03-14 HK Jane’s Apple Watch: draft 57 → 58 (Apple Health export, 17 Mar 20:10 +00:00)
            """), "\(summary)")
        // One value a day, the export's, final: never the mean of a draft and its replacement.
        #expect(summary.contains("2026-03-14  58.0 "), "\(summary)")
        #expect(!summary.contains("→ 58 (watch-draft-replaced.jsonl, 15 Mar") && !summary.contains("58 → 58"))
    }
}
