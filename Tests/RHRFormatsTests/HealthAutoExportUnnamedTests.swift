import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// Health Auto Export points without `source` (docs/design.md section 2): one rule for whose value they are.
/// When the payload names exactly one Apple Watch (by its name, as R3 tells one), they are that watch's; otherwise they
/// are the writer "Health Auto Export", labelled as one Health Auto Export did not name and not marked a watch (R3 takes
/// it for a possible one by its name where values are read): never a second line beside the watch's.
@Suite("Health Auto Export points without a source")
struct HealthAutoExportUnnamedTests {
    func read(_ json: String) throws -> SyncBatch {
        let file = try HealthAutoExportReader.read(bytes: Array(json.utf8), label: "body", stream: "http-phone",
                                                   options: ImportOptions(machineZone: utc))
        return try #require(file.batches.first)
    }

    static func body(_ resting: [String], heartRate: [String] = []) -> String {
        """
        {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[\(resting.joined(separator: ","))]},
          {"name":"heart_rate","units":"count/min","data":[\(heartRate.joined(separator: ","))]}]}}
        """
    }

    @Test func thePayloadsOneNamedWatchWroteThem() throws {
        let batch = try read(Self.body([
            #"{"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"Jane’s Apple Watch"}"#,
            #"{"date":"2024-01-03 00:00:00 +0100","qty":56}"#,
            #"{"date":"2024-01-03 00:00:00 +0100","qty":58,"source":"Oura"}"#,
        ], heartRate: [
            #"{"date":"2024-01-03 09:00:00 +0100","Min":60,"Avg":64,"Max":70,"source":"Jane’s Apple Watch"}"#,
            #"{"date":"2024-01-03 10:00:00 +0100","Min":61,"Avg":65,"Max":71}"#,
        ]))
        #expect(batch.resting.map(\.writer.name) == ["Jane’s Apple Watch", "Jane’s Apple Watch", "Oura"])
        #expect(batch.heartRate.map { "\($0.writer.name) \($0.day) \($0.total)" } == ["Jane’s Apple Watch 2024-01-03 2"])
        #expect(batch.watchWriters.isEmpty)
    }

    /// No watch named, or two: nobody can say whose they are.
    @Test func withoutOneNamedWatchTheyAreAnUnnamedWriters() throws {
        for sources in [[], ["Oura"], ["Jane’s Apple Watch", "Bob’s Apple Watch"], ["Jane’s Apple Watch|Oura"]] {
            let named = sources.map { #"{"date":"2024-01-02 00:00:00 +0100","qty":57,"source":"\#($0)"}"# }
            let batch = try read(Self.body(named + [#"{"date":"2024-01-03 00:00:00 +0100","qty":56}"#],
                                           heartRate: [#"{"date":"2024-01-03 10:00:00 +0100","Min":61,"Avg":65,"Max":71}"#]))
            #expect(batch.resting.last?.writer.name == Writer.unnamedHealthAutoExport, "\(sources)")
            #expect(batch.heartRate.map(\.writer.name) == [Writer.unnamedHealthAutoExport], "\(sources)")
            #expect(batch.watchWriters.isEmpty, "\(sources)")
        }
    }

    /// A CSV export has no source column: all its values name no writer.
    @Test func aCSVExportNamesNoWatch() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("HealthAutoExport.csv")
        try "Date/Time,Resting Heart Rate (count/min)\n2024-01-03 00:00:00,56\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = try FileImporter.read(path: path, options: ImportOptions(machineZone: utc))
        let batch = try #require(file.batches.first)
        #expect(batch.resting.map(\.writer.name) == [Writer.unnamedHealthAutoExport])
        #expect(batch.watchWriters.isEmpty)
    }
}
