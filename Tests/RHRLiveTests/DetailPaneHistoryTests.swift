import Foundation
import RHRCore
import RHRDashboard
import RHRFormats
import RHRLive
import RHRScreen
import RHRTestSupport
import Testing

/// The dashboard as the store gives it after one watch reached rhr by three roads (R12), and with an implausibly
/// dated sample (R13): the detail pane's revision chain, the superseded copies marked, the chart's range.
@Suite("Detail pane over several roads")
struct DetailPaneHistoryTests {
    func dashboard(_ files: [String], today: LocalDay) throws -> DashboardState {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        for file in files {
            _ = try store.apply(try FileImporter.read(path: SourceTree.samples + "/" + file, options: ImportOptions(machineZone: utc)).batches)
        }
        let data = try DashboardLoader.load(store, source: "test")
        return DashboardState(data: data, size: TerminalSize(width: 160, height: 60), today: today)
    }

    func screen(_ state: DashboardState) -> String {
        var buffer = ScreenBuffer(size: state.size, fill: " ")
        DashboardRenderer.render(state, into: &buffer)
        return buffer.lines.joined(separator: "\n")
    }

    @Test func theDetailPaneShowsTheBridgesChainAndWhichRoadDecides() throws {
        var state = try dashboard(["apple-health/export-2.xml", "health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json",
                                   "bridge/watch-draft-replaced.jsonl"], today: day("2026-03-17"))
        #expect(state.cursor == day("2026-03-17"))
        for _ in 0..<3 { _ = DashboardUpdate.update(&state, .key(.left)) }
        #expect(state.cursor == day("2026-03-14"))
        let top = screen(state)
        // The bridge's and Health Auto Export's copies are listed, marked as standing aside for the export.
        #expect(top.contains("superseded: apple-health-export as of 17 Mar 20:10 +00:00 decides this day (bridge-iphone)"), "\(top)")
        // The history is under the samples and the followed writer's derivation: the detail pane scrolled to its end.
        for key in [Key.tab, .tab] + Array(repeating: Key.down, count: 40) { _ = DashboardUpdate.update(&state, .key(key)) }
        let text = screen(state)
        // When each road read the value, in the machine's clock (UTC here; the roads wrote +01:00).
        for line in ["Jane’s Apple Watch: draft 61 → 59 (watch-draft-replaced.jsonl, 14 Mar 11:15 +00:00)",
                     "Jane’s Apple Watch: draft 59 → 58 (watch-draft-replaced.jsonl, 14 Mar 22:58 +00:00)",
                     "Jane’s Apple Watch: draft 58 → 57 (watch-draft-replaced.jsonl, 15 Mar 06:35 +00:00)",
                     "Jane’s Apple Watch: draft 57 → 58 (Apple Health export, 17 Mar 20:10 +00:00)"] {
            #expect(text.contains(line), "\(line)")
        }
        #expect(!text.contains("58 → 58"))
    }

    /// R12, *snapshots of one instant*: two Health Auto Export files of the same range hold 65 and 64 for the last day;
    /// the one made later decides, and the detail pane shows the other's value, naming both files.
    @Test func theDetailPaneNamesTheFileOfOneInstantThatLost() throws {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        for (i, last) in [65.0, 64].enumerated().reversed() {
            let points = (27...30).map { PhonePayloads.Point(String(format: "2023-06-%02d 00:00:00 +0200", $0), $0 == 30 ? last : 60) }
            let path = try dir.write("HealthAutoExport-\(i == 0 ? "A" : "B").json", PhonePayloads.healthAutoExport(resting: points))
            try FileManager.default.setAttributes([.modificationDate: date("2023-06-30T18:00:00Z").addingTimeInterval(60 * Double(i))],
                                                  ofItemAtPath: path)
            _ = try store.apply(try FileImporter.read(path: path, options: ImportOptions(machineZone: utc)).batches)
        }
        var state = DashboardState(data: try DashboardLoader.load(store, source: "test"), size: TerminalSize(width: 160, height: 60),
                                   today: day("2023-06-30"))
        #expect(state.cursor == day("2023-06-30"))
        for key in [Key.tab, .tab] + Array(repeating: Key.down, count: 40) { _ = DashboardUpdate.update(&state, .key(key)) }
        let text = screen(state)
        #expect(text.contains("Jane’s Apple Watch: draft 65 → 64 (HealthAutoExport-B.json, made after"), "\(text)")
        #expect(text.contains("HealthAutoExport-A.json, 30 Jun 18:01 +00:00)"), "\(text)")
    }

    /// R13: an export whose own date is 2099 is dated by when it was read; its value dated 2098 is kept, flagged, and
    /// never sets the chart's range.
    @Test func anExportFrom2099SetsNoChartRange() throws {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        store.clock = { date("2026-12-05T20:00:00Z") }
        let watch = Writer(store: .healthKit, name: "Withings")
        func sample(_ day: String, _ value: Double) -> RestingSample {
            RestingSample(store: .healthKit, writer: watch, start: date("\(day)T07:00:00Z"), end: date("\(day)T07:00:00Z"),
                          offsetSeconds: 0, value: value)
        }
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: ts("2099-01-01T09:00:00+01:00"),
                                      snapshot: .init(to: ts("2099-01-01T09:00:00+01:00")),
                                      resting: [sample("2026-12-04", 61), sample("2098-12-30", 40)]))
        let data = try DashboardLoader.load(store, source: "test")
        let index = DashboardIndex(data)
        #expect(index.firstDay == day("2026-12-04") && index.lastDay == day("2026-12-04"))
        let state = DashboardState(data: data, size: TerminalSize(width: 160, height: 60), today: day("2026-12-05"))
        let text = screen(state)
        #expect(text.contains("HealthKit as of 5 Dec 20:00 +00:00") && !text.contains("2099") && !text.contains("2098"), "\(text)")
    }

    @Test func anImplausiblyDatedSampleIsShownButKeptOutOfTheChartsRange() throws {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        let watch = Writer(store: .healthKit, name: "Withings")
        func sample(_ start: String, _ end: String, _ value: Double, _ uuid: String) -> RestingSample {
            RestingSample(store: .healthKit, uuid: uuid, writer: watch, start: date(start), end: date(end), offsetSeconds: 0, value: value)
        }
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-03-14T08:00:00+00:00"), resting: [
            sample("0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z", 50, "OLD"),
            sample("2026-03-12T00:00:00Z", "2026-03-12T20:00:00Z", 57, "A"),
            sample("2026-03-13T00:00:00Z", "2026-03-13T20:00:00Z", 58, "B"),
        ]))
        let index = DashboardIndex(try DashboardLoader.load(store, source: "test"))
        #expect(index.firstDay == day("2026-03-12") && index.lastDay == day("2026-03-13"))
        #expect(index.samples(on: day("0001-01-01")).map(\.implausibleDate) == [true])
    }
}
