import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// Text goes into SQLite with its byte length and comes back whole: a NUL inside a name, a uuid or a cursor is a
/// character like any other, never where the text ends (docs/design.md section 8). Names over the gate's bound
/// are kept cut, with their full length (`TextGate`). (The store reads' suite, its directory and path.)
extension StoreReadTests {
    @Test func textWithANulIsBoundWithItsLengthAndReadBackWhole() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let select = try store.db.statement("SELECT ? AS t, length(CAST(? AS BLOB)) AS bytes, ? = ? AS same")
        defer { select.reset() }
        select.bind(.text("X\u{0}A"), .text("X\u{0}A"), .text("X\u{0}A"), .text("X\u{0}B"))
        #expect(try select.step())
        #expect(select.text(try select.column("t")) == "X\u{0}A")
        #expect(select.int(try select.column("bytes")) == 3)
        #expect(select.int(try select.column("same")) == 0)
    }

    /// A NUL in a writer's name or a sample's uuid is refused with its place (R14 passes such a record over before
    /// it reaches the store), never cut there: "Tester\0Watch" and "Tester\0Phone" never become one "Tester", nor
    /// "X\0A" and "X\0B" one "X".
    @Test func aWriterNameWithANulIsRefusedWithItsPlaceNeverCut() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let watch = Writer(store: .healthKit, name: "Tester\u{0}Watch")
        #expect {
            _ = try store.apply(live("2026-11-27T23:59:00+01:00", previous: nil, next: "c1", [
                hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 55, writer: watch)]))
        } throws: { "\($0)" == "resting[0].writer: the name holds a NUL (U+0000) at character 7" }
        #expect(try store.samples().isEmpty)
        #expect(try store.writers().isEmpty)
    }

    @Test func aUuidOrADeletedIdWithANulIsRefusedWithItsPlaceNeverCut() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        #expect {
            _ = try store.apply(live("2026-11-28T23:59:00+01:00", previous: nil, next: "c1", [
                hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 55, uuid: "X\u{0}A")]))
        } throws: { "\($0)" == "resting[0].uuid: holds a NUL (U+0000) at character 2" }
        _ = try store.apply(live("2026-11-28T23:59:00+01:00", previous: nil, next: "c1", [
            hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 55, uuid: "X")]))
        #expect {
            _ = try store.apply(live("2026-11-29T08:00:00+01:00", previous: "c1", next: "c2", deleted: ["X\u{0}A"]))
        } throws: { "\($0)".hasPrefix("deleted[0]: ") }
        #expect(try store.samples().map(\.sample.uuid) == ["X"])
    }

    @Test func cursorsThatDifferOnlyAfterANulAreTwoCursors() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        _ = try store.apply(live("2026-11-27T23:59:00+01:00", previous: nil, next: "c\u{0}1",
                                 [hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 55, uuid: "u1")]))
        #expect(try store.streams().first?.cursor == "c\u{0}1")
        // Moving on from "c\0" + "1" to "c\0" + "2" is a new batch, not the one applied already.
        let outcome = try store.apply(live("2026-11-28T23:59:00+01:00", previous: "c\u{0}1", next: "c\u{0}2",
                                           [hk("2026-11-28T00:05:00+01:00", "2026-11-28T23:40:00+01:00", 57, uuid: "u2")]))
        #expect(outcome.duplicate == false)
        #expect(try store.samples().count == 2)
        #expect(try store.streams().first?.cursor == "c\u{0}2")
    }

    /// A name over the bound is kept cut at a character boundary, with the length it had, which reads back.
    @Test func aWriterNameOverTheBoundIsKeptCutWithItsFullLength() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let long = "Jane’s " + String(repeating: "é", count: 600_000)   // 7 + 2 + 1,200,000 bytes
        let writer = Writer(store: .healthKit, name: long)
        #expect(writer.name.utf8.count == 255, "cut before the last é that does not fit whole")
        #expect(writer.nameBytes == 1_200_009)
        _ = try store.apply(live("2026-11-27T23:59:00+01:00", previous: nil, next: "c1",
                                 [hk("2026-11-27T00:05:00+01:00", "2026-11-27T23:40:00+01:00", 55, writer: writer)]))
        let read = try #require(try store.samples().first?.sample.writer)
        #expect(read.name == writer.name && read.nameBytes == 1_200_009)
        #expect(try store.writers().first?.writer.nameBytes == 1_200_009)
        // A writer whose name fits has no full length of its own.
        #expect(Writer(store: .healthKit, name: "Withings").nameBytes == nil)
    }

    /// A watch named past the bound is still known as a watch (R3): the reader's list of watches names it whole,
    /// the store marks the writer the gate cut it to.
    @Test func aWatchNamedPastTheBoundKeepsItsProvisionalDays() throws {
        let store = try HealthDatabase(path: path, machineZone: utc)
        let long = "Jane’s " + String(repeating: "w", count: 400)
        let writer = Writer(store: .healthKit, name: long)
        _ = try store.apply(export("2026-11-28T21:00:00+01:00",
                                   [hk("2026-11-28T00:05:00+01:00", "2026-11-28T20:40:00+01:00", 55, writer: writer)],
                                   watchWriters: [long]))
        let sample = try #require(try store.samples().first)
        #expect(sample.sample.writer.name == writer.name && sample.provisional)
    }
}
