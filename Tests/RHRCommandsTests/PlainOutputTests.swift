import Foundation
import RHRCore
import RHRJSON
import RHRTestSupport
import Testing

/// Plain output never writes a control character rhr did not mean (issue 27): names a feed made up, with ESC, OSC,
/// CSI, C1, DEL or NUL in them, come out escaped visibly (`\u{1B}`), in the summary, the status, the CSV, the
/// messages; the JSON export escapes them as JSON does, and reads back to the same names.
@Suite("Plain output with hostile names")
struct PlainOutputTests {
    /// Writers named to take over a terminal: a title change (OSC), a colour (CSI by ESC), a C1 CSI, DEL, a NUL.
    static let names = ["\u{1B}]0;owned\u{7}Watch", "Red\u{1B}[31mScale", "C1\u{9B}2JRing", "Del\u{7F}Band", "Tester\u{0}Watch"]
    static let shown = ["\\u{1B}]0;owned\\u{7}Watch", "Red\\u{1B}[31mScale", "C1\\u{9B}2JRing", "Del\\u{7F}Band", "Tester\\u{0}Watch"]

    /// One sync batch from the five writers, its cursor with an ESC too, as a file; imported into the sandbox's store.
    static func imported() throws -> InProcessRHR {
        let rhr = try InProcessRHR()
        let upserted = names.enumerated().map { i, name -> JSONValue in
            ["type": "restingHeartRate", "start": "2026-03-10T00:03:00+01:00", "end": "2026-03-10T23:48:00+01:00",
             "value": .number(JSONNumber(55 + i)), "unit": "count/min", "source": ["name": .string(name)]]
        }
        let batch: JSONValue = ["store": "healthkit", "stream": "iphone", "asOf": "2026-03-10T23:59:00+01:00",
                                "cursor": ["previous": .null, "next": "c\u{1B}[2J1"], "upserted": .array(upserted)]
        let file = rhr.sandbox.directory.file("batches.jsonl")
        try Data((JSONWriter.string(batch) + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let result = rhr.run(["import", file])
        #expect(result.status == 0, "\(result.stderr)")
        return rhr
    }

    /// No NUL, C0 (but the line feed), DEL or C1 in `text`.
    static func expectNoControl(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter { TextGate.isControl($0) && $0 != "\n" }
        #expect(raw.isEmpty, "\(what) writes \(raw.map { String($0.value, radix: 16) }) raw", sourceLocation: sourceLocation)
    }

    @Test func theSummaryShowsControlCharactersInNamesVisibly() throws {
        let rhr = try Self.imported()
        let summary = rhr.run(["summary"])
        #expect(summary.status == 0)
        Self.expectNoControl(summary.stdout, "rhr summary")
        for shown in Self.shown { #expect(summary.stdout.contains("HK \(shown)"), "\(shown)") }
        #expect(summary.stdout.contains("HK Tester\\u{0}Watch: HealthKit estimate by Tester\\u{0}Watch"))
    }

    @Test func theStatusShowsAControlCharacterInACursorVisibly() throws {
        let rhr = try Self.imported()
        let status = rhr.run(["status"])
        Self.expectNoControl(status.stdout, "rhr status")
        #expect(status.stdout.contains("cursor c\\u{1B}[2J1"), "\(status.stdout)")
    }

    @Test func theCSVShowsThemVisiblyAndTheJSONEscapesThemAsJSONDoes() throws {
        let rhr = try Self.imported()
        let csv = rhr.run(["export"])
        Self.expectNoControl(csv.stdout, "rhr export")
        for shown in Self.shown { #expect(csv.stdout.contains(",healthkit,\(shown),\(shown),latest,"), "\(shown)") }
        let json = rhr.run(["export", "--format", "json"])
        Self.expectNoControl(json.stdout, "rhr export --format json")
        #expect(json.stdout.contains(#""C1\u009b2JRing""#) && json.stdout.contains(#""Del\u007fBand""#))
        let rows = try JSONParser.parse(json.stdout).array ?? []
        #expect(Set(rows.compactMap { $0["writer"]?.string }) == Set(Self.names))
    }

    @Test func aMessageNamingAFileShowsControlCharactersInItsNameVisibly() throws {
        let rhr = try InProcessRHR()
        let path = rhr.sandbox.directory.file("\u{1B}]0;owned\u{7}.json")
        let result = rhr.run(["import", path])
        #expect(result.status == 1)
        Self.expectNoControl(result.stderr, "rhr import's error")
        #expect(result.stderr.contains("\\u{1B}]0;owned\\u{7}.json"), "\(result.stderr)")
    }
}
