import Foundation
import RHRCore
import struct RHRTestSupport.SplitMix64

/// Writes a realistic Apple Health `export.xml` of about a given size, the same bytes for the same seed and size:
/// iOS 16's broken DTD, records grouped by type as Apple writes them, an Apple Watch (heart rate every few minutes,
/// with and without motion context, one resting estimate a day, HRV lists, energy), an older watch named in emoji
/// that never sets a motion context, a phone writing bulk steps and distance, third-party writers with fractional
/// values (Oura: resting and night heart rate, one out-of-range zero; Polar Flow; Withings blood pressure with its
/// correlations), workouts with `WorkoutStatistics`, activity summaries, raw `\x0b` in some metadata, and a trip to
/// New York across the start of US daylight saving time (`HKTimeZone` metadata; dates are written, as Apple does,
/// in the phone's offset at export time).
struct ExportGenerator {
    struct Stats {
        var bytes: Int64 = 0
        var days = 0
        var records = 0
        var heartRateRecords = 0
        var restingRecords = 0
    }

    let seed: UInt64
    /// 2024-03-14 21:05:33 +0100, Berlin in winter.
    let exportEpoch: Int64 = 1_710_446_733
    let writtenOffset = 3600

    /// Writes the export to `path`, sized to about `targetBytes`.
    func write(to path: String, targetBytes: Int64) throws -> Stats {
        // Measure a week of every kind of element, then scale the number of days to the size asked for.
        let probe = ByteSink(path: nil)
        var probeStats = Stats()
        let probeDays = 14
        writeBody(probe, days: probeDays, stats: &probeStats)
        let perDay = max(1, probe.written / Int64(probeDays))
        let days = max(3, Int((targetBytes - 12_000) / perDay))

        let sink = ByteSink(path: path)
        var stats = Stats()
        stats.days = days
        sink.append(ExportGenerator.prologue)
        sink.append(" <ExportDate value=\"")
        sink.date(exportEpoch, offset: writtenOffset)
        sink.append("\"/>\n")
        sink.append(" <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1985-04-12\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n")
        writeBody(sink, days: days, stats: &stats)
        sink.append("</HealthData>\n")
        try sink.close()
        stats.bytes = sink.written
        return stats
    }

    // MARK: - Writers

    private struct Source {
        var name: String
        var version: String
        /// The device description after `<<HKDevice: 0x…>`, entity-encoded, or nil for none.
        var device: String?
    }

    private static let watch = Source(name: "Jane’s Apple Watch", version: "9.1",
        device: ", name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:9.1&gt;")
    private static let oldWatch = Source(name: "🕛🕐🕑🕒", version: "3.2.3",
        device: ", name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:3.2.3&gt;")
    private static let phone = Source(name: "Jane’s iPhone", version: "16.1",
        device: ", name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:16.1&gt;")
    private static let oura = Source(name: "Oura", version: "4.2.0", device: nil)
    private static let polar = Source(name: "Polar Flow", version: "6.1.0",
        device: ", name:H10, manufacturer:Polar Electro Oy, model:H10, hardware:1, software:3.0.35, localIdentifier:C5A4F1&gt;")
    private static let withings = Source(name: "Health Mate", version: "6.2.1",
        device: ", name:BPM Core, manufacturer:Withings, model:BPM Core, hardware:2, software:1.4&gt;")

    // MARK: - Body

    private struct Day {
        var index: Int
        /// Epoch seconds of local midnight where the user is.
        var midnight: Int64
        var zone: String
        var watch: Source
        /// Whether the day's records carry a motion context, and whether it holds a workout.
        var motionContext, workout: Bool
    }

    private func days(_ count: Int) -> [Day] {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let newYork = TimeZone(identifier: "America/New_York")!
        let lastDay = LocalDay(epochSeconds: Double(exportEpoch), offsetSeconds: writtenOffset)
        let first = lastDay.adding(days: -(count - 1))
        // A ten-day trip to New York across the start of US daylight saving time (12 Mar 2023), or halfway.
        var tripStart = LocalDay(year: 2023, month: 3, day: 6)!
        if tripStart < first || tripStart.adding(days: 10) > lastDay { tripStart = first.adding(days: count / 2) }
        return (0..<count).map { i in
            let day = first.adding(days: i)
            let onTrip = day >= tripStart && day < tripStart.adding(days: 10)
            let zone = onTrip ? newYork : berlin
            let noonUTC = Date(timeIntervalSince1970: day.startEpochSeconds + 43_200)
            let offset = Int64(zone.secondsFromGMT(for: noonUTC))
            let oldDays = count * 3 / 10
            return Day(index: i, midnight: Int64(day.startEpochSeconds) - offset, zone: zone.identifier,
                       watch: i < oldDays ? ExportGenerator.oldWatch : ExportGenerator.watch,
                       motionContext: i >= oldDays, workout: i % 2 == 1)
        }
    }

    private func writeBody(_ out: ByteSink, days count: Int, stats: inout Stats) {
        let days = days(count)
        let lastIndex = count - 1
        // Records, grouped by type as Apple writes them, each type in date order across its writers.
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierBodyMass", unit: "kg") { day, rng, emit in
            if day.index % 7 == 0 { emit(ExportGenerator.withings, 7 * 3600 + 600, 0, .fixed(Int64(rng.next(6_400...6_900)), 1), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierHeartRate", unit: "count/min") { day, rng, emit in
            var events: [(Int, Source, Value, [(String, String)])] = []
            var t = Int(rng.next(0...300))
            while t < 86_000 {
                let asleep = t < 6 * 3600 || t > 23 * 3600
                let bpm = asleep ? rng.next(48...62) : rng.next(58...115)
                var metadata: [(String, String)] = []
                if day.motionContext {
                    let roll = rng.next(0...9)
                    if roll < 5 { metadata = [("HKMetadataKeyHeartRateMotionContext", "1")] }
                    else if roll < 7 { metadata = [("HKMetadataKeyHeartRateMotionContext", "2")] }
                    else if roll < 8 { metadata = [("HKMetadataKeyHeartRateMotionContext", "0")] }
                }
                events.append((t, day.watch, .fixed(Int64(bpm), 0), metadata))
                t += Int(rng.next(200...380))
            }
            // Oura at night, fractional.
            var n = 0
            while n < 40 {
                events.append((n * 540 + 600, ExportGenerator.oura, .fixed(Int64(rng.next(4_800...6_200)), 2), []))
                n += 1
            }
            if day.workout {
                for k in 0..<50 { events.append((18 * 3600 + k * 36, ExportGenerator.polar, .fixed(Int64(rng.next(1_200...1_750)), 1), [])) }
            }
            events.sort { $0.0 < $1.0 }
            for e in events { emit(e.1, e.0, 0, e.2, e.3) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierStepCount", unit: "count") { day, rng, emit in
            var events: [(Int, Source, Int)] = []
            for k in 0..<120 { events.append((7 * 3600 + k * 420 + Int(rng.next(0...60)), ExportGenerator.phone, 420)) }
            for k in 0..<90 { events.append((8 * 3600 + k * 520 + Int(rng.next(0...60)), day.watch, 500)) }
            events.sort { $0.0 < $1.0 }
            for e in events { emit(e.1, e.0, e.2, .fixed(Int64(rng.next(3...900)), 0), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "km") { day, rng, emit in
            var events: [(Int, Source)] = []
            for k in 0..<120 { events.append((7 * 3600 + k * 420 + Int(rng.next(0...60)), ExportGenerator.phone)) }
            for k in 0..<60 { events.append((8 * 3600 + k * 760 + Int(rng.next(0...60)), day.watch)) }
            events.sort { $0.0 < $1.0 }
            for e in events { emit(e.1, e.0, 400, .fixed(Int64(rng.next(100...90_000)), 5), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierBasalEnergyBurned", unit: "kcal") { day, rng, emit in
            for k in 0..<200 { emit(day.watch, k * 430, 420, .fixed(Int64(rng.next(4_000...9_000)), 3), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kcal") { day, rng, emit in
            for k in 0..<450 { emit(day.watch, 6 * 3600 + k * 130, 60, .fixed(Int64(rng.next(10...2_500)), 3), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierFlightsClimbed", unit: "count") { day, rng, emit in
            for k in 0..<15 { emit(ExportGenerator.phone, 8 * 3600 + k * 3000, 120, .fixed(Int64(rng.next(1...4)), 0), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierAppleExerciseTime", unit: "min") { day, rng, emit in
            for k in 0..<40 { emit(day.watch, 17 * 3600 + k * 60, 60, .fixed(Int64(rng.next(0...1)), 0), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierAppleStandTime", unit: "min") { day, rng, emit in
            for k in 0..<30 { emit(day.watch, 7 * 3600 + k * 1800, 300, .fixed(Int64(rng.next(1...5)), 0), []) }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierRestingHeartRate", unit: "count/min") { day, rng, emit in
            // The watch's estimate spans the day and is created late in the evening; the export day's is a draft.
            let zone = [("HKTimeZone", day.zone)]
            emit(day.watch, 60, day.index == lastIndex ? 20 * 3600 : 86_000, .fixed(Int64(rng.next(52...64)), 0), zone)
            let value: Int64 = day.index == count / 3 ? 0 : Int64(rng.next(480...620))
            emit(ExportGenerator.oura, 7 * 3600, 0, .fixed(value, 1), [])
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierWalkingHeartRateAverage", unit: "count/min") { day, rng, emit in
            emit(day.watch, 60, 86_000, .fixed(Int64(rng.next(90...110)), 0), [])
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", unit: "ms", hrv: true) { day, rng, emit in
            for k in 0..<5 { emit(day.watch, 2 * 3600 + k * 4 * 3600, 60, .fixed(Int64(rng.next(200...900)), 1), []) }
        }
        for (type, range) in [("HKQuantityTypeIdentifierBloodPressureDiastolic", 700...900),
                              ("HKQuantityTypeIdentifierBloodPressureSystolic", 1_100...1_350)] {
            typeBlock(out, days, &stats, type: type, unit: "mmHg") { day, rng, emit in
                if day.index % 7 == 3 { emit(ExportGenerator.withings, 8 * 3600, 0, .fixed(Int64(rng.next(range)) / 10, 0), []) }
            }
        }
        typeBlock(out, days, &stats, type: "HKQuantityTypeIdentifierDietaryWater", unit: "mL") { day, rng, emit in
            // Some exports hold raw control characters, illegal in XML 1.0.
            if day.index % 5 == 0 { emit(ExportGenerator.phone, 12 * 3600, 0, .fixed(Int64(rng.next(200...500)), 0), [("HKFoodType", "Caf\u{e9}\u{0b}au lait")]) }
        }
        typeBlock(out, days, &stats, type: "HKCategoryTypeIdentifierAppleStandHour", unit: nil) { day, rng, emit in
            for k in 0..<14 { emit(day.watch, 8 * 3600 + k * 3600, 3600, .text(rng.next(0...4) == 0 ? "HKCategoryValueAppleStandHourIdle" : "HKCategoryValueAppleStandHourStood"), []) }
        }
        typeBlock(out, days, &stats, type: "HKCategoryTypeIdentifierSleepAnalysis", unit: nil) { day, rng, emit in
            for k in 0..<8 { emit(ExportGenerator.oura, k * 2700, 2700, .text(k % 3 == 0 ? "HKCategoryValueSleepAnalysisAsleepCore" : "HKCategoryValueSleepAnalysisAsleepDeep"), []) }
        }

        // Correlations repeat top-level blood-pressure records.
        var rng = SplitMix64(seed: seed ^ 0xC0_77E1)
        for day in days where day.index % 7 == 3 {
            let t = day.midnight + 8 * 3600
            out.append(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"")
            sourceAttributes(out, ExportGenerator.withings, &rng)
            dates(out, t, t)
            out.append(">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n")
            for (type, value) in [("HKQuantityTypeIdentifierBloodPressureDiastolic", 82), ("HKQuantityTypeIdentifierBloodPressureSystolic", 124)] {
                out.append("  <Record type=\"")
                out.append(type)
                out.append("\"")
                sourceAttributes(out, ExportGenerator.withings, &rng)
                out.append(" unit=\"mmHg\"")
                dates(out, t, t)
                out.append(" value=\"")
                out.int(Int64(value))
                out.append("\"/>\n")
            }
            out.append(" </Correlation>\n")
        }
        // Workouts, with statistics that name heart rate but are not records.
        for day in days where day.workout {
            let start = day.midnight + 18 * 3600
            let end = start + 1_800 + Int64(rng.next(0...900))
            out.append(" <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"")
            out.fixed(end - start, decimals: 0)
            out.append("\" durationUnit=\"s\"")
            sourceAttributes(out, day.watch, &rng)
            dates(out, start, end)
            out.append(">\n  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n  <MetadataEntry key=\"HKTimeZone\" value=\"")
            out.append(day.zone)
            out.append("\"/>\n  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"")
            out.date(start + 600, offset: writtenOffset)
            out.append("\" duration=\"10\" durationUnit=\"min\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\"")
            dates(out, start, end, creation: false)
            out.append(" average=\"")
            out.int(Int64(rng.next(130...155)))
            out.append("\" minimum=\"98\" maximum=\"")
            out.int(Int64(rng.next(165...185)))
            out.append("\" unit=\"count/min\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\"")
            dates(out, start, end, creation: false)
            out.append(" sum=\"")
            out.fixed(Int64(rng.next(2_000...4_500)), decimals: 1)
            out.append("\" unit=\"kcal\"/>\n  <WorkoutRoute")
            sourceAttributes(out, day.watch, &rng)
            dates(out, start, end)
            out.append(">\n   <FileReference path=\"/workout-routes/route_")
            out.append(LocalDay(daysSinceEpoch: Int((day.midnight + 43_200) / 86_400)).description)
            out.append("_6.00pm.gpx\"/>\n  </WorkoutRoute>\n </Workout>\n")
        }
        for day in days {
            out.append(" <ActivitySummary dateComponents=\"")
            out.append(LocalDay(daysSinceEpoch: Int((day.midnight + 43_200) / 86_400)).description)
            out.append("\" activeEnergyBurned=\"")
            out.fixed(Int64(rng.next(2_000...9_000)), decimals: 1)
            out.append("\" activeEnergyBurnedGoal=\"600\" activeEnergyBurnedUnit=\"kcal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"")
            out.int(Int64(rng.next(5...80)))
            out.append("\" appleExerciseTimeGoal=\"30\" appleStandHours=\"")
            out.int(Int64(rng.next(6...14)))
            out.append("\" appleStandHoursGoal=\"12\"/>\n")
        }
    }

    private enum Value {
        /// An integer scaled by 10^decimals: `.fixed(585, 1)` is 58.5.
        case fixed(Int64, Int)
        case text(String)
    }

    /// `emit(source, secondOfDay, duration, value, metadata)` writes one record of the block's type.
    private typealias Emit = (Source, Int, Int, Value, [(String, String)]) -> Void

    private func typeBlock(_ out: ByteSink, _ days: [Day], _ stats: inout Stats, type: String, unit: String?, hrv: Bool = false,
                           _ body: (Day, inout SplitMix64, Emit) -> Void) {
        var typeHash: UInt64 = 1469598103934665603
        for b in type.utf8 { typeHash = (typeHash ^ UInt64(b)) &* 1099511628211 }
        var count = 0
        for day in days {
            var rng = SplitMix64(seed: seed ^ typeHash ^ UInt64(day.index) &* 0x9E37_79B9_7F4A_7C15)
            var deviceRng = SplitMix64(seed: rng.next())
            body(day, &rng) { source, second, duration, value, metadata in
                count += 1
                let start = day.midnight + Int64(second)
                out.append(" <Record type=\"")
                out.append(type)
                out.append("\"")
                self.sourceAttributes(out, source, &deviceRng)
                if let unit {
                    out.append(" unit=\"")
                    out.append(unit)
                    out.append("\"")
                }
                self.dates(out, start, start + Int64(duration), createdAfter: max(duration, 1) + 37)
                out.append(" value=\"")
                switch value {
                case .fixed(let scaled, let decimals): out.fixed(scaled, decimals: decimals)
                case .text(let text): out.append(text)
                }
                if metadata.isEmpty && !hrv {
                    out.append("\"/>\n")
                    return
                }
                out.append("\">\n")
                for (key, value) in metadata {
                    out.append("  <MetadataEntry key=\"")
                    out.append(key)
                    out.append("\" value=\"")
                    out.append(value)
                    out.append("\"/>\n")
                }
                if hrv {
                    out.append("  <HeartRateVariabilityMetadataList>\n")
                    var t = Double(second % 43_200) + 0.37
                    for _ in 0..<60 {
                        out.append("   <InstantaneousBeatsPerMinute bpm=\"")
                        out.int(Int64(deviceRng.next(55...75)))
                        out.append("\" time=\"")
                        out.clock(t)
                        out.append("\"/>\n")
                        t += 0.9
                    }
                    out.append("  </HeartRateVariabilityMetadataList>\n")
                }
                out.append(" </Record>\n")
            }
        }
        stats.records += count
        if type == "HKQuantityTypeIdentifierHeartRate" { stats.heartRateRecords += count }
        if type == "HKQuantityTypeIdentifierRestingHeartRate" { stats.restingRecords += count }
    }

    private func sourceAttributes(_ out: ByteSink, _ source: Source, _ rng: inout SplitMix64) {
        out.append(" sourceName=\"")
        out.append(source.name)
        out.append("\" sourceVersion=\"")
        out.append(source.version)
        out.append("\"")
        if let device = source.device {
            out.append(" device=\"&lt;&lt;HKDevice: 0x")
            out.hex(0x28_0000_000 | rng.next() & 0x0FFF_FFFF)
            out.append("&gt;")
            out.append(device)
            out.append("\"")
        }
    }

    private func dates(_ out: ByteSink, _ start: Int64, _ end: Int64, createdAfter: Int = 60, creation: Bool = true) {
        if creation {
            out.append(" creationDate=\"")
            out.date(end + Int64(createdAfter), offset: writtenOffset)
            out.append("\"")
        }
        out.append(" startDate=\"")
        out.date(start, offset: writtenOffset)
        out.append("\" endDate=\"")
        out.date(end, offset: writtenOffset)
        out.append("\"")
    }

    /// The attributes Apple's DTD gives both a Record and a Correlation.
    static let sampleAttributes = """
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        """

    /// The XML declaration and iOS 16's internal DTD, with its `<!ATTLIST VisionPrescription` left unclosed.
    static let prologue = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 12 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
          HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
        \(sampleAttributes)
        >
        <!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
        \(sampleAttributes)
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
        <!ELEMENT InstantaneousBeatsPerMinute EMPTY>
        <!ATTLIST InstantaneousBeatsPerMinute
          bpm  CDATA #REQUIRED
          time CDATA #REQUIRED
        >
        <!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>
        <!ATTLIST VisionPrescription
          type             CDATA #REQUIRED
          dateIssued       CDATA #REQUIRED
          expirationDate   CDATA #IMPLIED
          brand            CDATA #IMPLIED
        <!ELEMENT RightEye EMPTY>
        <!ATTLIST RightEye
          sphere           CDATA #IMPLIED
          sphereUnit       CDATA #IMPLIED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">

        """
}

extension SplitMix64 {
    /// A number of `range`, all but evenly.
    mutating func next(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

struct GeneratorError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
