import Foundation
import RHRCore
import RHRJSON
@testable import RHRFormats
import RHRTestSupport
import Testing

/// Health Auto Export read as it streams by: other shapes of the document, bounded names, files far larger than
/// the window, and the same body in memory (the HTTP feed's entry point).
@Suite("Health Auto Export, streamed")
struct HealthAutoExportStreamTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func read(_ json: String) throws(InputError) -> ImportedFile {
        let path = try! dir.write("hae.json", Array(json.utf8))
        return try HealthAutoExportReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil)
    }

    func readBytes(_ json: String) throws(InputError) -> ImportedFile {
        try HealthAutoExportReader.read(bytes: Array(json.utf8), label: "POST /v1/health-auto-export", stream: "http-phone",
                                        options: ImportOptions(machineZone: berlinZone))
    }

    /// The error reading `json` gives (recorded as an issue, without the file it read, when there is none).
    func error(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> InputError {
        do {
            let file = try read(json)
            Issue.record("no error; read \(file.recordsRead) records", sourceLocation: sourceLocation)
            return InputError(path: "", message: "")
        } catch {
            return error
        }
    }

    @Test("without the data wrapper; a combined source is a writer of its own; no source is the one named watch's")
    func unwrapped() throws {
        let file = try HealthAutoExportReader.read(path: SourceTree.samples + "/odd-exports/hae-unwrapped.json",
                                                   options: ImportOptions(machineZone: berlinZone), progress: nil)
        let batch = try #require(file.batches.first)
        #expect(batch.resting.map(\.writer.name) == ["Jane’s Apple Watch + Oura (combined)", "Jane’s Apple Watch",
                                                      "Jane’s Apple Watch"])
        #expect(batch.resting.map(\.value) == [55, 56, 57])
        // Never matched to either writer alone: another writer, another identity.
        #expect(batch.resting[0].identity != batch.resting[1].identity)
        // The point without a source is the one watch the file names (the combined source is no single writer's).
        #expect(batch.watchWriters.isEmpty)
        #expect(file.skipped == ["points of other metrics": 1])
        #expect(file.recordsRead == 4)
    }

    @Test("the same body from memory reads the same, on the road it is given, named by its label")
    func fromMemory() throws {
        let fromFile = try read(HealthAutoExportReaderTests.resting)
        let fromMemory = try readBytes(HealthAutoExportReaderTests.resting)
        #expect(fromMemory.batches.first?.resting == fromFile.batches.first?.resting)
        #expect(fromMemory.batches.first?.stream == "http-phone")
        #expect(fromMemory.path == "POST /v1/health-auto-export")
        let bad = try #require(throws: InputError.self) { try readBytes(#"{"metrics":[{"name":"step_count","data":[{},]}]}"#) }
        #expect(bad.path == "POST /v1/health-auto-export")
        #expect(bad.pathAndMessage == "metrics[0].data[1]: a trailing ',' is not allowed before ']'")
        #expect(try HealthAutoExportReader.read(bytes: Array(HealthAutoExportReaderTests.resting.utf8), label: "body", stream: "http-x",
                                                options: ImportOptions(machineZone: berlinZone)).recordsRead == 4)
    }

    @Test("members in any order: points before the name and units are read once the metric's end tells what they are")
    func dataBeforeName() throws {
        let json = """
            {"data":{"metrics":[{"data":[{"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"Oura"}],
              "units":"count/min","name":"resting_heart_rate"},
              {"name":"resting_heart_rate","data":[{"date":"2024-01-03 00:00:00 +0100","qty":56}],"units":"count/min"}]}}
            """
        for file in [try read(json), try readBytes(json)] {
            #expect(file.batches.first?.resting.map(\.value) == [55, 56])
        }
    }

    @Test("names are bounded: a point whose writer is over 256 bytes is passed over, a unit or metric name refused, with its place")
    func boundedNames() throws {
        let long = String(repeating: "x", count: 257)
        let json = """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[
              {"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"\(long)"}]}]}}
            """
        let source = try #require(try read(json).passedOver.records.first)
        #expect(source.reason == "data.metrics[0].data[0].source: longer than 256 bytes; not a writer's name")
        #expect(source.place == "byte \(Array(json.utf8).count - Array(json[json.range(of: "{\"date")!.lowerBound...].utf8).count), data.metrics[0].data[0]")
        let units = try error(#"{"metrics":[{"name":"resting_heart_rate","units":"\#(long)","data":[]}]}"#)
        #expect(units.pathAndMessage == "metrics[0].units: longer than 256 bytes; not a metric's units")
        #expect(units.offset == 49)
        // 256 bytes is a name still (UTF-8 bytes, not characters).
        let fits = String(repeating: "é", count: 128)
        let ok = try read("""
            {"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[{"date":"2024-01-02 00:00:00 +0100","qty":55,"source":"\(fits)"}]}]}
            """)
        #expect(ok.batches.first?.resting.first?.writer.name == fits)
    }

    @Test("a metric that is not an object, has no name, or whose data is not an array: the error names its line and byte")
    func shapeErrorPositions() throws {
        func offset(of marker: String, in json: String) -> Int64 {
            Int64(json.utf8.distance(from: json.startIndex, to: json.range(of: marker)!.lowerBound))
        }
        let number = "{\"metrics\":[\n 55]}"
        let notObject = try error(number)
        #expect(notObject.pathAndMessage == "metrics[0]: expected an object, found an integer")
        #expect(notObject.line == 2 && notObject.offset == offset(of: "55", in: number))
        // Too long to look at: said plainly, not taken for some other kind of value.
        let longString = "{\"metrics\":[\n \"" + String(repeating: "a", count: 70 << 10) + "\"]}"
        let long = try error(longString)
        #expect(long.pathAndMessage == "metrics[0]: expected an object")
        #expect(long.line == 2 && long.offset == offset(of: "\"a", in: longString))
        let unnamed = "{\"metrics\":[\n {\"units\":\"count\"}]}"
        let noName = try error(unnamed)
        #expect(noName.pathAndMessage == "metrics[0].name: missing; every metric has a name")
        #expect(noName.line == 2 && noName.offset == offset(of: "{\"units", in: unnamed))
        for json in ["{\"metrics\":[{\"name\":\"heart_rate\",\"data\":\n {}}]}",
                     "{\"metrics\":[{\"data\":\n {},\"name\":\"heart_rate\"}]}"] {
            let notArray = try error(json)
            #expect(notArray.pathAndMessage == "metrics[0].data: expected an array")
            #expect(notArray.line == 2 && notArray.offset == offset(of: "{}", in: json))
        }
    }

    @Test("a point with a 20 MB source is passed over at its place, without keeping it")
    func hugeName() throws {
        var json = Array(#"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[{"date":"2024-01-02 00:00:00 +0100","Avg":60,"source":""#.utf8)
        let pointStart = json.count - #"{"date":"2024-01-02 00:00:00 +0100","Avg":60,"source":""#.utf8.count
        json += [UInt8](repeating: UInt8(ascii: "a"), count: 20 << 20)
        json += Array(#""}]}]}}"#.utf8)
        let path = try dir.write("huge.json", json)
        let file = try HealthAutoExportReader.read(path: path, options: ImportOptions(machineZone: berlinZone), progress: nil)
        let passed = try #require(file.passedOver.records.first)
        #expect(passed.reason.hasPrefix("a point longer than 64 KiB"))
        #expect(passed.place == "byte \(pointStart), data.metrics[0].data[0]")
        #expect(passed.raw.isEmpty)
    }

    @Test("JSON that is not well formed is refused wherever it is, also in the metrics rhr skips")
    func syntaxEverywhere() throws {
        #expect(try error(#"{"data":{"metrics":[{"name":"step_count","data":[1,2,]}]}}"#).pathAndMessage
                == "data.metrics[0].data[2]: a trailing ',' is not allowed before ']'")
        // Inside a value passed over, the path names the innermost value, as the parser's does.
        #expect(try error(#"{"data":{"metrics":[]},"workouts":[01]}"#).pathAndMessage == "workouts[0]: leading zeros are not allowed")
        #expect(try error(#"{"data":{"metrics":[]}} x"#).pathAndMessage == "unexpected 'x' after the JSON value")
        #expect(try error(#"{"metrics":[],"metrics":[]}"#).pathAndMessage == "metrics: duplicate key")
        #expect(try error("{\"metrics\":[{\"name\":\"heart_rate\",\"data\":[\"\u{01}\"]}]}").pathAndMessage
                == "metrics[0].data[0]: control character U+0001 must be escaped in a string")
        #expect(try error("").message == "the file is empty")
        let cut = try error(#"{"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[{"date":"2024-01-02 00:00:00 +0100","qty":5"#)
        #expect(cut.pathAndMessage == "data.metrics[0].data[0].qty: expected ',' or '}' after an object member, found the end of the input")
    }

    @Test("a file far larger than the window streams through: points across window edges, lines counted")
    func largeFile() throws {
        var text = #"{"data":{"metrics":["#
        text += #"{"name":"step_count","units":"count","data":["# + String(repeating: #"{"date":"2024-01-01 00:00:00 +0100","qty":1,"source":"iPhone"},"#, count: 40_000)
        text += #"{"date":"2024-01-01 00:00:00 +0100","qty":1}]},"# + "\n"
        text += #"{"name":"heart_rate","units":"count/min","data":["#
        var points: [String] = []
        for i in 0..<30_000 {
            let day = LocalDay("2020-01-01")!.adding(days: i / 24)
            points.append(#"{"date":"\#(day) \#(i % 24 < 10 ? "0" : "")\#(i % 24):00:00 +0100","Min":50,"Avg":\#(60 + i % 7),"Max":90,"source":"Jane’s Apple Watch"}"#)
        }
        text += points.joined(separator: ",\n") + "]}]}}"
        let file = try read(text)
        #expect(text.utf8.count > 3 * JSONStreamScanner.windowSize)
        // The other metric's 40,001 points are read and skipped (the account, docs/design.md R14).
        #expect(file.recordsRead == 70_001 && file.skipped == ["points of other metrics": 40_001])
        #expect(file.batches.first?.heartRate.count == 1250)
        #expect(file.batches.first?.heartRate.allSatisfy { $0.total == 24 } == true)
        // An error far into the file names its line.
        #expect(text.hasSuffix(#""}]}]}}"#))
        let broken = String(text.dropLast(6)) + ",}]}]}}"
        let e = try error(broken)
        #expect(e.line == 30_001)
        #expect(e.pathAndMessage == "data.metrics[1].data[29999]: a trailing ',' is not allowed before '}'")
    }
}

extension InputError {
    /// The JSON path and what is wrong there, as the error says them after the line, column and byte.
    var pathAndMessage: String { InputPlace(path: place.path).words(message) }
}
