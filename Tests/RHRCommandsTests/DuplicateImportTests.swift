import Foundation
import RHRCore
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// R14's duplicates through `rhr import`: the same record twice is one sample; one writer's window with two values
/// keeps both, in an order that does not depend on the file's.
@Suite("Duplicated records through the commands")
struct DuplicateImportTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    func rows() -> [String] { rhr.exportRows() }

    static func record(value: String, created: String = "2024-03-12 23:40:00 +0100") -> String {
        " <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"Jane’s Apple Watch\" unit=\"count/min\" "
            + "creationDate=\"\(created)\" startDate=\"2024-03-12 00:01:00 +0100\" endDate=\"2024-03-12 23:30:00 +0100\" value=\"\(value)\"/>\n"
    }

    func importExport(_ records: [String], name: String = "export.xml") throws -> SubprocessResult {
        let path = try rhr.sandbox.write(name, PassedOverImportTests.export(records.joined()))
        return rhr.run(["import", path])
    }

    @Test func anIdenticalRecordTwiceIsOneSample() throws {
        let imported = try importExport([Self.record(value: "58"), Self.record(value: "58")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stderr.contains("UNIQUE"))
        #expect(imported.stdout.contains("HealthKit resting samples 1 added"), "\(imported.stdout)")
        #expect(rows() == ["2024-03-12,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,58,1,false,false,0,0,apple-watch"])
    }

    @Test func aRecordTwiceDifferingOnlyInCreationIsOneSample() throws {
        let imported = try importExport([Self.record(value: "58"), Self.record(value: "58", created: "2024-03-13 08:00:00 +0100")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(rows() == ["2024-03-12,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,58,1,false,false,0,0,apple-watch"])
    }

    @Test func oneWindowWithTwoValuesKeepsBothInEitherOrder() throws {
        for (k, order) in [["58", "61"], ["61", "58"]].enumerated() {
            let rhr = try InProcessRHR()
            let path = try rhr.sandbox.write("export.xml", PassedOverImportTests.export(order.map { Self.record(value: $0) }.joined()))
            let imported = rhr.run(["import", path])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("HealthKit resting samples 2 added"), "\(imported.stdout)")
            let export = { (aggregate: String) in rhr.exportRows(["--aggregate", aggregate]) }
            // Both count; `latest` takes one by R7's tie-break (same end and creation: by identity, which holds the
            // value), whatever order the file had them in.
            #expect(export("mean") == ["2024-03-12,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,mean,59.5,2,false,false,0,0,apple-watch"], "order \(k)")
            #expect(export("latest") == ["2024-03-12,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,61,2,false,false,0,0,apple-watch"], "order \(k)")
            let store = try #require(try HealthDatabase.reading(path: rhr.sandbox.storePath))
            let samples = try store.samples()
            #expect(samples.map(\.sample.isDuplicate) == [true, true])
            #expect(Set(samples.map(\.sample.value)) == [58, 61])
        }
    }
}
