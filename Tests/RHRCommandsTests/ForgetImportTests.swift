import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// `rhr imports` and `rhr imports forget ID` as a person uses them (docs/design.md section 5): the list of what the
/// store remembers, taking a wrong file back, the words for an id that names nothing, the refusal to forget a live
/// feed's cursor history without `--force`, and a store from before rhr kept the list.
@Suite("rhr imports")
struct ForgetImportTests {
    static let jane = "Jane’s Apple Watch", bob = "Bob’s Apple Watch"
    typealias Value = SmallExports.Value

    /// Jane's export of 1–6 Mar, and Bob's of 3–8 Mar, a later export that, imported by mistake, hides her days.
    struct Files {
        let rhr: InProcessRHR
        let jane: String
        let bob: String

        init() throws {
            rhr = try InProcessRHR()
            jane = try rhr.sandbox.write("export.xml", SmallExports.apple(exportDate: "2026-03-06 22:00", (1...6).map {
                Value(ForgetImportTests.jane, "2026-03-0\($0)", 55 + $0 % 3, heartRate: true)
            }))
            bob = try rhr.sandbox.write("bobs-export.xml", SmallExports.apple(exportDate: "2026-03-08 22:00", (3...8).map {
                Value(ForgetImportTests.bob, "2026-03-0\($0)", 61 + $0 % 2, heartRate: true)
            }))
        }
    }

    @Test func anEmptyStoreHasNoImports() throws {
        let rhr = try InProcessRHR()
        let result = rhr.run(["imports"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no imports yet"))
    }

    @Test func importsListsEachFileWithWhatItBrought() throws {
        let files = try Files()
        #expect(files.rhr.run(["import", files.jane]).status == 0)
        #expect(files.rhr.run(["import", files.bob]).status == 0)
        let list = files.rhr.run(["imports"])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdout.split(separator: "\n").map(String.init)
        // Import 1 is Jane's file, 2 Bob's, each with its road, what it was read as and its counts.
        let first = try #require(lines.firstIndex { $0.hasPrefix("1  ") && $0.contains(files.jane) }, "\(list.stdout)")
        let second = try #require(lines.firstIndex { $0.hasPrefix("2  ") && $0.contains(files.bob) }, "\(list.stdout)")
        #expect(first < second)
        // "As of" in the machine's clock (the sandbox's is UTC), as everywhere a moment something was read is shown.
        #expect(lines[first + 1].contains("HealthKit apple-health-export: Apple Health export as of 6 Mar"))
        #expect(lines[first + 1].contains("21:00 +00:00"))
        #expect(lines[first + 1].contains("resting samples 6 added, 0 replaced, 0 deleted"))
        #expect(lines[first + 1].contains("6 heart-rate summaries"))
        #expect(lines[second + 1].contains("resting samples 6 added"))
        #expect(list.stdout.contains("rhr imports forget ID"))
    }

    @Test func forgettingAWrongFileGivesTheExportBackAndSaysWhatChanged() throws {
        let files = try Files()
        #expect(files.rhr.run(["import", files.jane]).status == 0)
        let before = files.rhr.run(["export"]).stdout
        let revisionsBefore = files.rhr.run(["summary"]).stdout
        #expect(files.rhr.run(["import", files.bob]).status == 0)
        #expect(files.rhr.run(["export"]).stdout != before)
        let forget = files.rhr.run(["imports", "forget", "2"])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(forget.stdout.contains("forgot import 2: \(files.bob)"), "\(forget.stdout)")
        // Bob's days went; Jane's 3–6 Mar, which his newer export had hidden, are back.
        #expect(forget.stdout.contains("2026-03-08  HealthKit  \(Self.bob): 61 → none"), "\(forget.stdout)")
        #expect(forget.stdout.contains("2026-03-04  HealthKit  \(Self.jane): none → 56"), "\(forget.stdout)")
        #expect(files.rhr.run(["export"]).stdout == before)
        #expect(files.rhr.run(["export", "--format", "json"]).stdout != "")
        #expect(revisionsBefore != "")
        // The history says Bob's values went with their import.
        let store = try #require(try HealthDatabase.reading(path: files.rhr.sandbox.storePath, machineZone: utc))
        let forgotten = try store.revisions().filter { $0.reason == .forgotten }
        #expect(forgotten.count == 6)
        #expect(forgotten.allSatisfy { $0.writer.name == Self.bob && $0.text(thisYear: 2026, zone: utc).contains("forgotten with import 2") })
        let list = files.rhr.run(["imports"]).stdout
        #expect(list.contains(files.jane) && !list.contains(files.bob))
    }

    @Test func anUnknownIDFailsWithClearWords() throws {
        let files = try Files()
        #expect(files.rhr.run(["import", files.jane]).status == 0)
        let unknown = files.rhr.run(["imports", "forget", "7"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "rhr imports: no import 7 in the store (rhr imports lists them); nothing was forgotten\n")
        let notANumber = files.rhr.run(["imports", "forget", "bob"])
        #expect(notANumber.status == 2)
        #expect(notANumber.stderr.contains("rhr imports: 'bob' is no import ID: a number rhr imports lists"))
        let noID = files.rhr.run(["imports", "forget"])
        #expect(noID.status == 2)
        let other = files.rhr.run(["imports", "remove", "1"])
        #expect(other.status == 2)
        #expect(files.rhr.run(["imports", "--force"]).status == 2)
        // Nothing was forgotten.
        #expect(files.rhr.exportRows().count == 6)
    }

    /// The same file imported twice is one road with two imports (R12): the second brought nothing, so it may be
    /// forgotten alone and nothing changes; the first may not, as the second still holds what it brought; both
    /// together take it all back.
    @Test func aFileImportedAgainSharesItsRoad() throws {
        let files = try Files()
        for _ in 0..<2 { #expect(files.rhr.run(["import", files.jane]).status == 0) }
        #expect(files.rhr.run(["imports"]).stdout.contains("one road with import 1 (the same file again, or one of the same instant)"))
        let export = files.rhr.run(["export"]).stdout
        let first = files.rhr.run(["imports", "forget", "1"])
        #expect(first.status == 1)
        #expect(first.stderr.contains("import 1 shares its road"), "\(first.stderr)")
        #expect(first.stderr.contains("rhr imports forget 1 2"), "\(first.stderr)")
        let again = files.rhr.run(["imports", "forget", "2"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("no day's value changed"), "\(again.stdout)")
        #expect(files.rhr.run(["export"]).stdout == export)
        #expect(files.rhr.run(["import", files.jane]).status == 0)
        let both = files.rhr.run(["imports", "forget", "1", "3"])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(files.rhr.exportRows().isEmpty)
        #expect(files.rhr.run(["imports"]).stdout.contains("no imports yet"))
    }

    @Test func noStoreHasNothingToForget() throws {
        let rhr = try InProcessRHR()
        let result = rhr.run(["imports", "forget", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no import 1 in the store"))
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    /// A phone's feed over the socket continues a cursor: forgetting it would leave the phone continuing from a cursor
    /// the store no longer knows. Refused without `--force`, saying why and what the phone must do; with it, the
    /// feed is gone and the phone's next batch is refused until it sends a full resync.
    @Test func aLiveFeedsCursorHistoryIsForgottenOnlyWithForce() throws {
        let daemon = try TestDaemon()
        let rhr = try InProcessRHR()
        let store = ["--store", daemon.directory.storePath]
        let first = try SyncBatchJSON.decode(try JSONParser.parse(Array(SmallExports.batch(
            stream: "iphone", asOf: "2026-03-06T22:00:00+01:00", [Value(Self.jane, "2026-03-05", 57)],
            cursor: (nil, "c1")).utf8)), machineZone: utc)
        var second = try SyncBatchJSON.decode(try JSONParser.parse(Array(SmallExports.batch(
            stream: "iphone", asOf: "2026-03-07T22:00:00+01:00", [Value(Self.jane, "2026-03-06", 58)],
            cursor: ("c1", "c2")).utf8)), machineZone: utc)
        try daemon.push(first)
        try daemon.push(second)
        let list = rhr.run(["imports"] + store)
        #expect(list.stdout.contains("1  feed healthkit/iphone"), "\(list.stdout)")
        #expect(list.stdout.contains("2 batches") && list.stdout.contains("cursor c2"), "\(list.stdout)")

        let refused = rhr.run(["imports", "forget", "1"] + store)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("import 1 is the live feed healthkit/iphone, whose batches continue a cursor (c2)"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("until it sends a full resync (fullResync: true)"))
        #expect(refused.stderr.contains("--force"))
        #expect(rhr.run(["export"] + store).stdout.split(separator: "\n").count == 3)

        let forced = rhr.run(["imports", "forget", "1", "--force"] + store)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("the phone's next batch continues from c2"), "\(forced.stdout)")
        #expect(rhr.run(["export"] + store).stdout.split(separator: "\n").count == 1)
        // The phone goes on from where it thinks it is: refused; a full resync is taken.
        second.cursor = .init(previous: "c2", next: "c3")
        let client = try daemon.client()
        defer { client.close() }
        #expect(try client.push(second).error?.code == .cursorMismatch)
        second.fullResync = true
        #expect(try client.push(second).isOK)
    }

    /// A store from before rhr kept the list: each road it holds is listed as an import made before, counts not kept;
    /// an export that may have replaced what an older one of its stream said is forgotten only with `--force`.
    @Test func importsMadeBeforeTheListAreListedAndForgettable() throws {
        let files = try Files()
        let older = try files.rhr.sandbox.write("older.xml", SmallExports.apple(exportDate: "2026-03-04 22:00", (1...4).map {
            Value(Self.jane, "2026-03-0\($0)", 70 + $0)
        }))
        for file in [older, files.jane] { #expect(files.rhr.run(["import", file]).status == 0) }
        try ForgetImportTests.forgetTheList(at: files.rhr.sandbox.storePath)
        let list = files.rhr.run(["imports"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("imported before rhr kept a list of imports"), "\(list.stdout)")
        #expect(list.stdout.contains("Apple Health export as of 6 Mar"), "\(list.stdout)")
        let ids = try HealthDatabase.reading(path: files.rhr.sandbox.storePath, machineZone: utc)!.deliveries()
        let newest = try #require(ids.first { $0.roads.first?.asOf == ts("2026-03-06T22:00:00+01:00") })
        let refused = files.rhr.run(["imports", "forget", "\(newest.id)"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("before rhr kept what each import replaced"), "\(refused.stderr)")
        let forced = files.rhr.run(["imports", "forget", "\(newest.id)", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        // What the older export alone says of 1–4 Mar stands again.
        #expect(files.rhr.exportRows().count == 4)
    }

    /// Takes a store back to schema 7, as an rhr before the list of imports left it.
    static func forgetTheList(at path: String) throws {
        try SQLiteFile.execute(SchemaRollback.deliveryTimes + SchemaRollback.deliveries + "PRAGMA user_version = 7;", at: path)
    }
}
