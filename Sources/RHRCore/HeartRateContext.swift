/// R8: HealthKit heart-rate samples carry a motion context. Sedentary is not resting: rhr keeps, per day
/// and writer, counts by context and the lowest and median sedentary value, as a separate context series.
public enum MotionContext: Int, Sendable, Hashable, CaseIterable {
    case notSet = 0
    case sedentary = 1
    case active = 2

    /// `HKMetadataKeyHeartRateMotionContext` value; absent or unknown means not set.
    public init(metadataValue: String?) {
        guard let metadataValue, let n = Int(metadataValue.trimmingCharacters(in: [" "])),
              let context = MotionContext(rawValue: n) else {
            self = .notSet
            return
        }
        self = context
    }

    public var words: String {
        switch self {
        case .notSet: return "not set"
        case .sedentary: return "sedentary"
        case .active: return "active"
        }
    }
}

/// Heart-rate samples of one writer on one local day, summarised (R8, R9).
/// `recordKey` names what the summary stands for, so a deletion can remove it: a HealthKit sample UUID,
/// a Health Connect HeartRate record id, or "" for an export's whole day.
public struct HeartRateDaySummary: Sendable, Hashable {
    public var writer: Writer
    public var day: LocalDay
    public var recordKey: String
    public var notSet: Int
    public var sedentary: Int
    public var active: Int
    public var sedentaryMin: Double?
    /// Sedentary values rounded to whole bpm, with their counts: enough for an exact-to-the-beat median
    /// and mergeable across batches.
    public var sedentaryHistogram: [Int: Int]

    public init(writer: Writer, day: LocalDay, recordKey: String = "", notSet: Int = 0, sedentary: Int = 0,
                active: Int = 0, sedentaryMin: Double? = nil, sedentaryHistogram: [Int: Int] = [:]) {
        self.writer = writer
        self.day = day
        self.recordKey = recordKey
        self.notSet = notSet
        self.sedentary = sedentary
        self.active = active
        self.sedentaryMin = sedentaryMin
        self.sedentaryHistogram = sedentaryHistogram
    }

    public var total: Int { notSet + sedentary + active }

    /// Adds one heart-rate sample. NaN values are not counted: they carry no information. Values outside
    /// 1…300 (R6) are counted by context but stay out of the sedentary minimum and median, like out-of-range
    /// values out of every aggregate (and a value such as 1e300 has no whole-bpm histogram key).
    public mutating func add(bpm: Double, context: MotionContext) {
        guard !bpm.isNaN else { return }
        switch context {
        case .notSet: notSet += 1
        case .active: active += 1
        case .sedentary:
            sedentary += 1
            guard RestingValue.isInRange(bpm) else { return }
            sedentaryMin = min(sedentaryMin ?? bpm, bpm)
            sedentaryHistogram[Int(bpm.rounded()), default: 0] += 1
        }
    }

    public mutating func merge(_ other: HeartRateDaySummary) {
        notSet += other.notSet
        sedentary += other.sedentary
        active += other.active
        if let m = other.sedentaryMin { sedentaryMin = min(sedentaryMin ?? m, m) }
        for (bpm, n) in other.sedentaryHistogram { sedentaryHistogram[bpm, default: 0] += n }
    }

    /// The median sedentary value, to the beat.
    public var sedentaryMedian: Double? {
        let n = sedentaryHistogram.values.reduce(0, +)
        guard n > 0 else { return nil }
        let sorted = sedentaryHistogram.sorted { $0.key < $1.key }
        func value(at rank: Int) -> Int {
            var seen = 0
            for (bpm, count) in sorted {
                seen += count
                if rank < seen { return bpm }
            }
            return sorted.last!.key
        }
        if n % 2 == 1 { return Double(value(at: n / 2)) }
        return Double(value(at: n / 2 - 1) + value(at: n / 2)) / 2
    }

    /// "62:3,63:1": the histogram as text, for the store.
    public var histogramText: String {
        sedentaryHistogram.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }

    /// `histogramText` read back; several texts joined by commas add up (the store merges roads that way).
    public static func histogram(fromText text: String) -> [Int: Int] {
        var text = text
        return text.withUTF8 { histogram(fromUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// The same on UTF-8 bytes, without building intermediate strings (the store reads ten years of days).
    public static func histogram(fromUTF8 bytes: UnsafeRawBufferPointer) -> [Int: Int] {
        var result: [Int: Int] = [:]
        var key = 0, value = 0, sign = 1, inValue = false, digits = false
        func flush() {
            if inValue && digits { result[sign * key, default: 0] += value }
            key = 0; value = 0; sign = 1; inValue = false; digits = false
        }
        for b in bytes {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inValue { value = value * 10 + Int(b - 48) } else { key = key * 10 + Int(b - 48) }
                digits = true
            case UInt8(ascii: "-") where !inValue: sign = -1
            case UInt8(ascii: ":"): inValue = true; digits = false
            case UInt8(ascii: ","): flush()
            default: break
            }
        }
        flush()
        return result
    }
}

/// Collects heart-rate samples into per-day, per-writer summaries while a reader streams a file.
public struct HeartRateSummarizer: Sendable {
    private var summaries: [SummaryKey: HeartRateDaySummary] = [:]

    private struct SummaryKey: Hashable, Sendable {
        var writer: WriterKey
        var day: LocalDay
        var recordKey: String
    }

    public init() {}

    public mutating func add(writer: Writer, day: LocalDay, bpm: Double, context: MotionContext, recordKey: String = "") {
        let key = SummaryKey(writer: writer.key, day: day, recordKey: recordKey)
        summaries[key, default: HeartRateDaySummary(writer: writer, day: day, recordKey: recordKey)]
            .add(bpm: bpm, context: context)
    }

    public var isEmpty: Bool { summaries.isEmpty }

    /// `from`'s summaries become `to`'s, each merged into the one `to` has for the same day and record.
    public mutating func reassign(_ from: WriterKey, to writer: Writer) {
        for (key, summary) in summaries where key.writer == from {
            summaries[key] = nil
            var moved = summary
            moved.writer = writer
            let target = SummaryKey(writer: writer.key, day: key.day, recordKey: key.recordKey)
            if summaries[target] == nil { summaries[target] = moved } else { summaries[target]!.merge(moved) }
        }
    }

    /// The summaries in a stable order: writer, day, record key.
    public var result: [HeartRateDaySummary] {
        summaries.values.sorted {
            ($0.writer.key, $0.day, $0.recordKey) < ($1.writer.key, $1.day, $1.recordKey)
        }
    }
}
