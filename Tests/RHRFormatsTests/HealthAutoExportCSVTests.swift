import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRFormats

/// The columns of Health Auto Export's CSV, as the app writes them (its metrics in its order, with their units):
/// 113 after the date.
let haeCSVColumns = [
    "Active Energy (kcal)", "Alcohol Consumption (count)", "Apple Exercise Time (min)", "Apple Move Time (min)",
    "Apple Sleeping Wrist Temperature (degF)", "Apple Stand Hour (count)", "Apple Stand Time (min)",
    "Atrial Fibrillation Burden (%)", "Basal Body Temperature (degF)", "Biotin (mcg)", "Blood Alcohol Content (%)",
    "Blood Glucose (mg/dL)", "Blood Oxygen Saturation (%)", "Blood Pressure [Systolic] (mmHg)",
    "Blood Pressure [Diastolic] (mmHg)", "Body Fat Percentage (%)", "Body Mass Index (count)", "Body Temperature (degF)",
    "Breathing Disturbances (count)", "Caffeine (mg)", "Calcium (mg)", "Carbohydrates (g)", "Cardio Recovery (count/min)",
    "Chloride (mg)", "Cholesterol (mg)", "Chromium (mcg)", "Copper (mg)", "Cycling Cadence (count/min)",
    "Cycling Distance (mi)", "Cycling Functional Threshold Power (W)", "Cycling Power (W)", "Cycling Speed (mi/hr)",
    "Dietary Energy (kcal)", "Distance Downhill Snow Sports (mi)", "Electrodermal Activity (mcS)",
    "Environmental Audio Exposure (dBASPL)", "Fiber (g)", "Flights Climbed (count)", "Folate (mcg)",
    "Forced Expiratory Volume 1 (L)", "Forced Vital Capacity (L)", "Handwashing (s)", "Headphone Audio Exposure (dBASPL)",
    "Heart Rate [Min] (count/min)", "Heart Rate [Max] (count/min)", "Heart Rate [Avg] (count/min)",
    "Heart Rate Variability (ms)", "Height (cm)", "Inhaler Usage (count)", "Insulin Delivery (IU)", "Iodine (mcg)",
    "Iron (mg)", "Lean Body Mass (lb)", "Magnesium (mg)", "Manganese (mg)", "Mindful Minutes (min)", "Molybdenum (mcg)",
    "Monounsaturated Fat (g)", "Niacin (mg)", "Number of Times Fallen (count)", "Pantothenic Acid (mg)",
    "Peak Expiratory Flow Rate (L/min)", "Peripheral Perfusion Index (%)", "Phosphorus (mg)", "Physical Effort (kcal/hr·kg)",
    "Polyunsaturated Fat (g)", "Potassium (mg)", "Protein (g)", "Push Count (count)", "Respiratory Rate (count/min)",
    "Resting Energy (kcal)", "Resting Heart Rate (count/min)", "Riboflavin (mg)", "Running Ground Contact Time (ms)",
    "Running Power (W)", "Running Speed (mi/hr)", "Running Stride Length (m)", "Running Vertical Oscillation (cm)",
    "Saturated Fat (g)", "Selenium (mcg)", "Sexual Activity [Unspecified] (count)", "Six-Minute Walking Test Distance (m)",
    "Sleep Analysis [Total] (hr)", "Sleep Analysis [Asleep] (hr)", "Sleep Analysis [In Bed] (hr)",
    "Sleep Analysis [Core] (hr)", "Sleep Analysis [Deep] (hr)", "Sleep Analysis [REM] (hr)", "Sleep Analysis [Awake] (hr)",
    "Sodium (mg)", "Stair Speed: Down (ft/s)", "Stair Speed: Up (ft/s)", "Step Count (count)", "Sugar (g)",
    "Swimming Distance (yd)", "Swimming Stroke Count (count)", "Thiamin (mg)", "Time in Daylight (min)",
    "Toothbrushing (s)", "Total Fat (g)", "UV Exposure (count)", "VO2 Max (ml/(kg·min))",
    "Vitamin A (mcg)", "Vitamin B12 (mcg)", "Vitamin B6 (mg)", "Vitamin C (mg)", "Vitamin D (mcg)", "Vitamin E (mg)",
    "Vitamin K (mcg)", "Walking + Running Distance (mi)", "Walking Heart Rate Average (count/min)", "Weight (lb)", "Zinc (mg)",
]

/// A Health Auto Export CSV: the header, then a row per (date, resting, heart rate min/max/avg, steps).
func haeCSV(_ rows: [(String, String, [String])], firstColumn: String = "Date") -> String {
    let header = ([firstColumn] + haeCSVColumns).joined(separator: ",")
    let restingAt = haeCSVColumns.firstIndex(of: "Resting Heart Rate (count/min)")! + 1
    let minAt = haeCSVColumns.firstIndex(of: "Heart Rate [Min] (count/min)")! + 1
    let stepsAt = haeCSVColumns.firstIndex(of: "Step Count (count)")! + 1
    var lines = [header]
    for (date, resting, heartRate) in rows {
        var fields = Array(repeating: "", count: haeCSVColumns.count + 1)
        fields[0] = date
        fields[restingAt] = resting
        for (k, v) in heartRate.enumerated() { fields[minAt + k] = v }
        fields[stepsAt] = "8123"
        lines.append(fields.joined(separator: ","))
    }
    return lines.joined(separator: "\r\n") + "\r\n"
}

@Suite("Health Auto Export CSV")
struct HealthAutoExportCSVTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test("the app's CSV is told by its header and read: resting values over their day, offset assumed; heart rate counted")
    func reads() throws {
        #expect(haeCSVColumns.count == 113)
        let path = try dir.write("HealthAutoExport-2024-03-01-2024-03-03.csv", haeCSV([
            ("2024-03-01 00:00:00", "56", ["48", "131", "71.5"]),
            ("2024-03-02 00:00:00", "", ["50", "120", ""]),
            ("2024-03-03 00:00:00", "57.0", []),
        ]))
        #expect(try InputKind.detect(path: path) == .healthAutoExportCSV)
        let file = try FileImporter.read(path: path, options: ImportOptions(machineZone: berlin))
        #expect(file.kind == .healthAutoExportCSV)
        // What was read is values, not rows (the account, docs/design.md R14): two resting, two of heart rate.
        #expect(file.recordsRead == 4)
        let batch = try #require(file.batches.first)
        #expect(batch.stream == HealthAutoExportReader.stream)
        #expect(batch.resting.map(\.value) == [56, 57])
        #expect(batch.resting.allSatisfy { $0.writer.name == "Health Auto Export" && $0.offsetSeconds == nil })
        // A writer Health Auto Export did not name: not marked a watch (R3 takes it for a possible one where it is read).
        #expect(batch.watchWriters.isEmpty)
        // Midnight in Berlin, the machine's zone: the day from 00:00:00 to 23:59:59.
        #expect(batch.resting[0].start == Timestamp.parse("2024-03-01 00:00:00 +0100")!.date)
        #expect(batch.resting[0].end == Timestamp.parse("2024-03-01 23:59:59 +0100")!.date)
        #expect(LocalDayRule.day(of: batch.resting[0], machineZone: berlin) == (LocalDay("2024-03-01")!, true))
        // Avg where it is, else Min: one count a row.
        #expect(batch.heartRate.map { "\($0.day) \($0.total) \($0.notSet)" } == ["2024-03-01 1 1", "2024-03-02 1 1"])
        #expect(batch.snapshot?.coversResting == true)
        #expect(batch.asOf == Timestamp.parse("2024-03-03 23:59:59 +0100"))
        #expect(file.skipped.isEmpty && file.notes == ["109 columns of other metrics not read"])
        #expect(file.passedOver.isEmpty)
    }

    @Test("Date/Time as the first column, dates in other forms, with an offset, quoted fields and a decimal comma")
    func otherForms() throws {
        let path = try dir.write("export.csv", haeCSV([
            ("2024-03-01 00:00", "56", []),
            ("2024-03-02", "\"55,5\"", []),
            ("2024-03-03 12:00:00 AM", "54", []),
            ("2024-03-04 00:00:00 +0200", "53", []),
        ], firstColumn: "\"Date/Time\""))
        let batch = try #require(try FileImporter.read(path: path, options: ImportOptions(machineZone: berlin)).batches.first)
        #expect(batch.resting.map(\.value) == [56, 55.5, 54, 53])
        #expect(batch.resting.map(\.offsetSeconds) == [nil, nil, nil, 7200])
        #expect(batch.resting[2].start == Timestamp.parse("2024-03-03 00:00:00 +0100")!.date)
    }

    @Test("a row rhr cannot use is passed over with its line, the rest read (R14)")
    func passesOver() throws {
        var text = haeCSV([
            ("2024-03-01 00:00:00", "56", []),
            ("yesterday", "55", []),
            ("2024-03-03 00:00:00", "abc", ["50", "60", "55"]),
            ("2024-03-04 00:00:00", "57", []),
        ])
        text += "2024-03-05 00:00:00,58\r\n\"2024-03-06 00:00:00,59\r\n"
        let path = try dir.write("export.csv", text)
        let file = try FileImporter.read(path: path, options: ImportOptions(machineZone: berlin))
        let batch = file.batches[0]
        #expect(batch.resting.map(\.value) == [56, 57])
        #expect(batch.heartRate.map(\.day) == [LocalDay("2024-03-03")!])
        #expect(file.passedOver.records.map(\.place) == ["line 3", "line 4, Resting Heart Rate (count/min)", "line 6", "line 7"])
        #expect(file.passedOver.records.map(\.reason) == [
            #"Date "yesterday" is not a date like 2024-01-02 00:00:00"#, #""abc" is not a number"#,
            "2 fields where the header has 114", "a quoted field that does not close",
        ])
        #expect(file.passedOver.records[0].raw.hasPrefix("yesterday,"))
    }

    @Test("a CSV date's numbers are digits: no sign, no space, no digit too many; 12-hour hours of one digit read")
    func dateDigits() throws {
        for text in ["2024-+1-02", "2024-01-+2", "+024-01-02", "2024-01-02 +1:00:00", "2024-01-02 01:-0:00",
                     "2024-01-02 01:00:+0", "2024-01-02 001:00:00", "2024-01-02 01:000:00", "2024-01-02 1:5:00",
                     "2024-1-02", "2024-01-02 01:00:00 XM", "2024-02-30", "2024-01-02 24:00:00", "2024-01-02 13:00:00 PM"] {
            #expect(CSVDate.parse(text, machineZone: berlin) == nil, "\(text)")
        }
        let pm = try #require(CSVDate.parse("2024-01-02 1:05:00 PM", machineZone: berlin))
        #expect(pm.0 == Timestamp.parse("2024-01-02 13:05:00 +0100") && pm.assumed)
        let midnight = try #require(CSVDate.parse("2024-01-02 12:00 AM", machineZone: berlin))
        #expect(midnight.0 == Timestamp.parse("2024-01-02 00:00:00 +0100"))
        let summer = try #require(CSVDate.parse("2024-07-02 08:30", machineZone: berlin))
        #expect(summer.0 == Timestamp.parse("2024-07-02 08:30:00 +0200") && summer.0.offsetSeconds == 7200)
        #expect(CSVDate.parse("2024-07-02", machineZone: berlin)?.0 == Timestamp.parse("2024-07-02 00:00:00 +0200"))
        let offset = try #require(CSVDate.parse("2024-07-02 08:30:00 -0500", machineZone: berlin))
        #expect(offset.0 == Timestamp.parse("2024-07-02 08:30:00 -0500") && !offset.assumed)
    }

    @Test("a CSV that is not the app's is not read as it")
    func otherCSV() throws {
        #expect(!HealthAutoExportCSVReader.looksLikeCSV(Array("time,bpm\n2024-01-01,55\n".utf8)))
        #expect(!HealthAutoExportCSVReader.looksLikeCSV(Array("Date,Note\n2024-01-01,hello\n".utf8)))
        #expect(HealthAutoExportCSVReader.looksLikeCSV(Array("\u{FEFF}Date,Resting Heart Rate (count/min)\n".utf8)))
    }
}
