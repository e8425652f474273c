import Foundation
import RHRCore
import RHRStore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// R14 through `rhr import` and `rhr status`: a record rhr cannot use costs nothing of the rest of its file; it is kept
/// in the store raw, counted by kind with its first place, and listed.
@Suite("Passed-over records through the commands")
struct PassedOverImportTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    func rows(_ arguments: [String] = []) -> [String] { rhr.exportRows(arguments) }

    static func export(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-20 21:00:00 +0100"/>
        \(body)</HealthData>

        """
    }

    static func resting(day: Int, value: String, source: String = "Jane’s Apple Watch") -> String {
        let date = "2024-03-\(String(format: "%02d", day))"
        return " <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"\(source)\" unit=\"count/min\" "
            + "creationDate=\"\(date) 23:40:00 +0100\" startDate=\"\(date) 00:01:00 +0100\" endDate=\"\(date) 23:30:00 +0100\" value=\"\(value)\"/>\n"
    }

    static func heartRate(_ time: String, value: String?) -> String {
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Jane’s Apple Watch\" unit=\"count/min\" "
            + "startDate=\"\(time)\" endDate=\"\(time)\"" + (value.map { " value=\"\($0)\"" } ?? "") + "/>\n"
    }

    func offset(of needle: String, in text: String) throws -> Int {
        let bytes = Array(text.utf8), n = Array(needle.utf8)
        for i in 0...(bytes.count - n.count) where bytes[i..<(i + n.count)].elementsEqual(n) { return i }
        throw TestFailure("\(needle) not in the text")
    }

    @Test func aValueThatIsNotANumberAndHeartRateWithoutAValueCostNothingOfTheRest() throws {
        let abc = Self.resting(day: 12, value: "abc")
        let noValue1 = Self.heartRate("2024-03-12 10:00:00 +0100", value: nil)
        let noValue2 = Self.heartRate("2024-03-12 11:00:00 +0100", value: nil)
        let xml = Self.export(Self.resting(day: 11, value: "57") + noValue1 + abc + Self.heartRate("2024-03-12 10:30:00 +0100", value: "70")
                              + noValue2 + Self.resting(day: 13, value: "59"))
        let path = try rhr.sandbox.write("export.xml", xml)
        let imported = rhr.run(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let first = try offset(of: noValue1.dropFirst().description, in: xml)
        let abcAt = try offset(of: abc.dropFirst().description, in: xml)
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(imported.stdout)")
        #expect(lines[0].hasPrefix("\(path): Apple Health export (XML): 6 records read; HealthKit resting samples 2 added"), "\(lines[0])")
        #expect(lines[0].contains("; 3 records passed over (kept in the store, rhr status lists them)"))
        #expect(lines.dropFirst().map { $0 } == [
            "\(path): 3 records passed over, kept in the store (rhr status lists them):",
            "\(path):   2 HeartRate without a value (first at byte \(first))",
            "\(path):   1 RestingHeartRate whose value is not a number (byte \(abcAt))",
        ])
        #expect(rows() == [
            "2024-03-11,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,57,1,false,false,0,0,apple-watch",
            "2024-03-13,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,59,1,false,false,0,0,apple-watch",
        ])

        let status = rhr.run(["status"]).stdout
        #expect(status.contains("""
            passed over: 3 records, kept in the store raw:
              2 HeartRate without a value (first: \(path), byte \(first))
              1 RestingHeartRate whose value is not a number (\(path), byte \(abcAt))
            """), "\(status)")

        // Kept raw, with the reason, so that a later rhr can read them.
        let store = try #require(try HealthDatabase.reading(path: rhr.sandbox.storePath))
        let kept = try store.passedOverRecords()
        #expect(kept.map(\.record.raw) == [noValue1, abc, noValue2].map { String($0.dropFirst().dropLast()) })
        #expect(kept.map(\.record.reason) == ["a HeartRate record without value (or average)", "value \"abc\" is not a number",
                                              "a HeartRate record without value (or average)"])
        #expect(kept.allSatisfy { $0.source == path && $0.stream == "apple-health-export" && $0.store == .healthKit })

        // The same file again keeps one row of each.
        #expect(rhr.run(["import", path]).status == 0)
        #expect(try store.passedOverRecords().count == 3)
    }

    @Test func verboseListsEveryPassedOverRecordWithItsPlaceReasonAndText() throws {
        let xml = Self.export(Self.resting(day: 11, value: "57") + Self.resting(day: 12, value: "fifty"))
        let path = try rhr.sandbox.write("export.xml", xml)
        let imported = rhr.run(["import", "--verbose", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let at = try offset(of: "<Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"Jane’s Apple Watch\" unit=\"count/min\" creationDate=\"2024-03-12", in: xml)
        let raw = String(Self.resting(day: 12, value: "fifty").dropFirst().dropLast())
        #expect(imported.stdout.hasSuffix("\n\(path):     byte \(at): value \"fifty\" is not a number: \"\(raw)\"\n"), "\(imported.stdout)")
    }

    @Test func theStatisticsFormOfIOS8IsReadItsAverageTheValue() throws {
        // iOS 8–9: `source`, compact dates, and statistics (min, max, average, recordCount) instead of a value.
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
             <ExportDate value="20151107171924+0100"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" source="Jane’s Apple Watch" unit="count/min" creationDate="20151106230000+0100" startDate="20151106000100+0100" endDate="20151106223000+0100" min="56" max="56" average="56" recordCount="1"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" source="Jane’s Apple Watch" unit="count/min" creationDate="20151105230000+0100" startDate="20151105000100+0100" endDate="20151105223000+0100" min="57" max="61" average="59.5" recordCount="3"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" source="Jane’s Apple Watch" unit="count/min" startDate="20151105081200+0100" endDate="20151105081200+0100" min="72" max="72" average="72" recordCount="1"/>
            </HealthData>

            """
        let path = try rhr.sandbox.write("export.xml", xml)
        let imported = rhr.run(["import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("passed over"), "\(imported.stdout)")
        #expect(imported.stdout.contains("HealthKit resting samples 2 added"), "\(imported.stdout)")
        // A statistic of several records is read as one value, its average (docs/design.md section 2).
        #expect(rows(["--from", "2015-11-01", "--to", "2015-11-30"]) == [
            "2015-11-05,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,59.5,1,false,false,0,0,apple-watch",
            "2015-11-06,healthkit,Jane’s Apple Watch,Jane’s Apple Watch,latest,56,1,true,false,0,0,apple-watch",
        ])
    }
}
