import Foundation
@testable import RHRCommands
import RHRCore
import RHRDaemon
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing

/// Each command in this process on a real store in a private directory, with the files in `Samples/`.
@Suite("rhr commands in process, on a real store")
struct CommandsOnAStoreTests {
    let rhr: InProcessRHR

    init() throws { rhr = try InProcessRHR() }

    static let batches = ["batches/healthkit-iphone.jsonl", "batches/healthconnect-pixel.jsonl"].map(InProcessRHR.sample)

    func importBatches() throws {
        let result = rhr.run(["import"] + Self.batches)
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// The rows of `rhr export --format json ARGS`, as JSON objects.
    func exportedRows(_ arguments: [String] = [], in rhr: InProcessRHR? = nil) throws -> [JSONValue] {
        let export = (rhr ?? self.rhr).run(["export", "--format", "json"] + arguments)
        try #require(export.status == 0, "\(export.stderr)")
        return try #require(try JSONParser.parse(export.stdout).array)
    }

    @Test func importPrintsOneLinePerFileWithItsKindAndNothingElse() throws {
        let files = Self.batches + ["apple-health/export.zip", "health-connect/Health Connect.zip"].map(InProcessRHR.sample)
        let result = rhr.run(["import"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no progress bar off a terminal")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let kinds = ["sync batches (JSON lines)", "sync batches (JSON lines)", "Apple Health export (zip)",
                     "Health Connect export (zip)"]
        #expect(lines.count == files.count)
        for (line, (file, kind)) in zip(lines, zip(files, kinds)) {
            #expect(line.hasPrefix("\(file): \(kind): "), "\(line)")
        }
        // What the lines counted is in the store.
        let stored = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc).streams().map(\.stream)
        #expect(Set(stored) == ["iphone", "pixel", "apple-health-export", "health-connect-export"])
    }

    @Test func aProgressBarIsDrawnOnlyWhereStderrIsATerminalAndClearedBeforeTheResult() {
        let plain = rhr.run(["import", Self.batches[0]])
        #expect(plain.status == 0 && plain.stderr.isEmpty)
        let drawn = rhr.run(["import", Self.batches[1]], stderrIsTerminal: true)
        #expect(drawn.status == 0)
        #expect(drawn.stderr.hasPrefix("\r\u{1B}[Khealthconnect-pixel.jsonl ["), "\(drawn.stderr)")
        #expect(drawn.stderr.contains("] 100%  "), "the whole file was read")
        #expect(drawn.stderr.hasSuffix("\r\u{1B}[K"), "the bar is cleared before the result line")
        #expect(drawn.stdout.hasPrefix(Self.batches[1] + ": "))
    }

    @Test func bothExportFormatsHoldTheSameRows() throws {
        try importBatches()
        let csv = rhr.run(["export", "--aggregate", "lowest"])
        #expect(csv.status == 0)
        let lines = csv.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == ExportCommand.header)
        let rows = try exportedRows(["--aggregate", "lowest"])
        #expect(rows.count == lines.count - 1)
        for (line, row) in zip(lines.dropFirst(), rows) {
            // Writers in these samples hold no comma, so the CSV splits plainly.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(fields[0] == row["date"]?.string && fields[1] == row["store"]?.string && fields[2] == row["writer"]?.string)
            #expect(fields[3] == row["writer_name"]?.string)
            #expect(fields[4] == "lowest" && row["aggregate"]?.string == "lowest")
            #expect(Double(fields[5]) == row["bpm"]?.double, "\(line)")
            #expect(fields[7] == String(row["provisional"]?.bool ?? false) && fields[8] == String(row["offset_assumed"]?.bool ?? false))
        }
    }

    @Test func daysWithoutAnOffsetFallInTheZoneThatTZNames() throws {
        // The Health Connect sample's record of 21 Mar 05:50 UTC has no offset (R5): its day is the machine's.
        for (zone, expected) in [("UTC", "2026-03-21"), ("America/Los_Angeles", "2026-03-20")] {
            let rhr = try InProcessRHR()
            #expect(rhr.run(["import", Self.batches[1]], environment: ["TZ": zone]).status == 0)
            let assumed = try exportedRows(in: rhr).filter { $0["offset_assumed"]?.bool == true }.compactMap { $0["date"]?.string }
            #expect(assumed == [expected], "TZ=\(zone)")
        }
    }

    @Test func bareRHROffATerminalPrintsTheSummary() throws {
        try importBatches()
        let summary = rhr.run(["summary"])
        #expect(summary.status == 0)
        #expect(rhr.run([]) == summary)
        // `rhr PATH`: a temporary store of that file alone; the default store is not made.
        let other = try InProcessRHR()
        let fileOnly = other.run([Self.batches[1]])
        #expect(fileOnly.status == 0, "\(fileOnly.stderr)")
        #expect(fileOnly.stdout.contains("HC Oura") && !fileOnly.stdout.contains("HK "))
        #expect(!FileManager.default.fileExists(atPath: other.sandbox.storePath))
    }

    @Test func theDemoShowsTheBundledSamplesOrThoseRHRSamplesNames() throws {
        let demo = rhr.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("HK Jane’s Apple Watch") && demo.stdout.contains("HC Oura"))
        let samples = try TemporaryDirectory()
        try samples.write("batches/watch.jsonl", try String(contentsOfFile: Self.batches[0], encoding: .utf8))
        let own = rhr.run(["demo"], environment: ["RHR_SAMPLES": samples.path])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout.contains("HK Jane’s Apple Watch") && !own.stdout.contains("HC "))
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath), "the demo keeps to a temporary store")
    }

    /// No daemon can serve the demo's temporary store: its help tells how to go live with a store of one's own, and it
    /// takes no socket to follow.
    @Test func theDemosHelpTellsHowToGoLiveWithARealStore() throws {
        let help = rhr.run(["demo", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("no daemon serves it"), "\(help.stdout)")
        #expect(help.stdout.contains("rhr import FILE") && help.stdout.contains("rhr daemon") && help.stdout.contains("then rhr"),
                "\(help.stdout)")
        #expect(!help.stdout.contains("--socket"), "\(help.stdout)")
        #expect(rhr.run(["help", "demo"]).stdout == help.stdout)
        let socket = rhr.run(["demo", "--socket", rhr.sandbox.home + "/rhr.sock"])
        #expect(socket.status == 2)
        #expect(socket.stderr.hasPrefix("rhr demo: unknown option --socket"), "\(socket.stderr)")
    }

    @Test func statusReportsTheStoreItsStreamsAndThatNoDaemonListens() throws {
        try importBatches()
        let status = rhr.run(["status"])
        #expect(status.status == 0)
        let store = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["store: \(rhr.sandbox.storePath)", "revision: \(try store.revision())"])
        for stream in try store.streams() {
            #expect(lines.contains { $0.hasPrefix("  \(stream.store.rawValue)/\(stream.stream): as of \(stream.asOf?.iso8601 ?? "never")") })
        }
        #expect(lines.last == "daemon: no daemon listening on \(rhr.sandbox.socketPath)")
    }

    /// R10: `rhr status` tells a feed's permission notes as `rhr summary` and the dashboard do, the changes token left
    /// unused past its lifetime too (`StreamState.permissionNotes`).
    @Test func statusAndSummaryTellTheSamePermissionNotes() throws {
        try importBatches()
        let store = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let today = LocalDay("2026-05-01")!   // the pixel feed last read on 21 Mar
        let status = try StatusCommand.storeReport(store, path: rhr.sandbox.storePath, today: today)
        let summary = try SummaryCommand.report(store: store, aggregation: .latest, days: 14, today: today)
        let notes = [
            "without READ_HEALTH_DATA_HISTORY, Health Connect reads reach only 30 days before the first grant",
            "without READ_HEALTH_DATA_IN_BACKGROUND, values arrive only while the bridge app is open",
            "last read 41 days ago; its changes token expires after 30 days unused, so the bridge may need a full resync",
        ]
        for note in notes {
            #expect(status.contains("\n    \(note)\n"), "\(status)")
            #expect(summary.contains("Health Connect (pixel): \(note)\n"), "\(summary)")
        }
    }

    /// R9 with R10: a Health Connect feed without READ_RESTING_HEART_RATE that brought heart rate only. `rhr status`
    /// and `rhr summary` both name the permission as the likely cause, and the summary's empty state prints the same
    /// permission notes as status.
    @Test func theRestingPermissionIsNamedAsTheLikelyCauseInStatusAndSummary() throws {
        let batch = #"""
            {"store":"healthconnect","stream":"pixel","asOf":"2026-03-21T08:10:00+01:00","cursor":{"previous":null,"next":"dG9r"},"fullResync":false,"grantedPermissions":["android.permission.health.READ_HEART_RATE"],"upserted":[{"type":"HeartRate","startTime":"2026-03-20T07:00:00Z","endTime":"2026-03-20T07:05:00Z","startZoneOffset":"+01:00","samples":[{"time":"2026-03-20T07:00:00Z","beatsPerMinute":61},{"time":"2026-03-20T07:01:00Z","beatsPerMinute":63}],"metadata":{"id":"hr-1","dataOrigin":{"packageName":"com.ouraring.oura","appName":"Oura"},"lastModifiedTime":"2026-03-20T07:05:00Z"}}],"deleted":[]}
            """#
        let file = try rhr.sandbox.write("hidden.jsonl", batch + "\n")
        let imported = rhr.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let store = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let today = LocalDay("2026-03-21")!
        let status = try StatusCommand.storeReport(store, path: rhr.sandbox.storePath, today: today)
        let summary = try SummaryCommand.report(store: store, aggregation: .latest, days: 14, today: today)
        let cause = "Health Connect (pixel) did not have READ_RESTING_HEART_RATE"
        #expect(status.contains(cause), "\(status)")
        #expect(summary.contains("The likely cause: " + cause), "\(summary)")
        #expect(!summary.contains("none here did"))
        for note in ["without READ_RESTING_HEART_RATE, the bridge cannot read resting heart rate",
                     "without READ_HEALTH_DATA_HISTORY, Health Connect reads reach only 30 days before the first grant"] {
            #expect(status.contains("\n    \(note)\n"), "\(status)")
            #expect(summary.contains("Health Connect (pixel): \(note)\n"), "\(summary)")
        }
    }

    @Test func pushSendsEveryLineToTheDaemonInOrder() throws {
        let daemon = try TestDaemon()
        let pushed = rhr.run(["push", "--socket", daemon.socketPath, "--json", Self.batches[0]])
        #expect(pushed.status == 0 && pushed.stderr.isEmpty, "\(pushed.stderr)")
        let replies = try pushed.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(replies.map { $0["ok"]?.bool } == [true, true, true])
        #expect(replies.map { $0["id"]?.int64 } == [1, 2, 3], "each reply carries its line number")
        let revision = try daemon.client().request(.status)["revision"]?.int64
        #expect(replies.last?["revision"]?.int64 == revision)

        // A line that is not JSON is named with its line; the lines after it still go.
        let lines = try String(contentsOfFile: Self.batches[0], encoding: .utf8).split(separator: "\n")
        let bad = try rhr.sandbox.write("bad.jsonl", "{\"store\":\n" + lines.joined(separator: "\n") + "\n")
        let mixed = rhr.run(["push", "--socket", daemon.socketPath, bad])
        #expect(mixed.status == 1)
        #expect(mixed.stderr == "rhr push: \(bad): line 1, column 10, store: bad_json: expected a value, found the end of the input\n",
                "\(mixed.stderr)")
        #expect(mixed.stdout == (2...4).map { "\(bad): line \($0): ok: applied before; nothing changed (revision \(revision ?? -1))\n" }.joined())
    }
}
