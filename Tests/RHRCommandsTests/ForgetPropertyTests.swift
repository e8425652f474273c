import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// Any delivery can be taken back (docs/design.md section 5, R12): forgetting one gives the store that never had it.
/// After a wrong file (someone else's export, of days the store holds) is imported and forgotten, `rhr export` (both
/// formats, every aggregation), the heart rate, the streams, what was passed over and the history (less the entries
/// that say the wrong file's values were forgotten) are what they were without it: whether it came last, between the
/// others or first, and for every kind of input (an Apple export, a Health Connect export, a Health Auto Export file, a
/// file of sync batches). The same holds for forgetting any one of several overlapping exports of one stream, which
/// brings the others' values back.
@Suite("Forgetting a delivery gives the store without it")
struct ForgetPropertyTests {
    static let jane = "Jane’s Apple Watch", bob = "Bob’s Apple Watch"
    typealias Value = SmallExports.Value

    /// What the store shows, as the commands print it; `forgotten` entries of the history left out.
    static func views(_ store: HealthDatabase) throws -> [String] {
        var views: [String] = []
        for aggregation in Aggregation.allCases {
            views.append(try ExportCommand.text(store: store, json: false, aggregation: aggregation))
            views.append(try ExportCommand.text(store: store, json: true, aggregation: aggregation))
        }
        views.append(try store.revisions().filter { $0.reason != .forgotten }
            .map { "\($0.day) \($0.writer.key) \($0.reason) \($0.text(thisYear: 2026, zone: utc))" }.joined(separator: "\n"))
        views.append(try store.heartRateDays().map { "\($0.day) \($0.writer.key) \($0.total) \($0.histogramText)" }
            .joined(separator: "\n"))
        views.append(try store.streams().map {
            "\($0.store) \($0.stream) \($0.asOf?.iso8601 ?? "-") \($0.origin) \($0.cursor ?? "-") \($0.appPriority?.packages ?? [])"
        }.joined(separator: "\n"))
        views.append(try store.passedOverRecords().map { "\($0.stream) \($0.source) \($0.record.place) \($0.record.reason)" }
            .joined(separator: "\n"))
        views.append(try store.contents().map { "\($0)" }.joined(separator: "\n"))
        return views
    }

    /// A file of one kind, written into `directory` under `name`.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case apple, healthAutoExport, batches
        var description: String { rawValue }

        /// `asOf` orders the files of a kind: an Apple export's date, a batch's `asOf`; a Health Auto Export file is
        /// as of its newest point, so its values decide. `unreadable` adds a record rhr passes over (R14).
        func write(_ values: [Value], asOf: String, name: String, stream: String, in directory: TemporaryDirectory,
                   unreadable: Bool = false) throws -> String {
            switch self {
            case .apple:
                return try directory.write(name + ".xml", SmallExports.apple(exportDate: asOf, values, unreadable: unreadable))
            case .healthAutoExport:
                return try directory.write(name + ".json", SmallExports.healthAutoExport(values, unreadable: unreadable))
            case .batches:
                return try directory.write(name + ".jsonl", SmallExports.batch(
                    stream: stream, asOf: asOf.replacingOccurrences(of: " ", with: "T") + ":00+01:00", values, uuidPrefix: name,
                    unreadable: unreadable))
            }
        }
    }

    /// Imports `paths` in order into a new store, as `rhr import` reads them.
    static func store(_ paths: [String]) throws -> HealthDatabase {
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        for path in paths {
            _ = try store.apply(try FileImporter.read(path: path, options: ImportOptions(machineZone: utc)).batches)
        }
        return store
    }

    /// The delivery `path` brought (a zip's is named with its member: `Health Connect.zip (health_connect_export.db)`).
    static func delivery(of path: String, in store: HealthDatabase) throws -> Int64 {
        let all = try store.deliveries()
        let found = all.filter { $0.label == path || $0.label.hasPrefix(path + " (") }
        try #require(found.count == 1, "deliveries: \(all.map(\.label))")
        return found[0].id
    }

    static func forget(_ path: String, in store: HealthDatabase, force: Bool = false) throws -> ForgetOutcome {
        let outcome = try store.forget([try delivery(of: path, in: store)], force: force, at: ts("2026-03-30T12:00:00+01:00"))
        #expect(outcome.refusals.isEmpty, "\(outcome.refusals)")
        return outcome
    }

    /// `wrong` imported at `position` among `right`, then forgotten, gives what `right` alone gives (`wrong` passes a
    /// record over, R14, which leaves with it).
    static func check(right: [String], wrong: String, position: Int) throws {
        let expected = try views(store(right))
        var order = right
        order.insert(wrong, at: position)
        let store = try store(order)
        let withWrong = try views(store)
        #expect(withWrong != expected, "the wrong file changed nothing: the test proves nothing")
        #expect(try store.passedOverRecords().contains { $0.source == wrong }, "the wrong file passed nothing over")
        _ = try forget(wrong, in: store)
        let after = try views(store)
        for (a, b) in zip(after, expected) where a != b {
            Issue.record("after forgetting \(PathText.lastComponent(wrong)) at \(position):\n\(a)\n--- without it ---\n\(b)")
            return
        }
        #expect(try store.deliveries().count == right.count)
    }

    // MARK: - A wrong file among the right ones

    /// Jane's two exports (the second changes one value and adds days) and a wrong one of overlapping days: Bob's
    /// (someone else's watch), or one with Jane's name and other values (an old phone's, a colleague's of the same
    /// name), newer, between or older than Jane's; imported last, between or first; then forgotten.
    @Test(arguments: Kind.allCases)
    func aWrongFileForgottenLeavesTheStoreAsItWas(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let a = try kind.write(
            ["03-01", "03-02", "03-03", "03-04", "03-05", "03-06"].enumerated().map {
                Value(Self.jane, "2026-" + $1, 55 + $0 % 3, heartRate: $0 % 2 == 0)
            }, asOf: "2026-03-06 22:00", name: "a", stream: "iphone", in: directory)
        let b = try kind.write(
            ["03-04", "03-05", "03-06", "03-07", "03-08", "03-09", "03-10"].enumerated().map {
                Value(Self.jane, "2026-" + $1, $1 == "03-05" ? 61 : 55 + ($0 + 3) % 3, heartRate: $0 % 2 == 1)
            }, asOf: "2026-03-10 22:00", name: "b", stream: "bridge", in: directory, unreadable: true)
        for (writer, shift) in [(Self.bob, 4), (Self.jane, 1)] {
            for (asOf, days) in [("2026-03-12 09:00", 3...12), ("2026-03-08 09:00", 2...8), ("2026-03-03 09:00", 1...3)] {
                // A wrong file ends on its own day: two Health Auto Export files of one instant are one road.
                let wrong = try kind.write(days.map {
                    Value(writer, String(format: "2026-03-%02d", $0), 50 + ($0 * shift) % 9, heartRate: $0 % 3 == 0)
                }, asOf: asOf, name: "w-\(writer.prefix(3))-\(days.upperBound)", stream: "bobs-phone", in: directory,
                   unreadable: true)
                for position in 0...2 {
                    try Self.check(right: [a, b], wrong: wrong, position: position)
                }
            }
        }
    }

    /// Health Connect: the two sample exports, and a bare database made from the second with other record ids and
    /// values (someone else's phone), dated after both, between them, and before both.
    @Test func aWrongHealthConnectExportForgottenLeavesTheStoreAsItWas() throws {
        let directory = try TemporaryDirectory()
        let a = InProcessRHR.sample("health-connect/Health Connect.zip")
        let b = InProcessRHR.sample("health-connect/Health Connect (2).zip")
        let unzip = try #require(Subprocess.which("unzip"), "unzip is not installed; scripts/setup installs it")
        for (name, shiftDays) in [("after", 3), ("between", -4), ("before", -12)] {
            let path = directory.file("\(name).db")
            let out = try Subprocess.run("/bin/sh", ["-c", "'\(unzip)' -p '\(b)' health_connect_export.db > '\(path)'"])
            try #require(out.status == 0, "\(out.stderr)")
            let shift = Int64(shiftDays) * 86_400_000
            try SQLiteFile.execute("""
                UPDATE resting_heart_rate_record_table
                    SET uuid = randomblob(16), beats_per_minute = beats_per_minute + 9, last_modified_time = last_modified_time + \(shift);
                UPDATE heart_rate_record_table SET uuid = randomblob(16), last_modified_time = last_modified_time + \(shift);
                UPDATE resting_heart_rate_record_table SET beats_per_minute = 'n/a'
                    WHERE row_id = (SELECT min(row_id) FROM resting_heart_rate_record_table);
                """, at: path)
            for position in 0...2 {
                try Self.check(right: [a, b], wrong: path, position: position)
            }
        }
    }

    // MARK: - One of several exports of a stream

    /// Two overlapping exports of Jane's (the newer changes two values, keeps the rest and adds days): forgetting
    /// either brings back what the other alone gives, in either import order.
    @Test(arguments: Kind.allCases)
    func forgettingOneOfTwoOverlappingExportsBringsTheOthersBack(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let older = try kind.write((1...6).map {
            Value(Self.jane, String(format: "2026-03-%02d", $0), 54 + $0 % 4, heartRate: true)
        }, asOf: "2026-03-06 22:00", name: "older", stream: "iphone", in: directory)
        let newer = try kind.write((3...9).map {
            Value(Self.jane, String(format: "2026-03-%02d", $0), [4, 5].contains($0) ? 70 : 54 + $0 % 4, heartRate: $0 % 2 == 0)
        }, asOf: "2026-03-09 22:00", name: "newer", stream: kind == .batches ? "bridge" : "iphone", in: directory)
        for (kept, forgotten) in [(older, newer), (newer, older)] {
            for order in [[older, newer], [newer, older]] {
                let store = try Self.store(order)
                _ = try Self.forget(forgotten, in: store)
                #expect(try Self.views(store) == (try Self.views(Self.store([kept]))),
                        "forgetting \(PathText.lastComponent(forgotten)) of \(order.map { PathText.lastComponent($0) })")
            }
        }
        // The newer one's values stood where both speak; without it the older one's are back.
        let store = try Self.store([older, newer])
        #expect(try store.days(aggregation: .latest).first { $0.day == day("2026-03-04") }?.bpm == 70)
        _ = try Self.forget(newer, in: store)
        #expect(try store.days(aggregation: .latest).first { $0.day == day("2026-03-04") }?.bpm == 54)
    }

    // MARK: - Deletions, and the samples of every kind

    /// A wrong file of batches that deletes Jane's samples (R4: a deletion takes every road's copy delivered before
    /// it): forgotten, her values stand again on both roads that held them, in any position.
    @Test func aWrongFilesDeletionsAreForgottenWithIt() throws {
        let directory = try TemporaryDirectory()
        let values = (1...5).map { Value(Self.jane, "2026-03-0\($0)", 55 + $0 % 3) }
        let phone = try directory.write("phone.jsonl", SmallExports.batch(stream: "iphone", asOf: "2026-03-05T22:00:00+01:00",
                                                                          values, uuidPrefix: "U"))
        let export = try directory.write("export.xml", SmallExports.apple(exportDate: "2026-03-05 22:00", values))
        let wrong = try directory.write("wrong.jsonl", SmallExports.batch(
            stream: "bobs-phone", asOf: "2026-03-09T09:00:00+01:00", [Value(Self.bob, "2026-03-03", 60)],
            deleted: values.prefix(3).map { SmallExports.uuid("U", $0) }, uuidPrefix: "W", unreadable: true))
        for position in 0...2 {
            try Self.check(right: [phone, export], wrong: wrong, position: position)
        }
    }

    /// The samples the import-order property uses (two Apple exports, a bridge stream that replaced a draft twice,
    /// Health Auto Export, a Health Connect export, Health Connect changes batches that delete records): forgetting
    /// any one of them, whatever came after it, gives the store of the other five.
    @Test(arguments: ImportOrderTests.files.indices)
    func forgettingAnySampleFileGivesTheStoreOfTheOthers(forgotten: Int) throws {
        let paths = ImportOrderTests.files.map(InProcessRHR.sample)
        for order in [Array(paths.indices), paths.indices.reversed()] {
            let ordered = order.map { paths[$0] }
            let store = try Self.store(ordered)
            // The bridge's batches continue a cursor: forgetting them is asked for knowingly.
            _ = try Self.forget(paths[forgotten], in: store, force: true)
            let expected = try Self.views(Self.store(ordered.filter { $0 != paths[forgotten] }))
            for (a, b) in zip(try Self.views(store), expected) where a != b {
                Issue.record("forgetting \(ImportOrderTests.files[forgotten]) of \(order):\n\(a)\n--- without it ---\n\(b)")
                break
            }
        }
    }

    // MARK: - Random stores

    /// Seeded: three or four exports of one kind, of Jane's and Bob's days at random (values from a few, so that
    /// exports often agree), imported in a random order; forgetting one at random gives the store of the others,
    /// imported in the same order.
    @Test(arguments: Kind.allCases)
    func forgettingAnyOneExportGivesTheStoreOfTheOthers(kind: Kind) throws {
        var random = SplitMix64(seed: 0x33C_0000 + UInt64(kind.rawValue.count))
        let directory = try TemporaryDirectory()
        var checked = 0
        for round in 0..<12 {
            let count = Int.random(in: 3...4, using: &random)
            var paths: [String] = []
            // Distinct last days: each file is a road of its own (R12).
            let lastDays = Array((5...14).shuffled(using: &random).prefix(count))
            for (i, last) in lastDays.enumerated() {
                let first = Int.random(in: 1...last, using: &random)
                var values: [Value] = []
                for d in first...last {
                    for writer in [Self.jane, Self.bob] where Int.random(in: 0..<3, using: &random) > 0 || d == last {
                        values.append(Value(writer, String(format: "2026-03-%02d", d), Int.random(in: 56...58, using: &random),
                                            heartRate: Bool.random(using: &random)))
                    }
                }
                paths.append(try kind.write(values, asOf: String(format: "2026-03-%02d 21:00", last), name: "r\(round)-\(i)",
                                            stream: "phone-\(i)", in: directory))
            }
            let forgotten = paths.randomElement(using: &random)!
            let store = try Self.store(paths)
            _ = try Self.forget(forgotten, in: store)
            let expected = try Self.views(Self.store(paths.filter { $0 != forgotten }))
            let got = try Self.views(store)
            for (a, b) in zip(got, expected) where a != b {
                Issue.record("round \(round), forgetting \(PathText.lastComponent(forgotten)) of \(paths.map { PathText.lastComponent($0) }):\n\(a)\n--- without it ---\n\(b)")
                return
            }
            checked += 1
        }
        #expect(checked == 12)
    }
}
