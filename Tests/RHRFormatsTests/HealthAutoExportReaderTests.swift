import Foundation
import RHRCore
import RHRJSON
@testable import RHRFormats
import RHRTestSupport
import Testing

@Suite("Health Auto Export JSON")
struct HealthAutoExportReaderTests {
    func read(_ json: String) throws(InputError) -> ImportedFile {
        let dir = try! TemporaryDirectory()
        let path = dir.file("HealthAutoExport-2024-01-01-2024-01-07.json")
        try! Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return try HealthAutoExportReader.read(path: path, options: ImportOptions(machineZone: berlinZone),
                                               progress: nil)
    }

    func readError(_ json: String) throws -> InputError {
        try #require(throws: InputError.self) { try read(json) }
    }

    static let resting = """
        {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
          {"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"Jane’s Apple Watch"},
          {"date":"2024-01-03 00:00:00 +0100","qty":56.5,"source":"Jane’s Apple Watch"},
          {"date":"2024-01-03 07:15:00 -0800","qty":61,"source":"Oura"},
          {"date":"2024-01-04 00:00:00 +0100","qty":54}
        ]}]}}
        """

    @Test("resting points become HealthKit resting samples: writer = source, value = qty, unit from the metric")
    func restingPoints() throws {
        let file = try read(Self.resting)
        #expect(file.kind == .healthAutoExportJSON)
        #expect(file.recordsRead == 4)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.count == 4)
        #expect(batch.heartRate.isEmpty)
        let first = batch.resting[0]
        #expect(first.store == .healthKit)
        #expect(first.writer == Writer(store: .healthKit, name: "Jane’s Apple Watch"))
        #expect(first.value == 55)
        #expect(first.unit == "count/min")
        #expect(first.offsetSeconds == 3600)
        #expect(first.uuid == nil)
        #expect(batch.resting[1].value == 56.5)
        // The point without a source is the payload's one named watch's (docs/design.md section 2).
        #expect(batch.resting.map(\.writer.name) == ["Jane’s Apple Watch", "Jane’s Apple Watch", "Oura", "Jane’s Apple Watch"])
    }

    @Test("a point at local midnight stands for its day; any other point is an instant")
    func windows() throws {
        let batch = try #require(try read(Self.resting).batches.first)
        let daily = batch.resting[0]
        #expect(daily.start == Timestamp.parse("2024-01-02 00:00:00 +0100")!.date)
        #expect(daily.end == Timestamp.parse("2024-01-02 23:59:59 +0100")!.date)
        let instant = batch.resting[2]
        #expect(instant.start == Timestamp.parse("2024-01-03 07:15:00 -0800")!.date)
        #expect(instant.end == instant.start)
        // R5 as the store applies it: each on the day it was written for, whatever the machine's zone.
        for zone in [berlinZone, tokyoZone, TimeZone(identifier: "America/Los_Angeles")!] {
            #expect(batch.resting.map { LocalDayRule.day(of: $0, machineZone: zone).day.description }
                    == ["2024-01-02", "2024-01-03", "2024-01-03", "2024-01-04"])
        }
        #expect(batch.resting.allSatisfy { !LocalDayRule.day(of: $0, machineZone: berlinZone).offsetAssumed })
    }

    @Test("the batch is a snapshot of the period its points cover, on the health-auto-export stream")
    func batchShape() throws {
        let batch = try #require(try read(Self.resting).batches.first)
        #expect(batch.store == .healthKit)
        #expect(batch.stream == "health-auto-export")
        let snapshot = try #require(batch.snapshot)
        #expect(snapshot.from?.epochSeconds == Timestamp.parse("2024-01-02 00:00:00 +0100")!.epochSeconds)
        #expect(snapshot.to?.epochSeconds == Timestamp.parse("2024-01-04 23:59:59 +0100")!.epochSeconds)
        #expect(snapshot.coversResting && !snapshot.coversHeartRate)
        #expect(batch.asOf == Timestamp.parse("2024-01-04 23:59:59 +0100"))
        #expect(batch.origin == "Health Auto Export")
        #expect(batch.cursor == nil && !batch.fullResync && batch.deleted.isEmpty)
        #expect(throws: Never.self) { try batch.validate() }
        // R3: with asOf on 4 Jan, an Apple Watch value of 3 and 4 Jan is provisional, one of 2 Jan is not.
        let watch = batch.resting.filter { $0.writer.name.contains("Apple Watch") }
        #expect(watch.map { ProvisionalRule.isProvisional(store: .healthKit, writerIsWatch: true,
                                                          day: LocalDayRule.day(of: $0, machineZone: berlinZone).day,
                                                          asOf: batch.asOf) } == [false, true, true])
    }

    @Test("a null or empty source is Health Auto Export")
    func defaultWriter() throws {
        let file = try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
              {"date":"2024-01-02 00:00:00 +0000","qty":55,"source":null},
              {"date":"2024-01-03 00:00:00 +0000","qty":56,"source":"  "}]}]}}
            """)
        #expect(file.batches.first?.resting.map(\.writer.name) == ["Health Auto Export", "Health Auto Export"])
    }

    @Test("a source of separators alone (\"|\", \" | \") names no writer: Health Auto Export, as an empty one")
    func separatorsAlone() throws {
        let file = try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
              {"date":"2024-01-02 00:00:00 +0000","qty":55,"source":"|"},
              {"date":"2024-01-03 00:00:00 +0000","qty":56,"source":" | "}]}]}}
            """)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.map(\.writer.name) == ["Health Auto Export", "Health Auto Export"])
        #expect(batch.watchWriters.isEmpty)
    }

    @Test("heart_rate points with Min/Avg/Max count per writer and day, context not set")
    func heartRatePoints() throws {
        let file = try read("""
            {"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[
              {"date":"2024-01-02 08:00:00 +0100","Min":52,"Avg":61.4,"Max":88,"source":"Jane’s Apple Watch"},
              {"date":"2024-01-02 09:00:00 +0100","Min":55,"Avg":70,"Max":120,"source":"Jane’s Apple Watch"},
              {"date":"2024-01-02 23:30:00 -0800","Min":50,"Avg":58,"Max":66,"source":"Jane’s Apple Watch"},
              {"date":"2024-01-02 10:00:00 +0100","Min":60,"Avg":64,"Max":70}
            ]}]}}
            """)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.isEmpty)
        // The point without a source is the payload's one named watch's.
        #expect(batch.heartRate.map { "\($0.writer.name) \($0.day) \($0.notSet) \($0.sedentary) \($0.active)" } == [
            "Jane’s Apple Watch 2024-01-02 4 0 0",
        ])
        #expect(batch.heartRate.allSatisfy { $0.writer.store == .healthKit && $0.recordKey == "" && $0.sedentaryMin == nil })
        #expect(file.recordsRead == 4)
    }

    @Test("a heart_rate point without any value is passed over naming it (R14)")
    func heartRateWithoutValue() throws {
        let file = try read("""
            {"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[{"date":"2024-01-02 08:00:00 +0100","source":"x"},
              {"date":"2024-01-02 09:00:00 +0100","Avg":"60"},{"date":"2024-01-02 10:00:00 +0100","Avg":61}]}]}}
            """)
        #expect(file.passedOver.records.map(\.reason) == [
            "data.metrics[0].data[0]: a heart_rate point carries Min, Avg and Max (or qty); this one has none",
            "data.metrics[0].data[1].Avg: expected a number, found a string"])
        #expect(file.passedOver.records.map(\.kind) == ["heart_rate points of a shape rhr does not read",
                                                          "heart_rate points whose Avg rhr cannot read"])
        #expect(file.batches[0].heartRate.map(\.total) == [1])
        #expect(file.recordsRead == 3)
    }

    @Test("unknown metrics' points are skipped and counted")
    func unknownMetrics() throws {
        let file = try read("""
            {"data":{"metrics":[
              {"name":"step_count","units":"count","data":[{"date":"2024-01-02 00:00:00 +0100","qty":8000}]},
              {"name":"resting_heart_rate","units":"count/min","data":[{"date":"2024-01-02 00:00:00 +0100","qty":55}]},
              {"name":"walking_heart_rate_average","units":"count/min","data":[{"date":"2024-01-02 00:00:00 +0100","qty":90}]}
            ],"workouts":[]}}
            """)
        #expect(file.skipped == ["points of other metrics": 2])
        #expect(file.recordsRead == 3)
        #expect(file.batches.first?.resting.map(\.value) == [55])
    }

    @Test("only skipped metrics, or no points at all: a batch that covers nothing, so the store remembers the import")
    func nothingToApply() throws {
        let file = try read("""
            {"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-01-02 00:00:00 +0100","qty":1}]},
              {"name":"resting_heart_rate","units":"count/min","data":[]}]}}
            """)
        let batch = try #require(file.batches.first)
        #expect(file.batches.count == 1)
        #expect(batch.resting.isEmpty && batch.heartRate.isEmpty)
        // An empty snapshot covers nothing: it replaces nothing an earlier file said.
        #expect(batch.snapshot == SyncBatch.Snapshot(from: nil, to: nil, coversResting: false, coversHeartRate: false))
        #expect(file.skipped == ["points of other metrics": 1])
        #expect(try read("{\"data\":{\"metrics\":[]}}").batches.first?.snapshot?.coversResting == false)
    }

    @Test("units: count/s is kept as delivered for the store to convert; points in other units are passed over, by path")
    func units() throws {
        let perSecond = try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/s","data":[{"date":"2024-01-02 00:00:00 +0100","qty":1}]}]}}
            """)
        let sample = try #require(perSecond.batches.first?.resting.first)
        #expect(sample.unit == "count/s")
        #expect(sample.bpm == 60)
        // R14: the metric's points are passed over, each naming the metric's units.
        let percent = try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"%","data":[{"date":"2024-01-02 00:00:00 +0100","qty":1}]}]}}
            """)
        #expect(percent.passedOver.records.map(\.reason) == ["data.metrics[0].units: unit \"%\" is not a heart rate unit (expected count/min, count/s or count/h)"])
        #expect(percent.batches[0].resting.isEmpty)
        let missing = try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","data":[{"date":"2024-01-02 00:00:00 +0100","qty":1}]}]}}
            """)
        #expect(missing.passedOver.records.map(\.reason) == ["data.metrics[0].units: missing; the unit of the values"])
    }

    @Test("zero and values over 300 are kept as delivered")
    func outOfRangeKept() throws {
        let batch = try #require(try read("""
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
              {"date":"2024-01-02 00:00:00 +0100","qty":0},{"date":"2024-01-03 00:00:00 +0100","qty":301}]}]}}
            """).batches.first)
        #expect(batch.resting.map(\.value) == [0, 301])
        #expect(batch.resting.allSatisfy { !$0.isInRange })
    }

    @Test("bad points are passed over naming their JSON path", arguments: [
        (#"{"date":"2024-13-02 00:00:00 +0100","qty":55}"#, #"data.metrics[0].data[1].date: "2024-13-02 00:00:00 +0100" is not a date like 2024-01-02 00:00:00 +0100"#),
        (#"{"date":"2024-01-02 00:00:00","qty":55}"#, #"data.metrics[0].data[1].date: "2024-01-02 00:00:00" is not a date like 2024-01-02 00:00:00 +0100"#),
        (#"{"qty":55}"#, "data.metrics[0].data[1].date: missing"),
        (#"{"date":"2024-01-02 00:00:00 +0100"}"#, "data.metrics[0].data[1].qty: missing; a resting point carries its value in qty"),
        (#"{"date":"2024-01-02 00:00:00 +0100","qty":"55"}"#, "data.metrics[0].data[1].qty: expected a number, found a string"),
        (#"{"date":"2024-01-02 00:00:00 +0100","qty":55,"source":7}"#, "data.metrics[0].data[1].source: expected a string, found an integer"),
        ("[55]", "data.metrics[0].data[1]: expected an object, found an array"),
    ])
    func badPoints(point: String, message: String) throws {
        let json = """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
              {"date":"2024-01-01 00:00:00 +0100","qty":54},\(point),{"date":"2024-01-03 00:00:00 +0100","qty":56}]}]}}
            """
        let file = try read(json)
        // R14: passed over at its byte and path, kept as its JSON; the points around it are read.
        #expect(file.batches[0].resting.map(\.value) == [54, 56])
        let passed = try #require(file.passedOver.records.first)
        #expect(file.passedOver.records.count == 1)
        #expect(passed.reason == message)
        let offset = Array(json.utf8).count - Array(json[json.range(of: point)!.lowerBound...].utf8).count
        #expect(passed.place == "byte \(offset), data.metrics[0].data[1]")
        #expect(try JSONParser.parse(Array(passed.raw.utf8)) == (try JSONParser.parse(Array(point.utf8))))
    }

    @Test("a file that is not Health Auto Export JSON says so")
    func notHealthAutoExport() throws {
        #expect(try readError(#"{"store":"healthkit","stream":"iphone"}"#).pathAndMessage == "data.metrics: missing; not Health Auto Export JSON")
        #expect(try readError(#"{"data":{"metrics":{}}}"#).pathAndMessage == "data.metrics: missing; not Health Auto Export JSON")
        #expect(try readError(#"{"data":{"metrics":[{"units":"count"}]}}"#).pathAndMessage == "data.metrics[0].name: missing; every metric has a name")
        let dir = try TemporaryDirectory()
        #expect(throws: InputError.cannotOpen(dir.file("none.json"), code: ENOENT)) {
            try HealthAutoExportReader.read(path: dir.file("none.json"), options: ImportOptions(machineZone: berlinZone), progress: nil)
        }
    }

    @Test("a JSON syntax error names the line, the byte offset and the path")
    func syntaxError() throws {
        let json = "{\"data\":{\"metrics\":[\n{\"name\":\"resting_heart_rate\",\"data\":[\n{\"date\":\"2024-01-02 00:00:00 +0100\",\"qty\":55,}]}]}}"
        let error = try readError(json)
        #expect(error.line == 3)
        let offset = try #require(error.offset)
        #expect(offset == Int64(Array(json.utf8).firstIndex(of: UInt8(ascii: "}"))!))
        #expect(error.place == InputPlace(line: 3, column: 46, byte: offset, path: "data.metrics[0].data[0]"))
        #expect(error.message == "a trailing ',' is not allowed before '}'")
        // A byte order mark is skipped, and offsets still count from the file's first byte.
        let withBOM = try readError("\u{FEFF}" + json)
        #expect(withBOM.offset == offset + 3)
        #expect(try read("\u{FEFF}" + Self.resting).batches.first?.resting.count == 4)
    }

    @Test("two files in a row: the second, covering the same days, no longer holds a removed point")
    func twoFilesInARow() throws {
        let first = try #require(try read(Self.resting).batches.first)
        let second = try #require(try read(Self.resting.replacingOccurrences(
            of: #"{"date":"2024-01-03 07:15:00 -0800","qty":61,"source":"Oura"},"#, with: "")).batches.first)
        let gone = Set(first.resting.map(\.identity)).subtracting(second.resting.map(\.identity))
        #expect(gone.count == 1)
        #expect(first.resting.first { gone.contains($0.identity) }?.writer.name == "Oura")
        #expect(second.snapshot?.from == first.snapshot?.from)
        #expect(second.snapshot?.to == first.snapshot?.to)
    }

    @Test("progress ends at the file's size")
    func progress() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("hae.json")
        try Data(Self.resting.utf8).write(to: URL(fileURLWithPath: path))
        let log = ProgressLog()
        _ = try HealthAutoExportReader.read(path: path, options: ImportOptions(machineZone: berlinZone),
                                            progress: { log.append(($0, $1)) })
        #expect(log.all.last.map { [$0.0, $0.1] } == [Int64(Self.resting.utf8.count), Int64(Self.resting.utf8.count)])
    }
}
