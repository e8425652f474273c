import Foundation
@testable import RHRCommands
import RHRCore
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing

/// What `rhr export` writes in its cells: the writer's display name beside its package, and no cell a
/// spreadsheet would run as a formula (docs/design.md section 5).
@Suite("rhr export: names and cells a spreadsheet can open safely")
struct ExportCellTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    /// One resting value a writer, on 10 Mar 2026, through the store.
    func store(_ writers: [Writer]) throws {
        try FileManager.default.createDirectory(atPath: PathText.parent(rhr.sandbox.storePath), withIntermediateDirectories: true)
        let database = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let t = ts("2026-03-10T07:00:00+01:00")
        var healthKit: [RestingSample] = [], healthConnect: [RestingSample] = []
        for (i, w) in writers.enumerated() {
            if w.store == .healthKit {
                healthKit.append(RestingSample(store: .healthKit, writer: w, start: t.date, end: t.date, offsetSeconds: 3600, value: 60))
            } else {
                healthConnect.append(.healthConnect(id: String(format: "%032x", i + 1), writer: w, time: t.date, zoneOffset: 3600,
                                                    beatsPerMinute: 55, lastModified: t.date))
            }
        }
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: t, snapshot: .init(from: nil, to: t), resting: healthKit),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: t, snapshot: .init(), resting: healthConnect),
        ])
    }

    @Test("CSV and JSON name the Health Connect app beside its package; a HealthKit writer's name is its own")
    func displayNameBesidePackage() throws {
        try store([Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura"),
                   Writer(store: .healthConnect, name: "com.example.noname"),
                   Writer(store: .healthKit, name: "Withings")])
        let csv = rhr.run(["export"])
        #expect(csv.stdout == """
            date,store,writer,writer_name,aggregate,bpm,samples,provisional,offset_assumed,out_of_range,implausible_date,derivation
            2026-03-10,healthconnect,com.example.noname,com.example.noname,latest,55,1,false,false,0,0,unknown-healthconnect
            2026-03-10,healthconnect,com.ouraring.oura,Oura,latest,55,1,false,false,0,0,oura
            2026-03-10,healthkit,Withings,Withings,latest,60,1,false,false,0,0,withings

            """)
        let json = rhr.run(["export", "--format", "json"])
        let rows = try #require(try JSONParser.parse(json.stdout).array)
        #expect(rows.map { $0["writer_name"]?.string } == ["com.example.noname", "Oura", "Withings"])
        #expect(rows.first?.object?.keys == ["date", "store", "writer", "writer_name", "aggregate", "bpm", "samples",
                                             "provisional", "offset_assumed", "out_of_range", "implausible_date", "derivation"])
    }

    @Test("a name a spreadsheet would run as a formula is quoted with a leading ' ; a plain number stays a number")
    func formulaCells() throws {
        let names = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "-5", "-5.5",
                     "Plain, with comma"]
        try store(names.map { Writer(store: .healthKit, name: $0) })
        let csv = rhr.run(["export"])
        #expect(csv.status == 0)
        let cells = csv.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().filter { !$0.isEmpty }
            .map { line in String(line.dropFirst("2026-03-10,healthkit,".count)) }
        #expect(Set(cells) == [
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",latest,60,1,false,false,0,0,unknown-healthkit",
            "\"'+1+1\",\"'+1+1\",latest,60,1,false,false,0,0,unknown-healthkit",
            "\"'-2+3\",\"'-2+3\",latest,60,1,false,false,0,0,unknown-healthkit",
            "\"'@SUM(A1)\",\"'@SUM(A1)\",latest,60,1,false,false,0,0,unknown-healthkit",
            "-5,-5,latest,60,1,false,false,0,0,unknown-healthkit",
            "-5.5,-5.5,latest,60,1,false,false,0,0,unknown-healthkit",
            "\"Plain, with comma\",\"Plain, with comma\",latest,60,1,false,false,0,0,unknown-healthkit",
        ])
        // JSON is not a spreadsheet: its strings are the names as they are.
        let rows = try #require(try JSONParser.parse(rhr.run(["export", "--format", "json"]).stdout).array)
        #expect(Set(rows.compactMap { $0["writer"]?.string }) == Set(names))
    }

    /// A writer's name with a control character never reaches the store (R14 passes its record over), but the cell
    /// rule holds for any text: a cell starting with a tab or a carriage return is made inert as well.
    @Test("a cell starting with a tab or a carriage return gets the leading ' too")
    func tabAndReturnCells() {
        #expect(ExportCommand.csvField("\tTab") == "\"'\tTab\"")
        #expect(ExportCommand.csvField("\rReturn") == "\"'\rReturn\"")
        #expect(ExportCommand.csvField("Tab\tinside") == "Tab\tinside")
    }
}
