import Foundation
import RHRCore
import RHRJSON
import RHRTestSupport
import Testing

/// Plain output never writes a control character rhr did not mean: text a feed made up, with ESC, OSC,
/// CSI, C1, DEL or NUL in it, comes out named in words (`<escape>`), in the summary, the status, the CSV, the
/// messages; the JSON export escapes it as JSON does, and reads back to the same text. A writer's *name* with such a
/// character never reaches the store (R14 passes its record over, and what is said of it is escaped too); an app's
/// display name, which names nothing, is kept and shown escaped.
@Suite("Plain output with hostile names")
struct PlainOutputTests {
    /// Names to take over a terminal: a title change (OSC), a colour (CSI by ESC), a C1 CSI, DEL, a NUL.
    static let names = ["\u{1B}]0;owned\u{7}Watch", "Red\u{1B}[31mScale", "C1\u{9B}2JRing", "Del\u{7F}Band", "Tester\u{0}Watch"]
    static let shown = ["<escape>]0;owned<bell>Watch", "Red<escape>[31mScale", "C1<control character 155>2JRing", "Del<delete>Band",
                         "Tester<null>Watch"]

    /// One sync batch file: the five names as Health Connect apps' display names (packages com.example.app0…4),
    /// then as HealthKit source names, its cursor with an ESC too; imported into the sandbox's store.
    static func imported(verbose: Bool = false) throws -> (rhr: InProcessRHR, imported: SubprocessResult) {
        let rhr = try InProcessRHR()
        let apps = names.enumerated().map { i, name -> JSONValue in
            ["type": "RestingHeartRate", "time": "2026-03-10T06:00:00Z", "zoneOffset": "+01:00",
             "beatsPerMinute": .number(JSONNumber(55 + i)),
             "metadata": ["id": .string(String(format: "%032x", i + 1)), "lastModifiedTime": "2026-03-10T06:00:00Z",
                          "dataOrigin": ["packageName": .string("com.example.app\(i)"), "appName": .string(name)]]]
        }
        let sources = names.enumerated().map { i, name -> JSONValue in
            ["type": "restingHeartRate", "start": "2026-03-10T00:03:00+01:00", "end": "2026-03-10T23:48:00+01:00",
             "value": .number(JSONNumber(55 + i)), "unit": "count/min", "source": ["name": .string(name)]]
        }
        let healthConnect: JSONValue = ["store": "healthconnect", "stream": "phone", "asOf": "2026-03-10T23:59:00+01:00",
                                        "cursor": ["previous": .null, "next": "c\u{1B}[2J1"], "upserted": .array(apps)]
        let healthKit: JSONValue = ["store": "healthkit", "stream": "iphone", "asOf": "2026-03-10T23:59:00+01:00",
                                    "cursor": ["previous": .null, "next": "k1"], "upserted": .array(sources)]
        let file = rhr.sandbox.directory.file("batches.jsonl")
        try Data((JSONWriter.string(healthConnect) + "\n" + JSONWriter.string(healthKit) + "\n").utf8)
            .write(to: URL(fileURLWithPath: file))
        let result = rhr.run(["import"] + (verbose ? ["--verbose"] : []) + [file])
        #expect(result.status == 0, "\(result.stderr)")
        return (rhr, result)
    }

    /// No NUL, C0 (but the line feed), DEL or C1 in `text`.
    static func expectNoControl(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let raw = text.unicodeScalars.filter { TextGate.isControl($0) && $0 != "\n" }
        #expect(raw.isEmpty, "\(what) writes \(raw.map { String($0.value, radix: 16) }) raw", sourceLocation: sourceLocation)
    }

    @Test func theSummaryShowsControlCharactersInAppNamesVisibly() throws {
        let rhr = try Self.imported().rhr
        let summary = rhr.run(["summary"])
        #expect(summary.status == 0)
        Self.expectNoControl(summary.stdout, "rhr summary")
        for (i, shown) in Self.shown.enumerated() {
            #expect(summary.stdout.contains("\(shown) (com.example.app\(i))"), "\(shown)")
        }
    }

    @Test func theImportSaysWhatItPassedOverVisibly() throws {
        let (_, imported) = try Self.imported(verbose: true)
        Self.expectNoControl(imported.stdout + imported.stderr, "rhr import --verbose")
        let said = imported.stdout + imported.stderr
        #expect(said.contains("5 HealthKit upserts whose source.name rhr cannot read (first at line 2, upserted[0])"), "\(said)")
        for shown in Self.shown { #expect(said.contains("name \"\(shown)\" holds"), "\(shown)") }
    }

    @Test func theStatusShowsAControlCharacterInACursorVisibly() throws {
        let rhr = try Self.imported().rhr
        let status = rhr.run(["status"])
        Self.expectNoControl(status.stdout, "rhr status")
        #expect(status.stdout.contains("cursor c<escape>[2J1"), "\(status.stdout)")
        #expect(status.stdout.contains("passed over: 5 records, kept in the store raw:"), "\(status.stdout)")
    }

    @Test func theCSVShowsThemVisiblyAndTheJSONEscapesThemAsJSONDoes() throws {
        let rhr = try Self.imported().rhr
        let csv = rhr.run(["export"])
        Self.expectNoControl(csv.stdout, "rhr export")
        for (i, shown) in Self.shown.enumerated() {
            #expect(csv.stdout.contains(",healthconnect,com.example.app\(i),\(shown),latest,"), "\(shown)")
        }
        let json = rhr.run(["export", "--format", "json"])
        Self.expectNoControl(json.stdout, "rhr export --format json")
        #expect(json.stdout.contains(#""C1\u009b2JRing""#) && json.stdout.contains(#""Del\u007fBand""#))
        let rows = try JSONParser.parse(json.stdout).array ?? []
        #expect(Set(rows.compactMap { $0["writer_name"]?.string }) == Set(Self.names))
    }

    @Test func aMessageNamingAFileShowsControlCharactersInItsNameVisibly() throws {
        let rhr = try InProcessRHR()
        let path = rhr.sandbox.directory.file("\u{1B}]0;owned\u{7}.json")
        let result = rhr.run(["import", path])
        #expect(result.status == 1)
        Self.expectNoControl(result.stderr, "rhr import's error")
        #expect(result.stderr.contains("<escape>]0;owned<bell>.json"), "\(result.stderr)")
    }
}
