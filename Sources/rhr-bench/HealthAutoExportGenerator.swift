import Foundation

/// A Health Auto Export file shaped like one a year or two of the app's export gives (docs/design.md section 7): heart
/// rate per minute from the watch with Min/Avg/Max, some minutes from a second writer, one resting value a day, and
/// a metric rhr skips (steps per hour). Deterministic for a seed; written in chunks, never held whole.
struct HealthAutoExportGenerator {
    var seed: UInt64

    struct Stats {
        var bytes: Int64 = 0
        var days = 0
        var heartRatePoints = 0
        var restingPoints = 0
    }

    func write(to path: String, targetBytes: Int64) throws -> Stats {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let out = FileHandle(forWritingAtPath: path) else { throw GeneratorError(message: "cannot write \(path)") }
        defer { try? out.close() }
        var stats = Stats()
        var buffer = ""
        // FileHandle.write(Data) traps on a failed write (a full disk): the first failure is kept and thrown below.
        var failure: Error?
        func emit(_ text: String) {
            buffer += text
            if buffer.utf8.count >= 1 << 20 { flush() }
        }
        func flush() {
            let data = Data(buffer.utf8)
            do { try out.write(contentsOf: data) } catch { failure = failure ?? error }
            stats.bytes += Int64(data.count)
            buffer = ""
        }
        var random = seed | 1
        func next() -> UInt64 {
            random ^= random << 13; random ^= random >> 7; random ^= random << 17
            return random
        }
        // Heart rate per minute makes almost all of the file: about 115 bytes a point.
        let days = max(1, Int(targetBytes / (1440 * 118)))
        let first = Date(timeIntervalSince1970: 1_704_063_600)   // 2024-01-01 00:00 +0100
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        func date(day: Int, minute: Int) -> String { formatter.string(from: first.addingTimeInterval(Double(day * 86_400 + minute * 60))) }

        emit("{\n  \"data\" : {\n    \"metrics\" : [\n      {\n        \"name\" : \"heart_rate\",\n        \"units\" : \"count/min\",\n        \"data\" : [\n")
        var firstPoint = true
        for day in 0..<days {
            for minute in stride(from: 0, to: 1440, by: 1) {
                let base = 52 + Int(next() % 30)
                let source = minute % 97 == 0 ? "Polar H10" : "Jane’s Apple Watch"
                emit((firstPoint ? "" : ",\n") + "          {\n            \"date\" : \"\(date(day: day, minute: minute))\",\n"
                     + "            \"Min\" : \(base - 3),\n            \"Avg\" : \(base).\(next() % 10),\n"
                     + "            \"Max\" : \(base + 5),\n            \"source\" : \"\(source)\"\n          }")
                firstPoint = false
                stats.heartRatePoints += 1
            }
        }
        emit("\n        ]\n      },\n      {\n        \"name\" : \"resting_heart_rate\",\n        \"units\" : \"count/min\",\n        \"data\" : [\n")
        for day in 0..<days {
            emit((day == 0 ? "" : ",\n") + "          { \"date\" : \"\(date(day: day, minute: 0))\", \"qty\" : \(54 + Int(next() % 8)), "
                 + "\"source\" : \"Jane’s Apple Watch\" }")
            stats.restingPoints += 1
        }
        emit("\n        ]\n      },\n      {\n        \"name\" : \"step_count\",\n        \"units\" : \"count\",\n        \"data\" : [\n")
        for day in 0..<days {
            for hour in 0..<24 {
                emit((day == 0 && hour == 0 ? "" : ",\n") + "          { \"date\" : \"\(date(day: day, minute: hour * 60))\", "
                     + "\"qty\" : \(next() % 900), \"source\" : \"Jane’s iPhone\" }")
            }
        }
        emit("\n        ]\n      }\n    ]\n  }\n}\n")
        flush()
        stats.days = days
        return stats
    }
}
