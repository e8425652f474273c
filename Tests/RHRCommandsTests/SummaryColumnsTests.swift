// rhr summary's table: a column for each writer with a value in the days it shows, none that is empty in every row.
import Foundation
@testable import RHRCommands
import RHRCore
import RHRStore
import RHRTestSupport
import Testing

@Suite("rhr summary: no column empty in every row")
struct SummaryColumnsTests {
    @Test("A writer with no value in the days shown has no column; a line names it with its last day")
    func noEmptyColumn() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-summary")
        let store = try HealthDatabase(path: dir.storePath, machineZone: utc)
        let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch"), old = Writer(store: .healthKit, name: "Withings")
        let last = day("2026-03-12")
        let asOf = Timestamp.parse("2026-03-12T21:00:00+00:00")!
        func sample(_ writer: Writer, _ d: LocalDay, _ bpm: Double) -> RestingSample {
            let start = Date(timeIntervalSince1970: d.startEpochSeconds + 180)
            return RestingSample(store: .healthKit, writer: writer, start: start, end: start.addingTimeInterval(80_000),
                                 offsetSeconds: 0, value: bpm, created: start.addingTimeInterval(80_600))
        }
        // The watch every day for 30 days; Withings only on days 40 to 30 before the last.
        let resting = (0..<30).map { sample(watch, last.adding(days: -$0), 58) } + (30..<40).map { sample(old, last.adding(days: -$0), 63) }
        _ = try store.apply([SyncBatch(store: .healthKit, stream: "export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                                       resting: resting, origin: "export")])
        let report = try SummaryCommand.report(store: store, aggregation: .latest, days: 14, today: last)
        let heading = try #require(report.split(separator: "\n").first { $0.hasPrefix("date") })
        #expect(heading.contains("HK Jane’s Apple Watch") && !heading.contains("Withings"), "\(report)")
        #expect(report.contains("No value in these days: HK Withings (last 2026-02-10)"), "\(report)")
    }

    /// R13: implausible dates never set a range. Values dated 2098 (an export whose clock was wrong) are kept and shown
    /// flagged, a few days of them, the others named; but the header's range is of the days plausibly dated, as the
    /// dashboard's header's is.
    @Test("Days of implausibly dated values only set no range")
    func implausibleDaysSetNoRange() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-summary")
        let store = try HealthDatabase(path: dir.storePath, machineZone: utc)
        let withings = Writer(store: .healthKit, name: "Withings")
        let asOf = Timestamp.parse("2026-03-12T21:00:00+00:00")!
        func sample(_ d: LocalDay, _ bpm: Double) -> RestingSample {
            let start = Date(timeIntervalSince1970: d.startEpochSeconds + 25_200)
            return RestingSample(store: .healthKit, writer: withings, start: start, end: start, offsetSeconds: 0, value: bpm)
        }
        _ = try store.apply([SyncBatch(store: .healthKit, stream: "export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                                       resting: [sample(day("2026-03-11"), 61), sample(day("2026-03-12"), 60)]
                                                 + (24...30).map { sample(day("2098-12-\($0)"), 40) }, origin: "export")])
        let report = try SummaryCommand.report(store: store, aggregation: .latest, days: 14, today: day("2026-03-12"))
        #expect(report.contains("one value per day: latest · 2026-03-11 … 2026-03-12\n"), "\(report)")
        #expect((24...28).allSatisfy { report.contains("2098-12-\($0)  – d\n") }, "\(report)")
        #expect(report.contains("Kept, not shown: values of implausible dates only (R13) on 2098-12-29, 2098-12-30\n"), "\(report)")
    }
}
