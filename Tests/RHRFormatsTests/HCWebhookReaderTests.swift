import Foundation
import RHRCore
import RHRFormats
import RHRTestSupport
import Testing

/// What HC Webhook posts, in the app's own field names (docs/design.md section 2).
@Suite("HC Webhook JSON")
struct HCWebhookReaderTests {
    static let options = ImportOptions(machineZone: TimeZone(identifier: "Europe/Berlin")!)

    func read(_ bytes: [UInt8], asOf: Timestamp? = nil) throws(InputError) -> ImportedFile {
        try HCWebhookReader.read(bytes: bytes, label: "request", stream: "http-pixel", asOf: asOf, options: Self.options)
    }

    @Test func restingRecordsAreHealthConnectSamplesWithAssumedOffsetsAndTheirProvenance() throws {
        let file = try read(PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57), ("2026-11-27T23:30:00.25Z", 58)]))
        #expect(file.kind == .hcWebhookJSON)
        #expect(file.recordsRead == 2)
        let batch = try #require(file.batches.first)
        #expect(batch.store == .healthConnect)
        #expect(batch.stream == "http-pixel")
        // Without a time of receipt, when the app built the payload.
        #expect(batch.asOf == Timestamp.parse("2026-11-28T07:10:00Z"))
        let first = batch.resting[0]
        #expect(first.writer == Writer(store: .healthConnect, name: "com.ouraring.oura"))
        #expect(first.offsetSeconds == nil)
        #expect(first.start == first.end)
        #expect(first.value == 57)
        #expect(first.recordingMethod == .automaticallyRecorded)
        #expect(first.device == Device(manufacturer: "Oura", model: "Ring 4", type: 4))
        #expect(first.uuid == nil)
        // R5: no offset sent, the machine's assumed: 23:30 UTC is the 28th in Berlin.
        let day = LocalDayRule.day(of: batch.resting[1], machineZone: Self.options.machineZone)
        #expect(day.day == LocalDay("2026-11-28"))
        #expect(day.offsetAssumed)
        // Identity is writer, type and time: the same record sent again is the same sample.
        #expect(first.identity.key == "RestingHeartRate|com.ouraring.oura|1795759080|1795759080")
    }

    /// R13: a record dated far after the request (year 9999) is no day of its own: a resting one is kept and flagged
    /// by the store's rule, and it does not move the payload's "as of"; heart rate is counted out.
    @Test func datesOutsideThePlausibleRangeMakeNoFarDay() throws {
        let file = try read(PhonePayloads.hcWebhook(resting: [("9999-12-31T23:30:00Z", 57), ("2026-11-27T05:58:00Z", 58)],
                                                    heartRate: [("9999-12-31T23:59:59Z", 71), ("2026-11-28T06:00:00Z", 73)]))
        let batch = try #require(file.batches.first)
        #expect(batch.asOf == Timestamp.parse("2026-11-28T07:10:00Z"))
        #expect(batch.heartRate.map(\.day) == [LocalDay("2026-11-28")!])
        #expect(file.skipped == ["heart-rate records dated outside the plausible range (R13)": 1])
        #expect(!PlausibleTimeRule.isPlausible(start: batch.resting[0].start, end: batch.resting[0].end, asOf: batch.asOf))

        // Without the app's timestamp either, the reading machine's clock bounds what is plausible.
        // The reading's time, to the millisecond a timestamp keeps.
        let before = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let bare = try read(Array(#"{"resting_heart_rate":[{"bpm":57,"time":"9999-12-31T23:30:00Z"}]}"#.utf8))
        let after = Date()
        #expect((before...after).contains(try #require(bare.batches.first).asOf.date))
    }

    @Test func heartRateCountsEachSampleAndBucketUnderItsOwnKey() throws {
        let file = try read(PhonePayloads.hcWebhook(heartRate: [("2026-11-28T06:00:00Z", 71), ("2026-11-28T06:00:05Z", 73)],
                                                    buckets: [("2026-11-28T07:00:00Z", 70, 61, 88)]))
        let summaries = try #require(file.batches.first).heartRate
        #expect(summaries.count == 3)
        #expect(summaries.allSatisfy { $0.total == 1 && $0.notSet == 1 && $0.day == LocalDay("2026-11-28") })
        #expect(Set(summaries.map(\.recordKey)).count == 3)
        #expect(file.recordsRead == 3)
    }

    @Test func theAppsWordsAndNumbersForRecordingMethodsAndRecordsWithoutMetadata() throws {
        let numbers = try read(PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)],
                                                      metadata: ["data_origin": "com.sec.android.app.shealth", "recording_method": 3]))
        #expect(numbers.batches[0].resting[0].recordingMethod == .manualEntry)
        #expect(numbers.batches[0].resting[0].device == nil)
        let bare = Array(#"{"timestamp":"2026-11-28T07:10:00Z","app_version":"1.0","resting_heart_rate":[{"bpm":57,"time":"2026-11-27T05:58:00Z"}]}"#.utf8)
        #expect(try read(bare).batches[0].resting[0].writer.name == HCWebhookReader.defaultWriter)
        let asOf = Timestamp.parse("2026-11-28T08:00:00+01:00")!
        #expect(try read(bare, asOf: asOf).batches[0].asOf == asOf)
    }

    @Test func otherTypesAreCountedAndSkipped() throws {
        let file = try read(PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)], extra: [
            "steps": [["count": 12], ["count": 40]], "weight": [["kilograms": 71.5]],
        ]))
        #expect(file.skipped == ["records of other types": 3])
        #expect(ImportSummary.words(file, [BatchOutcome()]).hasSuffix("; 3 skipped: records of other types"))
    }

    @Test func badRecordsArePassedOverNamingTheJSONPathAndBadPayloadsRefused() throws {
        func passed(_ bytes: [UInt8]) throws -> [String] { try read(bytes).passedOver.records.map(\.reason) }
        let dates = try read(PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57), ("2026-11-27 05:58", 58)]))
        #expect(dates.batches[0].resting.map(\.value) == [57])
        #expect(dates.passedOver.records.first?.reason.hasPrefix("resting_heart_rate[1].time: expected an ISO-8601 instant") == true)
        #expect(dates.passedOver.records.first?.place == "resting_heart_rate[1]")
        #expect(dates.passedOver.records.first?.kind == "resting_heart_rate records whose time rhr cannot read")
        #expect(dates.recordsRead == 2)
        #expect(try passed(Array(#"{"heart_rate":[{"time":"2026-11-27T05:58:00Z","min":50}]}"#.utf8))
            == ["heart_rate[0]: a heart rate record carries bpm (or avg, min and max); this one has neither"])
        #expect(try passed(Array(#"{"resting_heart_rate":[{"bpm":"57","time":"2026-11-27T05:58:00Z"}]}"#.utf8)).first?
            .hasPrefix("resting_heart_rate[0].bpm: ") == true)
        #expect(try passed(Array(#"{"resting_heart_rate":[{"bpm":57,"time":"2026-11-27T05:58:00Z","metadata":{"recording_method":"sometimes"}}]}"#.utf8)).first?
            .hasPrefix("resting_heart_rate[0].metadata.recording_method: ") == true)
        #expect(try passed(Array(#"{"resting_heart_rate":[7]}"#.utf8)) == ["resting_heart_rate[0]: expected an object, found an integer"])
        // A NUL in the writer's name: passed over, never cut at it (R14).
        #expect(try passed(Array(#"{"resting_heart_rate":[{"bpm":57,"time":"2026-11-27T05:58:00Z","metadata":{"data_origin":"com.oura\u0000x"}}]}"#.utf8))
            == [#"resting_heart_rate[0].metadata.data_origin: data_origin "com.oura<null>x" holds a NUL (U+0000) at character 9"#])
        // What is not a payload at all is still refused.
        func message(_ bytes: [UInt8]) throws -> String {
            try #require(throws: InputError.self) { try read(bytes) }.description
        }
        #expect(try message(Array("[1,2]".utf8)).hasPrefix("request: expected an object"))
        #expect(try message(Array("{\"resting_heart_rate\":[".utf8))
                == "request: line 1, column 24, byte 23, resting_heart_rate[0]: expected a value, found the end of the input")
        #expect(try message(Array(#"{"resting_heart_rate":7}"#.utf8)).hasPrefix("request: resting_heart_rate: expected an array"))
    }

    /// A file of one payload is recognised by its content and imports as `rhr import` reads any file.
    @Test func aFileIsRecognisedAndImported() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("hc.json", PhonePayloads.hcWebhook(resting: [("2026-11-27T05:58:00Z", 57)]))
        #expect(try InputKind.detect(path: path) == .hcWebhookJSON)
        let file = try FileImporter.read(path: path, options: Self.options)
        #expect(file.batches.first?.stream == HCWebhookReader.stream)
        #expect(file.batches.first?.resting.count == 1)
    }
}
