import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// R12, *snapshots of one instant*: Health Auto Export files carry no export time, so files made on one day with the
/// same range share their `asOf`. The one made later (its modification time, or its zip member's) decides a value they
/// hold differently, whatever order they are imported in; the value that lost stays in the history, naming both files.
@Suite("Files of one instant: the one made later decides (R12)")
struct SameInstantFilesTests {
    /// The watch's daily resting values from 20 to 30 June 2023 (60 + the day % 5), the 30th's being `last`.
    static func body(last: Double) -> [UInt8] {
        let points = (20...30).map { d in
            PhonePayloads.Point(String(format: "2023-06-%02d 00:00:00 +0200", d), d == 30 ? last : Double(60 + d % 5))
        }
        return PhonePayloads.healthAutoExport(resting: points)
    }

    /// Files named A, B, … holding `lasts` for the last day, made in that order (a minute apart, on 30 June 2023).
    static func files(_ lasts: [Double], in dir: TemporaryDirectory) throws -> [String] {
        try lasts.enumerated().map { i, last in
            let path = try dir.write("HealthAutoExport-\(Character(UnicodeScalar(65 + i)!)).json", body(last: last))
            try FileManager.default.setAttributes([.modificationDate: date("2023-06-30T18:00:00Z").addingTimeInterval(60 * Double(i))],
                                                  ofItemAtPath: path)
            return path
        }
    }

    /// The last day's value and the store's history, after the files were read once and applied in `order`.
    static func applied(_ imported: [ImportedFile], _ order: [Int]) throws -> (value: String, history: [String]) {
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        for i in order {
            let outcomes = try store.apply(imported[i].batches)
            // Every value of a file is accounted for, whatever became of it.
            #expect(outcomes.map(\.samples.accounted) == imported[i].batches.map(\.resting.count))
        }
        let value = try store.days(aggregation: .latest).last.map { "\($0.day) \($0.bpmText)" } ?? "none"
        return (value, try store.revisions().map { "\($0.day) \($0.text(thisYear: 2023))" })
    }

    /// The issue's case: six files made on one day with the same range hold 64 or 65 for the last day; the last made
    /// holds 64. In all 720 orders the store keeps 64 and the same history.
    @Test(arguments: [[65, 64, 65, 65, 64, 64] as [Double], [64, 65, 64, 64, 65, 65]])
    func theLastMadeOfSixFilesDecidesInEveryOrder(lasts: [Double]) throws {
        let dir = try TemporaryDirectory()
        let imported = try Self.files(lasts, in: dir).map { try FileImporter.read(path: $0, options: ImportOptions(machineZone: utc)) }
        #expect(imported.allSatisfy { $0.batches.first?.file?.madeAt != nil })
        let reference = try Self.applied(imported, Array(imported.indices))
        #expect(reference.value == "2023-06-30 \(Int(lasts.last!))")
        // Each file that held the other value is in the history, replaced by the last made's.
        let other = Int(lasts.last!) == 64 ? 65 : 64
        let losers = lasts.indices.filter { Int(lasts[$0]) == other }.map { "HealthAutoExport-\(Character(UnicodeScalar(65 + $0)!)).json" }
        #expect(reference.history.count == losers.count, "\(reference.history)")
        for loser in losers {
            #expect(reference.history.contains { $0.contains("draft \(other) → \(Int(lasts.last!)) (HealthAutoExport-F.json, made after \(loser), ") },
                    "\(reference.history)")
        }
        var checked = 0
        for order in ImportOrderTests.permutations(Array(imported.indices)) {
            let result = try Self.applied(imported, order)
            if result.value != reference.value || result.history != reference.history {
                Issue.record("order \(order): \(result) differs from \(reference)")
                return
            }
            checked += 1
        }
        #expect(checked == 720)
    }

    /// Two files through `rhr import`, in both orders: the later made decides, the import line says what became of the
    /// other's value, and the summary's history names both files.
    @Test(arguments: [false, true])
    func twoFilesByTheirTimeInBothOrders(laterFirst: Bool) throws {
        let rhr = try InProcessRHR()
        let dir = try TemporaryDirectory()
        let paths = try Self.files([65, 64], in: dir)
        let order = laterFirst ? paths.reversed() : paths
        let first = rhr.run(["import", order[0]])
        #expect(first.status == 0, "\(first.stderr)")
        let second = rhr.run(["import", order[1]])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(rhr.exportRows(["--from", "2023-06-30"]).first?.contains(",latest,64,") == true, "\(rhr.exportRows())")
        if laterFirst {
            // A, made earlier, comes second: its 65 is overruled; the other ten of its values are as the store has them.
            #expect(second.stdout.contains("resting samples 0 added, 0 replaced, 0 deleted, 10 unchanged, "
                                           + "1 overruled (a file of the same instant made later decides, R12)"), "\(second.stdout)")
        } else {
            #expect(second.stdout.contains("resting samples 0 added, 1 replaced, 0 deleted, 10 unchanged"), "\(second.stdout)")
        }
        let summary = rhr.run(["summary", "--days", "4000"]).stdout
        #expect(summary.contains("65 → 64 (HealthAutoExport-B.json, made after HealthAutoExport-A.json, 30 Jun 2023 18:01"), "\(summary)")
    }

    /// Files of one instant share a road, and the other file's version of a value (`tied_copy`) goes with it: the two
    /// forgotten together leave the store that had neither (R12, *deliveries, and forgetting one*).
    @Test func filesOfOneInstantAreForgottenTogetherWithTheirOtherVersions() throws {
        let rhr = try InProcessRHR()
        let dir = try TemporaryDirectory()
        let paths = try Self.files([65, 64], in: dir)
        for path in paths { #expect(rhr.run(["import", path]).status == 0) }
        #expect(rhr.run(["summary", "--days", "4000"]).stdout.contains("65 → 64"))
        let forgotten = rhr.run(["imports", "forget", "1", "2"])
        #expect(forgotten.status == 0, "\(forgotten.stderr)")
        #expect(rhr.exportRows().isEmpty, "\(rhr.exportRows())")
        let store = try #require(try HealthDatabase.reading(path: rhr.sandbox.storePath, machineZone: utc))
        let revisions = try store.revisions()
        #expect(revisions.allSatisfy { $0.reason == .forgotten }, "\(revisions)")
    }
}
