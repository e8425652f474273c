import Foundation
import RHRCore
import RHRFormats
import RHRJSON
import Testing

/// The one encoder of a day value: `rhr export --format json` and the daemon's `days` reply.
@Suite("DayValueJSON")
struct DayValueJSONTests {
    let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    let asOf = Timestamp(epochSeconds: 1_795_935_600, offsetSeconds: 3600)

    func value(_ bpm: Double?, _ aggregation: Aggregation) -> DayValue {
        DayValue(day: LocalDay("2026-11-28")!, writer: oura, aggregation: aggregation, bpm: bpm, samples: bpm == nil ? 0 : 2,
                 outOfRange: 1, provisional: false, offsetAssumed: true, asOf: asOf)
    }

    @Test func theExportsKeysInTheCSVsOrder() {
        let object = DayValueJSON.encode(value(58, .latest)).object!
        #expect(object.keys == ["date", "store", "writer", "writer_name", "aggregate", "bpm", "samples", "provisional",
                                "offset_assumed", "out_of_range", "implausible_date"])
        #expect(object.keys == DayValueJSON.keys)
        #expect(JSONWriter.string(.object(object)) == #"{"date":"2026-11-28","store":"healthconnect","writer":"com.ouraring.oura","#
            + #""writer_name":"Oura","aggregate":"latest","bpm":58,"samples":2,"provisional":false,"offset_assumed":true,"out_of_range":1,"implausible_date":0}"#)
        // The daemon's reply adds what the CSV has no column for, after the same keys.
        let withProvenance = DayValueJSON.encode(value(58, .latest), provenance: true).object!
        #expect(withProvenance.keys == DayValueJSON.keys + ["appName", "asOf"])
        #expect(withProvenance["asOf"] == "2026-11-29T08:00:00+01:00")
    }

    @Test("bpm is the number the text says (R6)", arguments: [
        (58.0, Aggregation.latest, "58"), (58.5, .latest, "58.5"), (57.53, .lowest, "57.5"), (56.0, .mean, "56.0"),
        (57.25, .mean, "57.2"), (171.0 / 3, .mean, "57.0"),
    ])
    func bpmIsTheText(_ bpm: Double, _ aggregation: Aggregation, _ text: String) {
        let day = value(bpm, aggregation)
        #expect(day.bpmText == text)
        #expect(JSONWriter.string(DayValueJSON.encode(day)["bpm"]!) == text)
    }

    @Test func noValidSampleIsNull() {
        #expect(DayValueJSON.encode(value(nil, .latest))["bpm"] == .null)
    }

    @Test func readsBackWhatItWrote() throws {
        for day in [value(57.5, .lowest), value(nil, .mean), value(56, .mean)] {
            let read = try DayValueJSON.decode(JSONMembers(DayValueJSON.encode(day, provenance: true).object!))
            #expect(read == day)
            #expect(read.writer.appName == "Oura" && read.asOf == asOf)
        }
        #expect(throws: JSONPathError(path: "days[0].aggregate", #"expected "latest", "lowest" or "mean", found a string"#)) {
            var object = DayValueJSON.encode(value(58, .latest)).object!
            object["aggregate"] = "median"
            _ = try DayValueJSON.decode(JSONMembers(object, path: "days[0]"))
        }
    }
}
