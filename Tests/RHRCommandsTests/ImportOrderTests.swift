import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// R12 as a property: the same files imported in any order end in the same store, as `rhr export` (both formats,
/// every aggregation), the revision history and `rhr summary` show it. The files: two Apple exports (so that an
/// older one comes after a newer one in half the orders), a bridge stream that replaced a draft twice, the Health
/// Auto Export sample, a Health Connect export and Health Connect changes batches. A stream's batches keep their
/// cursor order: the orders permute files, not the batches inside one.
@Suite("Import order does not matter (R12)")
struct ImportOrderTests {
    static let files = [
        "apple-health/export-1.xml",
        "apple-health/export-2.xml",
        "bridge/watch-draft-replaced.jsonl",
        "health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json",
        "health-connect/Health Connect.zip",
        "batches/healthconnect-pixel.jsonl",
    ]

    /// Each file read once, as `rhr import` reads it (the sandbox's zone: UTC).
    static let imported: [ImportedFile] = files.map {
        try! FileImporter.read(path: SourceTree.samples + "/" + $0, options: ImportOptions(machineZone: utc))
    }

    static let today = LocalDay("2026-03-30")!

    /// Everything the store shows, as the commands print it (the summary under one aggregation: the exports show
    /// every aggregation's values).
    static func views(_ store: HealthDatabase) throws -> [String] {
        var views: [String] = []
        for aggregation in Aggregation.allCases {
            views.append(try ExportCommand.text(store: store, json: false, aggregation: aggregation))
            views.append(try ExportCommand.text(store: store, json: true, aggregation: aggregation))
        }
        views.append(try SummaryCommand.report(store: store, aggregation: .mean, days: 60, today: today))
        views.append(try store.revisions().map { "\($0.day) \($0.writer.key) \($0.reason) \($0.text(thisYear: 2026))" }
            .joined(separator: "\n"))
        views.append(try store.heartRateDays().map { "\($0.day) \($0.writer.key) \($0.total) \($0.histogramText)" }
            .joined(separator: "\n"))
        return views
    }

    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    static func applied(_ order: [Int]) throws -> [String] {
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        for i in order {
            // In every order, each file's account adds up (docs/design.md R14): every resting sample has one outcome.
            let outcomes = try store.apply(imported[i].batches)
            if outcomes.map(\.samples.accounted) != imported[i].batches.map(\.resting.count) {
                Issue.record("\(files[i]) after \(order.prefix { $0 != i }) accounts for \(outcomes.map(\.samples))")
            }
        }
        return try views(store)
    }

    /// The file order the tests compare every other with.
    static let reference = Result { try applied(Array(files.indices)) }

    /// Every order of the six files, in six groups (by the first file) that run side by side.
    @Test(arguments: 0..<6)
    func everyOrderGivesTheSameStore(first: Int) throws {
        let reference = try Self.reference.get()
        let rest = Self.files.indices.filter { $0 != first }
        var checked = 0
        for tail in Self.permutations(rest) {
            let order = [first] + tail
            let views = try Self.applied(order)
            if views != reference {
                let names = order.map { Self.files[$0] }.joined(separator: ", ")
                for (a, b) in zip(views, reference) where a != b {
                    Issue.record("order \(names) differs:\n\(a)\n--- reference ---\n\(b)")
                    break
                }
                return
            }
            checked += 1
        }
        #expect(checked == 120)
    }

    /// The same through `rhr import` itself, file by file, first to last and last to first.
    @Test func importingWithTheCommandInBothDirectionsAgrees() throws {
        var outputs: [[String]] = []
        for paths in [Self.files, Self.files.reversed()] {
            let rhr = try InProcessRHR()
            for path in paths {
                let result = rhr.run(["import", InProcessRHR.sample(path)])
                #expect(result.status == 0, "\(result.stderr)")
            }
            var shown: [String] = []
            for aggregation in Aggregation.allCases {
                shown.append(rhr.run(["export", "--aggregate", aggregation.rawValue]).stdout)
                shown.append(rhr.run(["export", "--format", "json", "--aggregate", aggregation.rawValue]).stdout)
                shown.append(rhr.run(["summary", "--days", "60", "--aggregate", aggregation.rawValue]).stdout)
            }
            outputs.append(shown)
        }
        #expect(outputs[0] == outputs[1])
        // And they say what the batches applied directly say.
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        for file in Self.imported { _ = try store.apply(file.batches) }
        #expect(outputs[0][0] == (try ExportCommand.text(store: store, json: false, aggregation: .latest)))
    }
}
