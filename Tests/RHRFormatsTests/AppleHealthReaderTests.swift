import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

// MARK: - Helpers shared by the Apple Health tests

/// An export around `body`: the XML declaration, `<HealthData>`, the export date, and the closing tag.
func appleHealthExport(_ body: String, exportDate: String = "2024-03-14 21:05:33 +0100", prologue: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    \(prologue)<HealthData locale="en_US">
     <ExportDate value="\(exportDate)"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>
    \(body)</HealthData>

    """
}

/// A record line as Apple writes it.
func appleHealthRecord(type: String = "HKQuantityTypeIdentifierRestingHeartRate", source: String = "Jane’s Apple Watch",
                       device: String? = nil, unit: String = "count/min", created: String = "2024-03-13 23:40:00 +0100",
                       start: String = "2024-03-13 00:01:00 +0100", end: String = "2024-03-13 23:30:00 +0100",
                       value: String = "58", metadata: [(String, String)] = []) -> String {
    var line = " <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"10.1\""
    if let device { line += " device=\"\(device)\"" }
    line += " unit=\"\(unit)\" creationDate=\"\(created)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
    if metadata.isEmpty { return line + "/>\n" }
    line += ">\n"
    for (key, value) in metadata { line += "  <MetadataEntry key=\"\(key)\" value=\"\(value)\"/>\n" }
    return line + " </Record>\n"
}

let appleHealthWatchDevice = "&lt;&lt;HKDevice: 0x282a45810&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1&gt;"
let appleHealthPhoneDevice = "&lt;&lt;HKDevice: 0x28b015f02&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:16.1&gt;"

/// The ways the reader can be run: one block, blocks small enough to cut every tag, with and without a thread.
let appleHealthTunings: [AppleHealthReader.Tuning] = [
    AppleHealthReader.Tuning(),
    AppleHealthReader.Tuning(blockSize: 1, blocks: 2, threadedXML: false),
    AppleHealthReader.Tuning(blockSize: 1, blocks: 3, threadedXML: true),
    AppleHealthReader.Tuning(blockSize: 7, blocks: 2, threadedXML: false),
    AppleHealthReader.Tuning(blockSize: 64, blocks: 4, threadedXML: true),
    AppleHealthReader.Tuning(blockSize: 5, pieces: 3, piecesFrom: 0),
]

/// Reads `xml` (written under `name`) with every tuning, checks they agree, and returns what they read.
func readAppleHealth(_ xml: String, name: String = "export.xml", options: ImportOptions = ImportOptions(),
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportedFile {
    try readAppleHealth(bytes: Array(xml.utf8), name: name, options: options, sourceLocation: sourceLocation)
}

func readAppleHealth(bytes: [UInt8], name: String = "export.xml", options: ImportOptions = ImportOptions(),
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportedFile {
    let scratch = try TemporaryDirectory()
    let path = try scratch.write(name, bytes)
    let first = try AppleHealthReader.read(path: path, options: options, progress: nil, tuning: appleHealthTunings[0])
    for tuning in appleHealthTunings.dropFirst() {
        let other = try AppleHealthReader.read(path: path, options: options, progress: nil, tuning: tuning)
        // Equal, a NaN value (never == itself) by its description.
        #expect(other.batches == first.batches || "\(other.batches)" == "\(first.batches)", "block size \(tuning.blockSize)",
                sourceLocation: sourceLocation)
        #expect(other.recordsRead == first.recordsRead, sourceLocation: sourceLocation)
        #expect(other.skipped == first.skipped, sourceLocation: sourceLocation)
    }
    return first
}

/// The error reading `xml` gives, the same with every tuning.
func appleHealthError(_ xml: String, name: String = "export.xml", sourceLocation: SourceLocation = #_sourceLocation) throws -> InputError? {
    try appleHealthError(bytes: Array(xml.utf8), name: name, sourceLocation: sourceLocation)
}

func appleHealthError(bytes: [UInt8], name: String = "export.xml", sourceLocation: SourceLocation = #_sourceLocation) throws -> InputError? {
    let scratch = try TemporaryDirectory()
    let path = try scratch.write(name, bytes)
    var errors: [InputError?] = []
    for tuning in appleHealthTunings {
        do {
            _ = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil, tuning: tuning)
            errors.append(nil)
        } catch {
            errors.append(InputError(path: error.path.replacingOccurrences(of: scratch.path, with: "$TMP"),
                                     line: error.line, offset: error.offset, message: error.message))
        }
    }
    for (k, e) in errors.enumerated().dropFirst() {
        #expect(e == errors[0], "block size \(appleHealthTunings[k].blockSize)", sourceLocation: sourceLocation)
    }
    return errors[0]
}

func appleHealthDate(_ text: String) -> Date { Timestamp.parse(text)!.date }

/// The byte offset of the first `needle` in `text`'s UTF-8.
func appleHealthByteOffset(of needle: String, in text: String) -> Int64? {
    let h = Array(text.utf8), n = Array(needle.utf8)
    guard h.count >= n.count else { return nil }
    for i in 0...(h.count - n.count) where h[i..<(i + n.count)].elementsEqual(n) { return Int64(i) }
    return nil
}

// MARK: - The reader

@Suite("Apple Health reader")
struct AppleHealthReaderTests {
    @Test("a resting record becomes a HealthKit sample with its window, creation, offset, zone, value and unit")
    func restingRecord() throws {
        let xml = appleHealthExport("""
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="Marcell's Apple Watch" unit="count/min" creationDate="2022-02-17 12:22:00 +0200" startDate="2022-02-16 17:56:39 +0200" endDate="2022-02-17 00:57:49 +0200" value="71">
              <MetadataEntry key="HKTimeZone" value="Europe/Helsinki"/>
             </Record>

            """, exportDate: "2022-02-17 21:00:00 +0200")
        let file = try readAppleHealth(xml)
        #expect(file.kind == .appleHealthXML)
        #expect(file.recordsRead == 1)
        #expect(file.skipped.isEmpty)
        let batch = try #require(file.batches.first)
        #expect(file.batches.count == 1)
        #expect(batch.store == .healthKit)
        #expect(batch.stream == "apple-health-export")
        #expect(batch.asOf == Timestamp.parse("2022-02-17 21:00:00 +0200"))
        #expect(batch.asOf.offsetSeconds == 7200)
        // From its first heart record on: a trimmed export says nothing of what came before.
        #expect(batch.snapshot == SyncBatch.Snapshot(from: Timestamp.parse("2022-02-16 17:56:39 +0200"), to: batch.asOf))
        #expect(batch.origin == "Apple Health export")
        #expect(batch.cursor == nil && !batch.fullResync && batch.deleted.isEmpty)
        // R2: the straight apostrophe is folded into Apple's, the spelling kept beside it (`WriterNameRule`).
        #expect(batch.watchWriters == ["Marcell’s Apple Watch"])
        #expect(batch.writerSpellings == ["Marcell’s Apple Watch": ["Marcell's Apple Watch"]])
        #expect(batch.resting == [RestingSample(
            store: .healthKit, writer: Writer(store: .healthKit, name: "Marcell’s Apple Watch"), device: nil,
            start: appleHealthDate("2022-02-16 17:56:39 +0200"), end: appleHealthDate("2022-02-17 00:57:49 +0200"), offsetSeconds: 7200,
            timeZoneIdentifier: "Europe/Helsinki", value: 71, unit: "count/min", created: appleHealthDate("2022-02-17 12:22:00 +0200"))])
        #expect(batch.heartRate.isEmpty)
    }

    @Test("a resting record's device is parsed by field name")
    func restingDevice() throws {
        let device = "&lt;&lt;HKDevice: 0x1&gt;, software:9.1, model:Watch, name:Apple Watch, manufacturer:Apple Inc., hardware:Watch6,2, localIdentifier:X&gt;"
        let file = try readAppleHealth(appleHealthExport(appleHealthRecord(source: "🕛🕐🕑🕒", device: device)))
        #expect(file.batches[0].resting.first?.device
            == Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,2", software: "9.1"))
        #expect(file.batches[0].watchWriters == ["🕛🕐🕑🕒"])
    }

    @Test("iOS 16's DTD with its unclosed <!ATTLIST is skipped whole")
    func iOS16Doctype() throws {
        let dtd = """
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 12 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|VisionPrescription)*)>
            <!ATTLIST HealthData
              locale CDATA #REQUIRED
            >
            <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
            <!ATTLIST VisionPrescription
              type             CDATA #REQUIRED
              dateIssued       CDATA #REQUIRED
              brand            CDATA #IMPLIED
            <!ELEMENT RightEye EMPTY>
            <!-- a comment that says ]> and <Record type="HKQuantityTypeIdentifierRestingHeartRate"> -->
            <!ATTLIST RightEye
              sphere           CDATA #IMPLIED
            >
            ]>

            """
        let file = try readAppleHealth(appleHealthExport(appleHealthRecord(), prologue: dtd))
        #expect(file.recordsRead == 1)
        #expect(file.batches[0].resting.map(\.value) == [58])
    }

    @Test("a DOCTYPE without an internal subset, and one with a quoted system id, are skipped")
    func plainDoctype() throws {
        for dtd in ["<!DOCTYPE HealthData>\n", "<!DOCTYPE HealthData SYSTEM \"health[1]>.dtd\">\n"] {
            let file = try readAppleHealth(appleHealthExport(appleHealthRecord(), prologue: dtd))
            #expect(file.batches[0].resting.count == 1)
        }
    }

    @Test("raw control characters such as \\x0b pass elsewhere; a writer named with one is passed over (R14)")
    func controlCharacters() throws {
        let xml = appleHealthExport(appleHealthRecord(source: "Jane\u{0b}s Watch") + appleHealthRecord(source: "Fine")
            + appleHealthRecord(type: "HKQuantityTypeIdentifierDietaryWater", source: "Phone", unit: "mL", value: "300",
                                metadata: [("HKFoodType", "Caf\u{e9}\u{0b}au lait")]))
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 3)
        #expect(file.batches[0].resting.map(\.writer.name) == ["Fine"])
        #expect(file.passedOver.records.map(\.reason) == [#"sourceName "Jane<vertical tab>s Watch" holds a control character (U+000B) at character 5"#])
    }

    @Test("CRLF line ends, attributes in any order with either quote, white space and line breaks inside tags")
    func layoutQuirks() throws {
        let canonical = appleHealthExport(appleHealthRecord(metadata: [("HKTimeZone", "Europe/Berlin")])
            + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", device: appleHealthWatchDevice,
                                start: "2024-03-13 10:00:00 +0100", end: "2024-03-13 10:00:00 +0100", value: "64",
                                metadata: [("HKMetadataKeyHeartRateMotionContext", "1")]))
        let quirky = """
            <?xml version='1.0' encoding='UTF-8'?>\r
            <HealthData locale='en_US'\r
              >\r
             <ExportDate\tvalue = "2024-03-14 21:05:33 +0100" />\r
             <Record value='58' endDate="2024-03-13 23:30:00 +0100"\r
                startDate = '2024-03-13 00:01:00 +0100'\tcreationDate="2024-03-13 23:40:00 +0100"\r
                unit="count/min" sourceVersion='10.1' sourceName='Jane’s Apple Watch'\r
                type="HKQuantityTypeIdentifierRestingHeartRate"\r
             ><MetadataEntry value='Europe/Berlin' key="HKTimeZone"\r
             /></Record >\r
             <Record\r
             type='HKQuantityTypeIdentifierHeartRate' device='\(appleHealthWatchDevice)' sourceName="Jane’s Apple Watch"\r
             unit="count/min" startDate="2024-03-13 10:00:00 +0100" endDate='2024-03-13 10:00:00 +0100' value="64"\r
             creationDate="2024-03-13 23:40:00 +0100" sourceVersion="10.1">\r
               <MetadataEntry\r
                  key='HKMetadataKeyHeartRateMotionContext'\r
                  value="1"/>\r
             </Record>\r
            </HealthData >\r

            """
        let a = try readAppleHealth(canonical)
        let b = try readAppleHealth(quirky)
        #expect(a.batches == b.batches)
        #expect(b.batches[0].resting.first?.timeZoneIdentifier == "Europe/Berlin")
        #expect(b.batches[0].heartRate.first?.sedentary == 1)
        #expect(b.recordsRead == 2)
    }

    @Test("entities, decimal and hex references and raw UTF-8 name the same writer")
    func sameWriter() throws {
        let hr = { (source: String, time: String) in
            appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: source, device: appleHealthWatchDevice,
                              start: "2024-03-13 \(time) +0100", end: "2024-03-13 \(time) +0100", value: "60",
                              metadata: [("HKMetadataKeyHeartRateMotionContext", "1")])
        }
        let xml = appleHealthExport(hr("Jane&#x2019;s Apple Watch", "10:00:00") + hr("Jane&#8217;s Apple Watch", "10:05:00")
            + hr("Jane’s Apple Watch", "10:10:00") + appleHealthRecord(source: "Jane&#x2019;s Apple Watch")
            + appleHealthRecord(source: "Jane’s &amp; &quot;Co&quot; &lt;Watch&gt;", start: "2024-03-12 00:01:00 +0100",
                                end: "2024-03-12 23:30:00 +0100"))
        let batch = try readAppleHealth(xml).batches[0]
        #expect(batch.heartRate.count == 1)
        #expect(batch.heartRate.first?.writer.name == "Jane’s Apple Watch")
        #expect(batch.heartRate.first?.sedentary == 3)
        #expect(batch.resting.map(\.writer.name) == ["Jane’s Apple Watch", "Jane’s & \"Co\" <Watch>"])
    }

    @Test("other entities are kept as written, never expanded")
    func unknownEntities() throws {
        let batch = try readAppleHealth(appleHealthExport(appleHealthRecord(source: "Tom&nbsp;&amp;&#0;Jerry"))).batches[0]
        #expect(batch.resting.first?.writer.name == "Tom&nbsp;&&#0;Jerry")
    }

    @Test("emoji in names")
    func emoji() throws {
        let xml = appleHealthExport(appleHealthRecord(source: "🕛🕐🕑🕒", device: appleHealthWatchDevice)
            + appleHealthRecord(source: "&#x1F55B;&#x1F550;&#x1F551;&#x1F552;", start: "2024-03-12 00:01:00 +0100",
                                end: "2024-03-12 23:30:00 +0100"))
        let batch = try readAppleHealth(xml).batches[0]
        #expect(batch.resting.map(\.writer.name) == ["🕛🕐🕑🕒", "🕛🕐🕑🕒"])
        #expect(batch.watchWriters == ["🕛🕐🕑🕒"])
    }

    @Test("records inside comments are not records")
    func comments() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- before the document: <HealthData> <Record type="HKQuantityTypeIdentifierRestingHeartRate"/> -->
            <HealthData locale="en_US">
             <ExportDate value="2024-03-14 21:05:33 +0100"/>
             <!-- commented out:
            \(appleHealthRecord(value: "99"))\(appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", value: "99"))
              a lone - and -> and -- inside; </HealthData> too -->
            \(appleHealthRecord(value: "58"))<!---->
            </HealthData>
            <!-- after the document -->

            """
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 1)
        #expect(file.batches[0].resting.map(\.value) == [58])
        #expect(file.batches[0].heartRate.isEmpty)
    }

    @Test("CDATA sections and processing instructions are skipped")
    func cdataAndProcessingInstructions() throws {
        let xml = appleHealthExport("""
             <?rhr ignore <Record type="HKQuantityTypeIdentifierRestingHeartRate"/> ?>
             <Note><![CDATA[ <Record type="HKQuantityTypeIdentifierRestingHeartRate" value="99"/> ]]></Note>

            """ + appleHealthRecord())
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 1)
        #expect(file.batches[0].resting.map(\.value) == [58])
    }

    @Test("records nested in a Correlation are not counted again")
    func correlations() throws {
        let nested = appleHealthRecord(value: "58") + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate",
            device: appleHealthWatchDevice, start: "2024-03-13 08:00:00 +0100", end: "2024-03-13 08:00:00 +0100", value: "70")
        let xml = appleHealthExport(nested + """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health Mate" creationDate="2024-03-13 08:01:00 +0100" startDate="2024-03-13 08:00:00 +0100" endDate="2024-03-13 08:00:00 +0100">
              <MetadataEntry key="HKWasUserEntered" value="0"/>
            \(nested)  <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Health Mate" unit="mmHg" startDate="2024-03-13 08:00:00 +0100" endDate="2024-03-13 08:00:00 +0100" value="124"/>
             </Correlation>

            """)
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 2)
        #expect(file.batches[0].resting.count == 1)
        #expect(file.batches[0].heartRate.map(\.total) == [1])
    }

    @Test("InstantaneousBeatsPerMinute in HRV lists is not heart-rate data")
    func hrvLists() throws {
        let xml = appleHealthExport("""
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Jane’s Apple Watch" device="\(appleHealthWatchDevice)" unit="ms" creationDate="2024-03-13 02:02:37 +0100" startDate="2024-03-13 02:00:00 +0100" endDate="2024-03-13 02:01:00 +0100" value="79.4">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="57" time="2:00:00.36 AM"/>
               <InstantaneousBeatsPerMinute bpm="69" time="2:00:01.26 AM"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Record type="HKQuantityTypeIdentifierWalkingHeartRateAverage" sourceName="Jane’s Apple Watch" unit="count/min" startDate="2024-03-13 00:00:00 +0100" endDate="2024-03-13 23:00:00 +0100" value="101"/>

            """)
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 2)
        #expect(file.batches[0].heartRate.isEmpty)
        #expect(file.batches[0].resting.isEmpty)
        #expect(file.batches[0].watchWriters == ["Jane’s Apple Watch"])
    }

    @Test("WorkoutStatistics naming heart rate are not records")
    func workoutStatistics() throws {
        let xml = appleHealthExport("""
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="32" durationUnit="min" sourceName="Jane’s Apple Watch" startDate="2024-03-13 18:00:00 +0100" endDate="2024-03-13 18:32:00 +0100">
              <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-03-13 18:10:00 +0100" duration="10" durationUnit="min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-13 18:00:00 +0100" endDate="2024-03-13 18:32:00 +0100" average="142" minimum="98" maximum="171" unit="count/min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierRestingHeartRate" startDate="2024-03-13 18:00:00 +0100" endDate="2024-03-13 18:32:00 +0100" average="50" unit="count/min"/>
              <WorkoutRoute sourceName="Jane’s Apple Watch"><FileReference path="/workout-routes/route.gpx"/></WorkoutRoute>
             </Workout>
             <ActivitySummary dateComponents="2024-03-13" activeEnergyBurned="512.3" activeEnergyBurnedUnit="kcal"/>

            """)
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 0)
        #expect(file.batches[0].heartRate.isEmpty)
        #expect(file.batches[0].resting.isEmpty)
    }

    @Test("values in count/s are converted for heart rate; resting values are kept as delivered")
    func countPerSecond() throws {
        let xml = appleHealthExport(appleHealthRecord(unit: "count/s", value: "0.95")
            + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Strap", unit: "count/s",
                                start: "2024-03-13 10:00:00 +0100", end: "2024-03-13 10:00:00 +0100", value: "1.2",
                                metadata: [("HKMetadataKeyHeartRateMotionContext", "1")])
            + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Strap", unit: "count/h",
                                start: "2024-03-13 10:05:00 +0100", end: "2024-03-13 10:05:00 +0100", value: "3900",
                                metadata: [("HKMetadataKeyHeartRateMotionContext", "1")]))
        let batch = try readAppleHealth(xml).batches[0]
        let sample = try #require(batch.resting.first)
        #expect(sample.unit == "count/s" && sample.value == 0.95)
        #expect(sample.bpm == 57)
        #expect(batch.heartRate.first?.sedentaryHistogram == [72: 1, 65: 1])
        #expect(batch.heartRate.first?.sedentaryMin == 65)
    }

    @Test("a record in a unit that is not a heart rate unit is passed over at its byte offset, naming the unit (R14)")
    func wrongUnit() throws {
        let body = appleHealthRecord() + appleHealthRecord(unit: "ms", start: "2024-03-12 00:01:00 +0100")
        let xml = appleHealthExport(body)
        let file = try readAppleHealth(xml)
        #expect(file.batches[0].resting.count == 1)
        let offset = try #require(appleHealthByteOffset(of: "<Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"Jane’s Apple Watch\" sourceVersion=\"10.1\" unit=\"ms\"", in: xml))
        let passed = try #require(file.passedOver.records.first)
        #expect(passed.place == "byte \(offset)")
        #expect(passed.reason.contains("\"ms\"") && passed.reason.contains("not a heart rate unit"))
        let heartRate = try readAppleHealth(appleHealthExport(appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", unit: "degC")))
        #expect(heartRate.passedOver.records.map(\.kind) == ["HeartRate in a unit that is not a heart rate"])
        #expect(heartRate.batches[0].heartRate.isEmpty)
    }

    @Test("heart-rate samples are counted per writer and day by motion context (R8)")
    func motionContexts() throws {
        func hr(_ source: String, _ time: String, _ value: String, _ context: String?) -> String {
            appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: source, device: appleHealthWatchDevice,
                              start: time, end: time, value: value,
                              metadata: context.map { [("HKMetadataKeyHeartRateMotionContext", $0)] } ?? [])
        }
        let xml = appleHealthExport(
            hr("Jane’s Apple Watch", "2024-03-12 09:00:00 +0100", "61", "1")
            + hr("Jane’s Apple Watch", "2024-03-12 09:05:00 +0100", "58.4", "1")
            + hr("Jane’s Apple Watch", "2024-03-12 09:10:00 +0100", "63", "1")
            + hr("Jane’s Apple Watch", "2024-03-12 09:15:00 +0100", "120", "2")
            + hr("Jane’s Apple Watch", "2024-03-12 09:20:00 +0100", "80", "0")
            + hr("Jane’s Apple Watch", "2024-03-12 09:25:00 +0100", "81", nil)
            + hr("Jane’s Apple Watch", "2024-03-12 09:30:00 +0100", "82", "7")
            + hr("Polar", "2024-03-12 09:35:00 +0100", "90.5", "2")
            + hr("Jane’s Apple Watch", "2024-03-13 09:00:00 +0100", "55", " 1"))
        let days = try readAppleHealth(xml).batches[0].heartRate
        let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
        let polar = Writer(store: .healthKit, name: "Polar")
        #expect(days == [
            HeartRateDaySummary(writer: watch, day: LocalDay("2024-03-12")!, notSet: 3, sedentary: 3, active: 1,
                                sedentaryMin: 58.4, sedentaryHistogram: [58: 1, 61: 1, 63: 1]),
            HeartRateDaySummary(writer: watch, day: LocalDay("2024-03-13")!, sedentary: 1, sedentaryMin: 55,
                                sedentaryHistogram: [55: 1]),
            HeartRateDaySummary(writer: polar, day: LocalDay("2024-03-12")!, active: 1),
        ].sorted { ($0.writer.key, $0.day) < ($1.writer.key, $1.day) })
        #expect(days.first?.sedentaryMedian == 61)
    }

    @Test("a heart-rate sample's day follows HKTimeZone when present, else the written offset")
    func heartRateDay() throws {
        func hr(_ time: String, _ zone: String?) -> String {
            appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Watch", start: time, end: time, value: "60",
                              metadata: zone.map { [("HKTimeZone", $0)] } ?? [])
        }
        let xml = appleHealthExport(hr("2024-03-12 23:30:00 +0000", "Europe/Berlin") + hr("2024-03-12 23:40:00 +0000", nil))
        let days = try readAppleHealth(xml).batches[0].heartRate.map(\.day)
        #expect(days == [LocalDay("2024-03-12")!, LocalDay("2024-03-13")!])
    }

    @Test("watch writers (R3): a name with Apple Watch, or any record with a device of model Watch")
    func watchWriters() throws {
        let oldWatch = "&lt;&lt;HKDevice: 0x1&gt;, model:Watch, name:Apple Watch, manufacturer:Apple, hardware:Watch2,4&gt;"
        let xml = appleHealthExport(
            // Resting writers; only the step records tell that the emoji-named source is a watch.
            appleHealthRecord(source: "Jane’s Apple Watch")
            + appleHealthRecord(source: "🕛🕐🕑🕒")
            + appleHealthRecord(source: "Jane’s iPhone")
            + appleHealthRecord(source: "Oura", value: "54.5")
            + appleHealthRecord(type: "HKQuantityTypeIdentifierStepCount", source: "🕛🕐🕑🕒", device: oldWatch, unit: "count", value: "120")
            + appleHealthRecord(type: "HKQuantityTypeIdentifierStepCount", source: "Jane’s iPhone", device: appleHealthPhoneDevice, unit: "count", value: "80")
            + appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", source: "Oura", unit: "count/min", value: "60"))
        let batch = try readAppleHealth(xml).batches[0]
        #expect(batch.watchWriters == ["Jane’s Apple Watch", "🕛🕐🕑🕒"])
        #expect(batch.resting.map(\.value) == [58, 58, 58, 54.5])
    }

    @Test("devices described without Apple's address are told apart (R3): a Watch and a Polar strap share no answer")
    func addresslessDevices() throws {
        let watch = "&lt;name:Apple Watch, manufacturer:Apple Inc., model:Watch&gt;"
        let strap = "&lt;name:Polar H10, manufacturer:Polar, model:H10&gt;"
        func record(_ type: String, _ source: String, _ device: String) -> String {
            appleHealthRecord(type: "HKQuantityTypeIdentifier" + type, source: source, device: device, value: "60")
        }
        for type in ["HeartRate", "RestingHeartRate"] {
            for (first, second) in [(("Runner", watch), ("Cyclist", strap)), (("Cyclist", strap), ("Runner", watch))] {
                let xml = appleHealthExport(record(type, first.0, first.1) + record(type, second.0, second.1))
                #expect(try readAppleHealth(xml).batches[0].watchWriters == ["Runner"], "\(type), \(first.0) first")
            }
        }
    }

    @Test("values out of range are kept, for the store to flag, not skipped")
    func outOfRange() throws {
        let values = ["0", "301", "NaN", "-5", "55", "300", "1"]
        let body = values.enumerated().map { i, v in
            appleHealthRecord(source: "Oura", start: "2024-03-0\(i + 1) 07:00:00 +0100", end: "2024-03-0\(i + 1) 07:00:00 +0100", value: v)
        }.joined()
        let file = try readAppleHealth(appleHealthExport(body))
        #expect(file.batches[0].resting.count == 7)
        #expect(file.batches[0].resting.filter { !$0.isInRange }.count == 4)
        #expect(file.skipped.isEmpty)
    }

    @Test("fractional values are read exactly")
    func fractional() throws {
        let body = appleHealthRecord(source: "Oura", value: "54.5")
            + appleHealthRecord(source: "Oura", start: "2024-03-12 07:00:00 +0100", value: "61.25")
            + appleHealthRecord(source: "Oura", start: "2024-03-11 07:00:00 +0100", value: "5.95e1")
        #expect(try readAppleHealth(appleHealthExport(body)).batches[0].resting.map(\.value) == [54.5, 61.25, 59.5])
    }

    @Test("quoted > and /> inside attribute values do not end a tag")
    func anglesInValues() throws {
        let xml = appleHealthExport("""
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="a/>b>" unit="count" startDate="2024-03-13 00:00:00 +0100" endDate="2024-03-13 00:00:00 +0100" value="1"/>
             <Record type="HKQuantityTypeIdentifierRestingHeartRate" sourceName="x>y/>" unit="count/min" startDate="2024-03-13 00:01:00 +0100" endDate="2024-03-13 23:30:00 +0100" value="58"><MetadataEntry key="HKTimeZone" value="Europe/Berlin/>"/></Record>

            """)
        let file = try readAppleHealth(xml)
        #expect(file.recordsRead == 2)
        #expect(file.batches[0].resting.map(\.writer.name) == ["x>y/>"])
        #expect(file.batches[0].resting.first?.timeZoneIdentifier == "Europe/Berlin/>")
    }

    @Test("the file name does not matter: the content says it is an export")
    func anyName() throws {
        let file = try readAppleHealth(appleHealthExport(appleHealthRecord()), name: "vienti")
        #expect(file.batches[0].resting.count == 1)
    }

    @Test("progress goes up to the file's size, never backwards, in one piece and in several",
          arguments: [AppleHealthReader.Tuning(blockSize: 4096, pieces: 1), AppleHealthReader.Tuning(blockSize: 4096, pieces: 2, piecesFrom: 0)])
    func progress(tuning: AppleHealthReader.Tuning) throws {
        let body = (0..<2000).map { i in
            appleHealthRecord(type: "HKQuantityTypeIdentifierHeartRate", start: "2024-03-13 10:00:00 +0100",
                              end: "2024-03-13 10:00:00 +0100", value: "\(60 + i % 30)")
        }.joined()
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("export.xml", appleHealthExport(body))
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int)
        let calls = ProgressLog()
        let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: { calls.append(($0, $1)) },
                                              tuning: tuning)
        #expect(file.batches[0].heartRate.map(\.total) == [2000])
        let seen = calls.all
        #expect(seen.last.map { $0 == (size, size) } == true)
        #expect(seen.allSatisfy { $0.1 == size && $0.0 <= size })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 <= $1.0 })
    }
}

