import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// A writer keeps its number (the dashboard's keys 1–9, glyph and colour) for the life of the store; a new writer
/// gets the next one, wherever its name sorts.
@Suite("Writer numbers")
struct WriterNumberTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static let appleWatch = Writer(store: .healthKit, name: "Apple Watch")
    static let iPhone = Writer(store: .healthKit, name: "iPhone")

    func numbers(_ store: HealthDatabase) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try store.read { tx throws(StoreError) in try tx.writerNumbers() }.map { ($0.key.name, $0.value) })
    }

    @Test("numbered in the order they first brought a resting value; a new one gets the next, though it sorts first")
    func newWritersGetTheNextNumber() throws {
        let store = try directory.store()
        _ = try store.apply(export("2026-03-12T21:00:00+01:00", [
            hk("2026-03-10T07:00:00+01:00", "2026-03-10T07:00:00+01:00", 61, writer: scale)]))
        _ = try store.apply(SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-03-12T09:00:00+01:00"),
                                      snapshot: .init(), resting: [hc("a1", "2026-03-10T06:00:00+01:00", offset: 3600, 54)]))
        #expect(try numbers(store) == ["Withings": 1, "com.ouraring.oura": 2])
        // Heart rate alone numbers no one: the dashboard draws resting writers only.
        var h = HeartRateDaySummary(writer: Self.iPhone, day: day("2026-03-11"))
        h.add(bpm: 70, context: .notSet)
        _ = try store.apply(live("2026-03-13T08:00:00+01:00", previous: nil, next: "c1", [
            hk("2026-03-12T00:03:00+01:00", "2026-03-12T23:50:00+01:00", 57, writer: Self.appleWatch)]))
        _ = try store.apply(SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-03-13T09:00:00+01:00"),
                                      cursor: .init(previous: "c1", next: "c2"), heartRate: [h], origin: "iphone"))
        #expect(try numbers(store) == ["Withings": 1, "com.ouraring.oura": 2, "Apple Watch": 3])
        // A newer export without Withings' day: its value is gone from the trend, its number stays its own.
        _ = try store.apply(export("2026-03-15T21:00:00+01:00", [
            hk("2026-03-15T07:00:00+01:00", "2026-03-15T07:00:00+01:00", 60, writer: watch)]))
        #expect(try store.days(aggregation: .latest).map(\.writer.name) == ["com.ouraring.oura", "Apple Watch", "Jane’s Apple Watch"])
        #expect(try numbers(store) == ["Withings": 1, "com.ouraring.oura": 2, "Apple Watch": 3, "Jane’s Apple Watch": 4])
    }

    @Test("one batch of several new writers numbers them by store and name, as the dashboard listed them")
    func oneBatchInTheListOrder() throws {
        let store = try directory.store()
        _ = try store.apply(export("2026-03-12T21:00:00+01:00", [
            hk("2026-03-10T07:00:00+01:00", "2026-03-10T07:00:00+01:00", 61, writer: scale),
            hk("2026-03-10T00:03:00+01:00", "2026-03-10T23:50:00+01:00", 57, writer: watch)]))
        #expect(try numbers(store) == ["Jane’s Apple Watch": 1, "Withings": 2])
    }

    @Test("a store of the schema before numbers gets them in the order the dashboard showed it (store, name)")
    func migratedStoreKeepsTodaysNumbers() throws {
        let path = directory.file("older.sqlite")
        do {
            let store = try HealthDatabase(path: path, machineZone: utc)
            _ = try store.apply(SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: ts("2026-03-12T09:00:00+01:00"),
                                          snapshot: .init(), resting: [hc("a1", "2026-03-10T06:00:00+01:00", offset: 3600, 54)]))
            var h = HeartRateDaySummary(writer: Self.iPhone, day: day("2026-03-11"))
            h.add(bpm: 70, context: .notSet)
            _ = try store.apply(export("2026-03-12T21:00:00+01:00", [
                hk("2026-03-10T07:00:00+01:00", "2026-03-10T07:00:00+01:00", 61, writer: scale),
                hk("2026-03-10T00:03:00+01:00", "2026-03-10T23:50:00+01:00", 57, writer: watch)], heartRate: [h]))
        }
        // As the schema before numbers left it: what the numbers' migration and the later ones made is taken away.
        let before = try #require(StoreSchema.migrations.firstIndex(of: StoreSchema.writerNumbers))
        try SQLiteFile.execute(SchemaRollback.deliveryTimes + SchemaRollback.deliveries + """
            DROP INDEX writer_by_number; ALTER TABLE writer DROP COLUMN ordinal;
            DROP TABLE passed_over; DROP TABLE writer_spelling;
            ALTER TABLE sample DROP COLUMN first_as_of; ALTER TABLE stream DROP COLUMN app_priority;
            ALTER TABLE stream DROP COLUMN app_priority_as_of;
            PRAGMA user_version = \(before)
            """, at: path)
        let store = try HealthDatabase(path: path, machineZone: utc)
        #expect(try numbers(store) == ["com.ouraring.oura": 1, "Jane’s Apple Watch": 2, "Withings": 3])
    }
}
