import Foundation
import RHRCore
import RHRJSON
import RHRTestSupport
import Testing
@testable import RHRFormats

@Suite("BatchFileReader")
struct BatchFileReaderTests {
    static let options = ImportOptions(machineZone: TimeZone(identifier: "UTC")!)

    static func line(_ i: Int, start: String = "2026-11-28T06:12:00Z") -> String {
        #"{"store":"healthconnect","stream":"s\#(i)","asOf":"2026-11-29T08:00:00Z","upserted":[{"type":"RestingHeartRate","#
            + #""time":"\#(start)","zoneOffset":"+01:00","beatsPerMinute":\#(50 + i % 20),"#
            + #""metadata":{"id":"id-\#(i)","dataOrigin":"com.ouraring.oura"}}]}"#
    }

    static func healthKitLine(start: String) -> String {
        #"{"store":"healthkit","stream":"iphone","asOf":"2026-11-29T08:00:00+01:00","upserted":[{"type":"restingHeartRate","#
            + #""start":"\#(start)","end":"2026-11-28T23:48:44+01:00","value":58,"unit":"count/min","#
            + #""source":{"name":"Watch"}}]}"#
    }

    private func readError(_ path: String) -> InputError? {
        #expect(throws: InputError.self) { try BatchFileReader.read(path: path, options: Self.options, progress: nil) }
    }

    @Test("a bad upsert on line 3 is passed over, named by line and JSON path; a bad batch on line 3 refuses the file")
    func badLineThree() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("batches.jsonl", [Self.line(1), Self.line(2), Self.healthKitLine(start: "yesterday"),
                                                  Self.line(4)].joined(separator: "\n") + "\n")
        let file = try BatchFileReader.read(path: path, options: Self.options, progress: nil)
        #expect(file.batches.count == 4)
        #expect(file.passedOver.records.map(\.place) == ["line 3, upserted[0]"])
        #expect(file.passedOver.records.map(\.reason) == ["upserted[0].start: not an ISO-8601 date"])
        #expect(file.passedOver.source == path)

        // A batch rhr cannot read at all (its cursor chain would break without it) refuses the file.
        let bad = Self.healthKitLine(start: "2026-11-28T00:03:12+01:00").replacingOccurrences(of: "\"asOf\":\"2026-11-29T08:00:00+01:00\"",
                                                                                              with: "\"asOf\":\"yesterday\"")
        let refused = try dir.write("refused.jsonl", [Self.line(1), Self.line(2), bad].joined(separator: "\n") + "\n")
        let error = try #require(readError(refused))
        #expect(error.path == refused)
        #expect(error.line == 3)
        #expect(error.place == InputPlace(line: 3, path: "asOf"))
        #expect(error.message == "not an ISO-8601 date")
        #expect(error.description == "\(refused): line 3, asOf: not an ISO-8601 date")
    }

    @Test("a syntax error names the line and the column")
    func syntaxError() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("b.jsonl", Self.line(1) + "\n" + #"{"store":"healthkit" "stream":"x"}"# + "\n")
        let error = try #require(readError(path))
        #expect(error.place == InputPlace(line: 2, column: 22, path: "store"))
        #expect(error.message == "expected ',' or '}' after an object member, found '\"'")
        #expect(error.description == "\(path): line 2, column 22, store: expected ',' or '}' after an object member, found '\"'")

        let truncated = try dir.write("t.jsonl", Self.line(1) + "\n" + String(Self.line(2).dropLast(5)))
        let cut = try #require(readError(truncated))
        #expect(cut.place == InputPlace(line: 2, column: 218, path: "upserted[0].metadata.dataOrigin"))
        #expect(cut.message == "unterminated string")
    }

    @Test("a line that is JSON but not an object is refused")
    func notAnObject() throws {
        let dir = try TemporaryDirectory()
        let error = try #require(readError(try dir.write("a.jsonl", "[1,2]\n")))
        #expect(error.description.hasSuffix("a.jsonl: line 1: a batch must be a JSON object, not an array"))
    }

    @Test("CRLF, blank and whitespace-only lines, no final newline; line numbers count every line")
    func lineEnds() throws {
        let dir = try TemporaryDirectory()
        let text = "\r\n" + Self.line(1) + "\r\n   \r\n\t\n" + Self.line(2) + "\r\n\n" + Self.line(3)
        let file = try BatchFileReader.read(path: try dir.write("crlf.jsonl", text), options: Self.options, progress: nil)
        #expect(file.batches.map(\.stream) == ["s1", "s2", "s3"])

        let bad = "\r\n" + Self.line(1) + "\r\n   \r\n\t\n" + Self.healthKitLine(start: "2026-11-28T00:03:12") + "\r\n"
        let passed = try BatchFileReader.read(path: try dir.write("bad.jsonl", bad), options: Self.options, progress: nil).passedOver
        #expect(passed.records.map(\.place) == ["line 5, upserted[0]"])
        #expect(passed.records.map(\.reason) == ["upserted[0].start: not an ISO-8601 date: the offset (Z or ±HH:MM) is missing"])
    }

    @Test("a byte order mark is accepted at the start of the file only")
    func byteOrderMark() throws {
        let dir = try TemporaryDirectory()
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let ok = try dir.write("bom.jsonl", bom + Array((Self.line(1) + "\n").utf8))
        #expect(try BatchFileReader.read(path: ok, options: Self.options, progress: nil).batches.count == 1)

        let second = try dir.write("bom2.jsonl", Array((Self.line(1) + "\n").utf8) + bom + Array(Self.line(2).utf8))
        let error = try #require(readError(second))
        #expect(error.place == InputPlace(line: 2, column: 1))
        #expect(error.message == "expected a value, found byte 0xEF")

        // Columns on the first line still count the mark as a character.
        let shifted = try dir.write("bom3.jsonl", bom + Array("{\"a\" 1}".utf8))
        #expect(readError(shifted)?.place == InputPlace(line: 1, column: 7, path: "a"))
        #expect(readError(shifted)?.message == "expected ':' after an object key, found '1'")
    }

    @Test("a batch line's JSON: the first line's byte order mark passed over and counted, blank lines skipped")
    func batchLineJSON() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let limit = JSONLineFramer.defaultMaxLineLength
        #expect(try SyncBatchLines.json(.line(bom + Array("{}".utf8), number: 1), maxLineLength: limit) == .object(JSONObject()))
        let later = #expect(throws: SyncBatchLines.Refusal.self) {
            try SyncBatchLines.json(.line(bom + Array("{}".utf8), number: 2), maxLineLength: limit)
        }
        #expect(later == SyncBatchLines.Refusal(kind: .notJSON, place: InputPlace(line: 2, column: 1),
                                                 message: "expected a value, found byte 0xEF"))
        #expect(try SyncBatchLines.json(.line(Array(" \t\r".utf8), number: 3), maxLineLength: limit) == nil)
        #expect(try SyncBatchLines.json(.line(bom, number: 1), maxLineLength: limit) == nil)
        let long = #expect(throws: SyncBatchLines.Refusal.self) { try SyncBatchLines.json(.tooLong(number: 4), maxLineLength: limit) }
        #expect(long?.description == "line 4: longer than 16 MiB, the limit for one batch")
    }

    @Test("a line over 16 MiB is refused with its number, even when the lines before are fine")
    func tooLong() throws {
        let dir = try TemporaryDirectory()
        let padding = String(repeating: " ", count: 16 * 1024 * 1024)
        let path = try dir.write("big.jsonl", Self.line(1) + "\n" + #"{"store":"healthkit","pad":""# + padding + "\"}\n" + Self.line(3))
        let error = try #require(readError(path))
        #expect(error.place == InputPlace(line: 2))
        #expect(error.message == "longer than 16 MiB, the limit for one batch")

        // Just under the limit is fine: whitespace is JSON whitespace.
        let fits = try dir.write("fits.jsonl", Self.line(1) + String(repeating: " ", count: 16 * 1024 * 1024 - Self.line(1).utf8.count) + "\r\n")
        #expect(try BatchFileReader.read(path: fits, options: Self.options, progress: nil).batches.count == 1)
    }

    @Test("a file of many chunks: every line, in order, with progress up to the file's size")
    func manyChunks() throws {
        let dir = try TemporaryDirectory()
        let count = 9000
        let text = (1...count).map { Self.line($0) }.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 2 * BatchFileReader.chunkSize)
        let path = try dir.write("many.jsonl", text)
        let log = ProgressLog()
        let file = try BatchFileReader.read(path: path, options: Self.options, progress: { log.append(($0, $1)) })
        #expect(file.kind == .syncBatches)
        #expect(file.path == path)
        #expect(file.batches.count == count)
        #expect(file.recordsRead == count)
        #expect(file.batches.first?.stream == "s1")
        #expect(file.batches.last?.stream == "s\(count)")
        #expect(file.batches.allSatisfy { $0.origin == "many.jsonl" && $0.store == .healthConnect })
        #expect(file.batches[41].resting.first?.uuid == "id42")
        #expect(file.batches[41].resting.first?.value == Double(50 + 42 % 20))
        let calls = log.all
        // A call a chunk, and the last at the end.
        #expect(calls.map(\.0) == [Int64(BatchFileReader.chunkSize), Int64(2 * BatchFileReader.chunkSize), Int64(text.utf8.count)])
        #expect(calls.last.map { $0.0 == $0.1 && $0.0 == Int64(text.utf8.count) } == true)
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.0 < $1.0 })

        // A bad line deep in the file is named by its number across chunk boundaries.
        var lines = (1...count).map { Self.line($0) }
        lines[7776] = Self.line(7777, start: "2026-13-01T00:00:00Z")
        let passed = try BatchFileReader.read(path: try dir.write("bad.jsonl", lines.joined(separator: "\n")), options: Self.options,
                                              progress: nil).passedOver
        #expect(passed.records.map(\.place) == ["line 7777, upserted[0]"])
        #expect(passed.records.map(\.reason) == ["upserted[0].time: not an ISO-8601 date"])
    }

    /// What `rhr import` and the folder watch read a file of batches with (`FileImporter.open`): a batch at a time, so
    /// the first batches of a FIFO are handed out while its writer has not finished; nothing is held but the batch.
    @Test("a file of batches opened to import is read a batch at a time, as it is asked for", .timeLimit(.minutes(1)))
    func openedToStream() throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.file("feed.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        // More than the 64 KiB rhr looks at to tell the kind, then a pause until the test has its first batches.
        let first = (1...400).map { Self.line($0) }.joined(separator: "\n") + "\n"
        let carryOn = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            func write(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            write(first)
            carryOn.wait()
            write(Self.line(401) + "\n")
            close(fd)
        }
        writer.start()
        let opened = try FileImporter.open(path: fifo, options: Self.options)
        let stream = try #require(opened.stream)
        #expect(opened.batches.isEmpty)
        #expect(stream.place == nil)
        #expect(try stream.next()?.stream == "s1")
        #expect(try stream.next()?.stream == "s2")
        #expect(stream.place == "line 2")
        #expect(stream.recordsRead == 2, "read ahead of what was asked for")
        carryOn.signal()
        var streams: [String] = []
        while let batch = try stream.next() { streams.append(batch.stream) }
        #expect(streams == (3...401).map { "s\($0)" })
        #expect(opened.recordsRead == 401)
    }

    @Test("an empty file or one of blank lines holds no batches")
    func empty() throws {
        let dir = try TemporaryDirectory()
        for text in ["", "\n\n", "  \r\n\t"] {
            let file = try BatchFileReader.read(path: try dir.write("e.jsonl", text), options: Self.options, progress: nil)
            #expect(file.batches.isEmpty)
            #expect(file.recordsRead == 0)
        }
    }

    @Test("a missing file and a directory are named as such")
    func notAFile() throws {
        let dir = try TemporaryDirectory()
        #expect(readError(dir.path + "/nope.jsonl") == InputError.cannotOpen(dir.path + "/nope.jsonl", code: ENOENT))
        #expect(readError(dir.path + "/nope.jsonl")?.description == "\(dir.path)/nope.jsonl: no such file")
        // A file that is not there now may be there later (the folder watch tries again); a directory is no file of batches.
        #expect(readError(dir.path + "/nope.jsonl")?.isTransient == true)
        #expect(readError(dir.path) == InputError(path: dir.path, message: "is a directory"))
    }

    @Test("the machine zone reaches the decoder (R5: Health Connect heart rate without an offset)")
    func machineZone() throws {
        let dir = try TemporaryDirectory()
        let line = #"{"store":"healthconnect","stream":"p","asOf":"2026-11-29T08:00:00Z","upserted":[{"type":"HeartRate","#
            + #""startTime":"2026-11-29T04:30:00Z","endTime":"2026-11-29T04:30:00Z","samples":[{"time":"2026-11-29T04:30:00Z","#
            + #""beatsPerMinute":60}],"metadata":{"id":"x","dataOrigin":"com.fitbit.FitbitMobile"}}]}"#
        let path = try dir.write("hr.jsonl", line)
        let newYork = ImportOptions(machineZone: TimeZone(identifier: "America/New_York")!)
        #expect(try BatchFileReader.read(path: path, options: newYork, progress: nil).batches.first?.heartRate.first?.day
            == LocalDay("2026-11-28"))
        #expect(try BatchFileReader.read(path: path, options: Self.options, progress: nil).batches.first?.heartRate.first?.day
            == LocalDay("2026-11-29"))
    }
}
