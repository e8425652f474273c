import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// R14 in the store: duplicates folded in any order, passed-over records kept once per place, writers' spellings
/// kept, and a failure of SQLite worded by rhr.
@Suite("Store: duplicates, passed-over records, worded failures")
struct DuplicateAndPassedOverStoreTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test func oneWindowsValuesInEveryOrderEndInTheSameStore() throws {
        let samples = [hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 58),
                       hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 61),
                       hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 58),
                       hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 1.0, unit: "count/s")]
        var seen: Set<[String]> = []
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
            let store = try HealthDatabase(path: directory.file("o\(order.map(String.init).joined()).sqlite"), machineZone: utc)
            let batch = live("2026-11-28T08:00:00+01:00", previous: nil, next: "a", order.map { samples[$0] })
            let outcome = try store.apply(batch)
            #expect(outcome.added == 3)
            seen.insert(try store.samples().map { "\($0.sample.identity) \($0.sample.value) \($0.sample.unit)" })
        }
        #expect(seen.count == 1)
        #expect(seen.first?.count == 3)
    }

    @Test func aConstraintSQLiteRefusesIsWordedWithoutSQLitesOwnMessage() throws {
        let store = try HealthDatabase(path: directory.file("rhr.sqlite"), machineZone: utc)
        do {
            try store.db.statement("INSERT INTO meta(key, value) VALUES ('application', 'x')").run()
            Issue.record("the insert went through")
        } catch {
            #expect(!error.message.contains("UNIQUE") && !error.message.contains("constraint failed"), "\(error.message)")
            #expect(error.message.hasSuffix("cannot read or change the store: the store refused a change that would break "
                + "one of its own rules, so nothing of this import or request was applied; this is a bug in rhr, please report it"))
        }
    }

    @Test func passedOverRecordsAreKeptOncePerPlaceAndSpellingsBesideTheirWriter() throws {
        let store = try HealthDatabase(path: directory.file("rhr.sqlite"), machineZone: utc)
        var log = PassedOverLog(source: "export.xml")
        log.add(kind: "HeartRate without a value", reason: "a HeartRate record without value", place: InputPlace(byte: 10), raw: "<Record a=\"1\"/>")
        log.add(kind: "HeartRate without a value", reason: "a HeartRate record without value", place: InputPlace(byte: 99), raw: "<Record a=\"2\"/>")
        var batch = SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: ts("2026-11-28T08:00:00+01:00"),
                              snapshot: .init(), resting: [hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 58)],
                              passedOver: log, writerSpellings: [watch.name: ["Jane's Apple Watch"]])
        _ = try store.apply(batch)
        batch.asOf = ts("2026-11-29T08:00:00+01:00")
        _ = try store.apply(batch)
        #expect(try store.passedOverRecords().map(\.record.place) == ["byte 10", "byte 99"])
        #expect(try store.passedOver() == PassedOverSummary(total: 2, kinds: [
            .init(kind: "HeartRate without a value", count: 2, first: "export.xml, byte 10")]))
        #expect(try store.read { tx throws(StoreError) in try tx.writerSpellings() } == [watch.key: ["Jane's Apple Watch"]])
    }
}
