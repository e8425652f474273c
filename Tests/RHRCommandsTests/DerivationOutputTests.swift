import Foundation
@testable import RHRCommands
import RHRCore
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing

/// R15 in plain output (docs/design.md sections 5 and 9): `rhr export` names each row's derivation by its registry id
/// (the CSV's last column, the JSON's `derivation` key), and `rhr summary`'s writer lines say where each number comes
/// from and what it is, with Health Connect's own priority where an export gave one.
@Suite("Derivations in rhr export and rhr summary")
struct DerivationOutputTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    static let t = ts("2026-03-10T07:00:00+01:00")
    static let watch = Writer(store: .healthKit, name: "Jane’s Watch")
    static let withings = Writer(store: .healthKit, name: "Withings")
    static let scale = Writer(store: .healthConnect, name: "com.withings.wiscale2", appName: "Health Mate")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    static let log = Writer(store: .healthConnect, name: "com.example.log")

    /// A renamed watch the export's device records mark (R3), Withings in HealthKit, and in Health Connect a Withings
    /// scale's weigh-in (device type 3), Oura and an app without an entry; Health Connect's priority for vitals puts
    /// the log first.
    func store() throws -> HealthDatabase {
        try FileManager.default.createDirectory(atPath: PathText.parent(rhr.sandbox.storePath), withIntermediateDirectories: true)
        let database = try HealthDatabase(path: rhr.sandbox.storePath, machineZone: utc)
        let t = Self.t
        let healthKit = [Self.watch, Self.withings].map {
            RestingSample(store: .healthKit, writer: $0, start: t.date, end: t.date, offsetSeconds: 3600, value: 60)
        }
        let healthConnect = [(Self.scale, Device(manufacturer: "Withings", model: "Body+", type: 3)), (Self.oura, nil),
                             (Self.log, nil)].enumerated().map { i, w in
            RestingSample.healthConnect(id: String(format: "%032x", i + 1), writer: w.0, time: t.date, zoneOffset: 3600,
                                        beatsPerMinute: 55, device: w.1, lastModified: t.date)
        }
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: t, snapshot: .init(from: nil, to: t),
                      resting: healthKit, watchWriters: [Self.watch.name]),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: t, snapshot: .init(), resting: healthConnect,
                      appPriority: ["com.example.log", "com.ouraring.oura"]),
        ])
        return database
    }

    @Test func theExportNamesEachRowsDerivation() throws {
        _ = try store()
        let csv = rhr.run(["export"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout == """
            date,store,writer,writer_name,aggregate,bpm,samples,provisional,offset_assumed,out_of_range,implausible_date,derivation
            2026-03-10,healthconnect,com.example.log,com.example.log,latest,55,1,false,false,0,0,unknown-healthconnect
            2026-03-10,healthconnect,com.ouraring.oura,Oura,latest,55,1,false,false,0,0,oura
            2026-03-10,healthconnect,com.withings.wiscale2,Health Mate,latest,55,1,false,false,0,0,withings-scale
            2026-03-10,healthkit,Jane’s Watch,Jane’s Watch,latest,60,1,true,false,0,0,apple-watch
            2026-03-10,healthkit,Withings,Withings,latest,60,1,false,false,0,0,withings

            """)
        let json = rhr.run(["export", "--format", "json"])
        let rows = try #require(try JSONParser.parse(json.stdout).array)
        #expect(rows.map { $0["derivation"]?.string }
            == ["unknown-healthconnect", "oura", "withings-scale", "apple-watch", "withings"])
        #expect(rows.first?.object?.keys == ["date", "store", "writer", "writer_name", "aggregate", "bpm", "samples",
                                             "provisional", "offset_assumed", "out_of_range", "implausible_date", "derivation"])
    }

    @Test func theSummarySaysWhereEachNumberComesFromAndWhatItIs() throws {
        let database = try store()
        let text = try SummaryCommand.report(store: database, aggregation: .latest, days: 14, today: day("2026-03-10"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("HC com.example.log:") })
        #expect(Array(lines[first..<(first + 6)]) == [
            "HC com.example.log: written by com.example.log (Health Connect); derivation not documented (unknown-healthconnect)",
            "HC Oura: written by Oura (com.ouraring.oura) (Health Connect); lowest 10-minute night average, as Oura Help, "
                + "“What Is Resting Heart Rate?” says (oura)",
            "HC Health Mate: written by Health Mate (com.withings.wiscale2) (Health Connect); spot check on the scale, as "
                + "Withings blog (20 March 2013), “Why is it important to monitor your resting heart rate?” says (withings-scale)",
            "HK Jane’s Watch: HealthKit estimate by Jane’s Watch; all-day rest estimate, as Apple Developer Documentation, "
                + "“restingHeartRate” says (apple-watch)",
            "HK Withings: written by Withings into HealthKit; not documented by Withings (withings)",
            "Health Connect’s own priority for vitals (set on the phone): 1 com.example.log, 2 Oura; rhr shows each writer apart.",
        ])
        #expect(!text.contains("HealthKit estimate by Withings"))
    }
}
