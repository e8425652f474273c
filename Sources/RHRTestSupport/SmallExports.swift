/// Small export files of each kind rhr reads, written for a test from a few values: an Apple Health export, a Health
/// Auto Export file and a file of sync batches, each of one or more writers' resting values (one a day, over the day)
/// and, where asked, a day's heart rate. What someone else's export, or another export of one's own, looks like to rhr.
public enum SmallExports {
    /// One writer's resting value of a day (`YYYY-MM-DD`, in +01:00), and whether that day also has heart rate.
    public struct Value: Sendable, Hashable {
        public var writer: String
        public var day: String
        public var bpm: Int
        public var heartRate: Bool

        public init(_ writer: String, _ day: String, _ bpm: Int, heartRate: Bool = false) {
            self.writer = writer
            self.day = day
            self.bpm = bpm
            self.heartRate = heartRate
        }
    }

    /// An Apple Health export (XML) made at `exportDate` (`YYYY-MM-DD HH:MM`, +01:00): a watch's resting record per
    /// value, and for a value with `heartRate` a sedentary heart-rate record of the same writer at 04:00 that day;
    /// with `unreadable`, a resting record of the first value's writer whose value is no number (R14: passed over).
    public static func apple(exportDate: String, _ values: [Value], unreadable: Bool = false) -> String {
        let device = "&lt;&lt;HKDevice: 0x282a45810&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
            + "hardware:Watch6,2, software:10.3&gt;"
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<!DOCTYPE HealthData [",
            "<!ELEMENT HealthData (ExportDate,Me,(Record)*)>",
            "]>",
            "<HealthData locale=\"en_US\">",
            " <ExportDate value=\"\(exportDate):00 +0100\"/>",
        ]
        for v in values {
            if v.heartRate {
                lines.append(" <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(v.writer)\" device=\"\(device)\" "
                    + "unit=\"count/min\" creationDate=\"\(v.day) 04:01:00 +0100\" startDate=\"\(v.day) 04:00:00 +0100\" "
                    + "endDate=\"\(v.day) 04:00:00 +0100\" value=\"\(v.bpm + 3)\">")
                lines.append("  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>")
                lines.append(" </Record>")
            }
            lines.append(" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"\(v.writer)\" "
                + "device=\"\(device)\" unit=\"count/min\" creationDate=\"\(v.day) 23:45:00 +0100\" "
                + "startDate=\"\(v.day) 00:00:00 +0100\" endDate=\"\(v.day) 23:40:00 +0100\" value=\"\(v.bpm)\"/>")
        }
        if unreadable, let v = values.first {
            lines.append(" <Record type=\"HKQuantityTypeIdentifierRestingHeartRate\" sourceName=\"\(v.writer)\" unit=\"count/min\" "
                + "startDate=\"\(v.day) 00:00:00 +0100\" endDate=\"\(v.day) 23:40:00 +0100\" value=\"n/a\"/>")
        }
        lines.append("</HealthData>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Health Auto Export file: a resting point per value (at the day's midnight, as the app writes them) and, for a
    /// value with `heartRate`, the day's heart rate (min, average, max); with `unreadable`, a resting point of the first
    /// value whose quantity is no number (R14: passed over).
    public static func healthAutoExport(_ values: [Value], unreadable: Bool = false) -> String {
        func point(_ v: Value, _ fields: String) -> String {
            "{\"date\":\"\(v.day) 00:00:00 +0100\",\(fields),\"source\":\"\(v.writer)\"}"
        }
        let resting = values.map { point($0, "\"qty\":\($0.bpm)") } + (unreadable ? values.prefix(1).map { point($0, "\"qty\":\"n/a\"") } : [])
        let heartRate = values.filter(\.heartRate).map { point($0, "\"Min\":\($0.bpm - 6),\"Avg\":\($0.bpm + 12),\"Max\":\($0.bpm + 70)") }
        return "{\"data\":{\"metrics\":["
            + "{\"name\":\"resting_heart_rate\",\"units\":\"count/min\",\"data\":[\(resting.joined(separator: ","))]},"
            + "{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":[\(heartRate.joined(separator: ","))]}"
            + "]}}\n"
    }

    /// One sync batch (a line of a batch file) of `stream` read at `asOf` (ISO-8601): a resting upsert per value, its
    /// UUID made of `uuidPrefix`, the writer and the day; `deleted` as given; cursors only when `cursor` names the
    /// batch's next one (`previous` the one before it); with `unreadable`, an upsert whose start is no date (R14: passed
    /// over).
    public static func batch(stream: String, asOf: String, _ values: [Value], deleted: [String] = [], uuidPrefix: String = "U",
                             cursor: (previous: String?, next: String)? = nil, unreadable: Bool = false) -> String {
        let upserts = values.map { v in
            "{\"type\":\"restingHeartRate\",\"uuid\":\"\(uuid(uuidPrefix, v))\",\"start\":\"\(v.day)T00:03:00+01:00\","
                + "\"end\":\"\(v.day)T23:48:00+01:00\",\"value\":\(v.bpm),\"unit\":\"count/min\","
                + "\"source\":{\"name\":\"\(v.writer)\"},\"metadata\":{\"HKTimeZone\":\"Europe/Berlin\"}}"
        }
        let bad = unreadable ? ["{\"type\":\"restingHeartRate\",\"uuid\":\"\(uuidPrefix)-bad\",\"start\":\"soon\","
            + "\"end\":\"2026-03-01T23:48:00+01:00\",\"value\":57,\"unit\":\"count/min\",\"source\":{\"name\":\"x\"}}"] : []
        let cursorText = cursor.map { c in
            ",\"cursor\":{\"previous\":\(c.previous.map { "\"\($0)\"" } ?? "null"),\"next\":\"\(c.next)\"}"
        } ?? ""
        return "{\"store\":\"healthkit\",\"stream\":\"\(stream)\",\"asOf\":\"\(asOf)\"\(cursorText),"
            + "\"upserted\":[\((upserts + bad).joined(separator: ","))],"
            + "\"deleted\":[\(deleted.map { "\"\($0)\"" }.joined(separator: ","))]}\n"
    }

    /// The UUID `batch` gives a value: `U-Jane’s Apple Watch-2026-03-08` with the writer's spaces and apostrophes left
    /// out.
    public static func uuid(_ prefix: String, _ v: Value) -> String {
        "\(prefix)-\(v.writer.filter { $0.isLetter || $0.isNumber })-\(v.day)"
    }
}
