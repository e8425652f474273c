import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// Late writers (docs/design.md section 9): the store keeps when each road first received a resting copy
/// (`sample.first_as_of`, schema 7) beside when it last did (`as_of`), so a value that carries no writing time (a
/// Health Auto Export point) still says how late after its day it came.
@Suite("First received (late writers)")
struct FirstReceivedTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func request(_ asOf: String, _ resting: [RestingSample]) -> SyncBatch {
        SyncBatch(store: .healthKit, stream: "http-phone", asOf: ts(asOf), resting: resting,
                  origin: "Health Auto Export over HTTP", dayFeed: .replacesDays)
    }

    var point28: RestingSample { hk("2026-11-28 00:00:00 +0100", "2026-11-28 23:59:59 +0100", 57, writer: scale) }

    @Test func aCopyKeepsWhenItsRoadFirstReceivedIt() throws {
        let s = try dir.store()
        _ = try s.apply(request("2026-11-29T09:00:00+01:00", [point28]))
        _ = try s.apply(request("2026-11-29T21:00:00+01:00", [point28]))
        var changed = point28
        changed.value = 58
        _ = try s.apply(request("2026-11-30T08:00:00+01:00", [changed]))
        let sample = try #require(try s.samples().first)
        #expect(sample.sample.value == 58)
        #expect(sample.asOf == ts("2026-11-30T08:00:00+01:00"))
        #expect(sample.firstReceived == ts("2026-11-29T09:00:00+01:00"))
        let lateness = WriterLateness(writer: scale, values: try s.samples())
        #expect(lateness.clock == .received)
        #expect(lateness.lastDeliveredWords(thisYear: 2026) == "last received 29 Nov 09:00 +01:00, for 28 Nov")
    }

    /// Requests applied out of order (a file of them imported late): the earliest stays the first.
    @Test func anEarlierDeliveryAppliedLaterIsTheFirst() throws {
        let s = try dir.store()
        _ = try s.apply(request("2026-11-29T21:00:00+01:00", [point28]))
        _ = try s.apply(request("2026-11-29T09:00:00+01:00", [point28]))
        #expect(try s.samples().map(\.firstReceived) == [ts("2026-11-29T09:00:00+01:00")])
    }

    /// An export's copy is received when the export is read: a snapshot, whose date is not when the value came.
    @Test func anExportsCopyIsNoDelivery() throws {
        let s = try dir.store()
        _ = try s.apply(export("2026-11-30 10:00:00 +0100", [point28]))
        let sample = try #require(try s.samples().first)
        #expect(sample.firstReceived == ts("2026-11-30T10:00:00+01:00"))
        #expect(WriterLateness(writer: scale, values: try s.samples()).count == 0)
    }
}

/// Health Connect's own app priority for vitals (docs/design.md section 9), kept on the export's stream: the newest
/// export's that had one, in any import order.
@Suite("Health Connect app priority in the store")
struct AppPriorityStoreTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func export(_ asOf: String, priority: [String]?) -> SyncBatch {
        SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts(asOf), snapshot: .init(),
                  resting: [hc("a", "2026-11-28T06:00:00Z", offset: 3600, 52)], origin: "Health Connect export",
                  appPriority: priority)
    }

    @Test func theNewestExportsPriorityIsKeptWhateverTheOrder() throws {
        let older = export("2026-11-29T08:00:00+01:00", priority: ["com.ouraring.oura", "com.fitbit.FitbitMobile"])
        let newer = export("2026-11-30T08:00:00+01:00", priority: ["com.fitbit.FitbitMobile", "com.ouraring.oura"])
        let none = export("2026-12-01T08:00:00+01:00", priority: nil)
        for order in [[older, newer, none], [none, newer, older]] {
            let s = try dir.store("\(order.map { $0.asOf.localDay.day })")
            for batch in order { _ = try s.apply(batch) }
            let stream = try #require(try s.streams().first)
            #expect(stream.appPriority == AppPriority(packages: ["com.fitbit.FitbitMobile", "com.ouraring.oura"]))
        }
        // A store without one says nothing.
        let s = try dir.store("none")
        _ = try s.apply(none)
        #expect(try s.streams().first?.appPriority == nil)
    }
}

/// A store of the schema before marked Health Auto Export's unnamed writer as an Apple Watch: after the migration it
/// is none (its label and derivation are a writer not named, R11, R15), and R3 still counts its values as a possible
/// watch's by its name, so its last two days stay provisional (docs/design.md section 2).
@Suite("The unnamed Health Auto Export writer after the migration")
struct UnnamedWriterMigrationTests {
    @Test func itIsNoWatchButStillAPossibleOne() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("six.sqlite")
        let unnamed = Writer(store: .healthKit, name: "Health Auto Export")
        do {
            let store = try HealthDatabase(path: path, machineZone: utc)
            _ = try store.apply(export("2026-11-29 09:00:00 +0100", [hk("2026-11-28 00:00:00 +0100", "2026-11-28 23:59:59 +0100", 55,
                                                                       writer: unnamed)], watchWriters: [unnamed.name]))
            #expect(try store.days(aggregation: .latest).map(\.provisional) == [true])
        }
        // As schema 6 left it: without what migration 7 adds (nor the later ones).
        try SQLiteFile.execute(SchemaRollback.deliveryTimes + SchemaRollback.deliveries + """
            ALTER TABLE sample DROP COLUMN first_as_of; ALTER TABLE stream DROP COLUMN app_priority;
            ALTER TABLE stream DROP COLUMN app_priority_as_of; PRAGMA user_version = 6
            """, at: path)
        let store = try HealthDatabase(path: path, machineZone: utc)
        #expect(try store.days(aggregation: .latest).map(\.provisional) == [true])
        #expect(try store.writers().map(\.isAppleWatch) == [false])
    }
}
