import Foundation
import RHRCore
import RHRFormats
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// R12 and R14 for Health Auto Export files, which carry no export time: files made on one day with overlapping
/// ranges have the same `asOf` (the end of their newest point). In every order they give the same store, and a file
/// speaks only for the period its points cover. These files are read from memory, so no file time tells them apart:
/// the values decide (`SnapshotTie`), as they do between files made at the same moment; files told apart by when they
/// were made are SameInstantFilesTests'.
@Suite("Health Auto Export files of one asOf, in any order (R12, R14)")
struct HealthAutoExportTieTests {
    /// Daily resting points of the watch from `first` to `last` (June 2023), 60 + the day % 5, with `changed` values.
    static func file(_ first: Int, _ last: Int, changed: [Int: Double] = [:], missing: Set<Int> = [],
                     heartRate: [Int: Double] = [:]) -> ImportedFile {
        let points = (first...last).filter { !missing.contains($0) }.map { day in
            PhonePayloads.Point(String(format: "2023-06-%02d 00:00:00 +0200", day), changed[day] ?? Double(60 + day % 5))
        }
        let hr = heartRate.sorted { $0.key < $1.key }.map { PhonePayloads.Point(String(format: "2023-06-%02d 09:00:00 +0200", $0.key), $0.value) }
        let body = PhonePayloads.healthAutoExport(resting: points, heartRate: hr.isEmpty ? nil : hr)
        return try! HealthAutoExportReader.read(bytes: body, label: "HealthAutoExport-\(first)-\(last).json",
                                                stream: HealthAutoExportReader.stream, options: ImportOptions(machineZone: utc))
    }

    /// Four files of the same asOf (all end on the 30th), one older (ends on the 28th) and one newer (ends 2 July
    /// on its own days only): different ranges, a day's value different in two files, a day one of them lacks.
    static let files: [ImportedFile] = [
        file(17, 30, heartRate: [20: 70]),
        file(23, 30, changed: [30: 65], heartRate: [24: 72]),
        file(20, 30, changed: [30: 64, 25: 58], missing: [27], heartRate: [24: 75]),
        file(17, 28, changed: [25: 57]),
        file(18, 30),
    ]

    @Test func everyOrderGivesTheSameExportAndHistory() throws {
        func applied(_ order: [Int]) throws -> [String] {
            let store = try HealthDatabase(path: ":memory:", machineZone: utc)
            for i in order { _ = try store.apply(Self.files[i].batches) }
            return try ImportOrderTests.views(store)
        }
        let reference = try applied(Array(Self.files.indices))
        var checked = 0
        for order in ImportOrderTests.permutations(Array(Self.files.indices)) {
            let views = try applied(order)
            for (a, b) in zip(views, reference) where a != b {
                Issue.record("order \(order) differs:\n\(a)\n--- reference ---\n\(b)")
                return
            }
            checked += 1
        }
        #expect(checked == 120)
        // The days before a later-starting file's first point keep their values, in every order: 14 days.
        let rows = reference[0].split(separator: "\n").dropFirst()
        #expect(rows.count == 14, "\(reference[0])")
    }

    @Test func aFileSpeaksOnlyForThePeriodItsPointsCover() throws {
        let store = try HealthDatabase(path: ":memory:", machineZone: utc)
        _ = try store.apply(Self.files[0].batches)
        _ = try store.apply(Self.files[1].batches)
        let days = try store.days(aggregation: .latest).map { "\($0.day) \($0.bpmText)" }
        #expect(days.count == 14)
        #expect(days.first == "2023-06-17 62")
    }
}
