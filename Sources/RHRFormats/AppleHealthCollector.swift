import Foundation
import RHRCore

/// A place in the export that is wrong: the byte offset in the XML (for a zip, in its XML member).
struct AppleHealthScanError: Error, Sendable, Equatable {
    var offset: Int64
    var message: String

    /// The file ends before the document does (the scanner's truncation messages all say so first).
    var isTruncation: Bool { message.hasPrefix("truncated") }

    /// The file ends at `offset` inside markup (`what`: "a tag", "a comment", …) that began at `start`.
    static func truncated(at offset: Int64, inside what: String, startingAt start: Int64) -> AppleHealthScanError {
        AppleHealthScanError(offset: offset, message: "truncated: the file ends inside \(what) that starts at byte \(start)")
    }
}

/// A record of a type rhr reads, between its start tag and its `</Record>`, waiting for its metadata.
/// Plain data, without strings: one is made for every heart-rate record.
struct OpenRecord {
    enum Kind { case resting, heartRate }
    var kind: Kind
    /// Where its start tag begins in the file.
    var offset: Int64
    var writer: Int
    var start, end: Timestamp
    var created: Timestamp?
    var value: Double
    /// The value in beats per minute (heart-rate records).
    var bpm: Double
    var motion: MotionContext = .notSet
}

/// What a resting record carries besides its `OpenRecord`.
struct RestingDetails {
    var unit: String
    var device: Device?
}

/// Turns the records the scanner finds into what a `SyncBatch` carries: resting samples, heart-rate day
/// summaries (R8), the writers that count as an Apple Watch (R3), the export's date, and counts.
struct AppleHealthCollector {
    private(set) var writers: [Writer] = []
    /// By raw name and by canonical name (`WriterNameRule`): spellings of one writer share its index.
    private var writerIndex: [String: Int] = [:]
    private var canonicalIndex: [String: Int] = [:]
    /// Per writer: the raw spellings the file wrote its name with, and the first flaw of the one it was first met by
    /// (a name with a NUL or a control character, whose records are passed over, R14).
    private var spellings: [Set<String>] = []
    private var writerFlaws: [TextFlaw?] = []
    /// R14: the records passed over, in file order.
    var passedOver = PassedOverLog()
    /// Per writer: whether it counts as an Apple Watch (R3).
    private(set) var writerIsWatch: [Bool] = []
    private var recentSources = RawCache<Int>()
    /// Apple's device descriptions after their object address (which changes per record) → model is a watch.
    private var recentDevices = RawCache<Bool>()
    /// The same descriptions → the device they name, for resting records.
    private var recentParsedDevices = RawCache<Device?>()

    var exportDate: Timestamp?
    /// The latest end date of any record, kept while the export has shown no `ExportDate`: a trimmed or hand-made
    /// export is taken as of it.
    private(set) var latestEnd: Timestamp?
    private(set) var resting: [RestingSample] = []
    /// Heart-rate samples per writer and day (R8), found by writer index and day: hashing an integer instead of
    /// the writer's name keeps this off the scan's critical path, and each writer's samples come day by day, so
    /// the writer's last day is looked at first.
    private var heartRateDays: [HeartRateDaySummary] = []
    private var heartRateDayIndex: [Int: Int] = [:]
    /// By writer index: the key and index in `heartRateDays` of its last day, (-1, 0) before its first.
    private var lastHeartRateDay: [(key: Int, index: Int)] = []
    /// Top-level `Record` elements, of every type.
    var recordsRead = 0
    /// The start of the earliest heart record (resting or heart rate): the export speaks for heart data from there
    /// on (a trimmed export says nothing of what came before its first record).
    private(set) var earliestHeartStart: Timestamp?

    var watchWriters: Set<String> {
        Set(writers.indices.filter { writerIsWatch[$0] && writerFlaws[$0] == nil }.map { writers[$0].name })
    }

    /// By writer name, the other spellings of it the file holds (R2).
    var writerSpellings: [String: [String]] {
        var result: [String: [String]] = [:]
        for k in writers.indices where writerFlaws[k] == nil {
            let others = WriterNameRule.otherSpellings(spellings[k], of: writers[k].name)
            if !others.isEmpty { result[writers[k].name] = others }
        }
        return result
    }

    /// Why the writer's records cannot be used: its name holds a NUL or a control character (R14).
    func flaw(of writer: Int) -> TextFlaw? { writerFlaws[writer] }

    /// The writer whose `sourceName` has the raw bytes `raw`.
    mutating func writer(raw: UnsafeRawBufferPointer) -> Int {
        if let known = recentSources.lookup(raw) { return known }
        let index = writer(named: AppleHealthText.attributeValue(raw))
        recentSources.insert(raw, index)
        return index
    }

    private mutating func writer(named name: String) -> Int {
        if let known = writerIndex[name] { return known }
        if let flaw = TextGate.flaw(in: name) {
            // Its own index, never merged with another name: its records are passed over.
            return newWriter(name, raw: name, flaw: flaw)
        }
        let canonical = WriterNameRule.canonical(name)
        if let known = canonicalIndex[canonical] {
            writerIndex[name] = known
            spellings[known].insert(name)
            return known
        }
        let index = newWriter(canonical, raw: name, flaw: nil)
        canonicalIndex[canonical] = index
        return index
    }

    private mutating func newWriter(_ name: String, raw: String, flaw: TextFlaw?) -> Int {
        writers.append(Writer(store: .healthKit, name: name))
        writerIndex[raw] = writers.count - 1
        spellings.append([raw])
        writerFlaws.append(flaw)
        writerIsWatch.append(ProvisionalRule.isAppleWatch(sourceName: name))
        return writers.count - 1
    }

    func isWatch(_ writer: Int) -> Bool { writerIsWatch[writer] }

    /// Whether the raw `sourceName` `raw` is one of the recent writers, already known as an Apple Watch (R3).
    func isKnownWatch(raw: UnsafeRawBufferPointer) -> Bool {
        recentSources.lookup(raw).map { writerIsWatch[$0] } ?? false
    }

    /// Whether record ends are still needed: no `ExportDate` has come (Apple writes it before every record).
    var needsEnds: Bool { exportDate == nil && !followsExportDate }
    /// The bytes scanned start after an `ExportDate` scanned by another collector (a later piece of the file).
    var followsExportDate = false

    mutating func noteEnd(_ end: Timestamp) {
        if latestEnd.map({ end > $0 }) ?? true { latestEnd = end }
    }

    mutating func markWatch(_ writer: Int) { writerIsWatch[writer] = true }

    /// Whether a raw `device` attribute names a device whose model is an Apple Watch (R3).
    mutating func deviceIsWatch(raw: UnsafeRawBufferPointer) -> Bool {
        Self.byDescription(raw, in: &recentDevices) {
            let model = AppleHealthDevice.parse(AppleHealthText.attributeValue(raw))?.model
            return model.map { ProvisionalRule.isAppleWatch(sourceName: "", deviceModel: $0) } ?? false
        }
    }

    /// The device a resting record's raw `device` attribute names.
    mutating func device(raw: UnsafeRawBufferPointer) -> Device? {
        Self.byDescription(raw, in: &recentParsedDevices) { AppleHealthDevice.parse(AppleHealthText.attributeValue(raw)) }
    }

    /// `parse`'s answer for the raw description `raw`. Apple's descriptions differ record by record only in the
    /// object's address, which names no field: the answer is kept in `cache` by the text after it. Any other
    /// description is parsed each time, since only its whole text could tell it from another.
    private static func byDescription<Value>(_ raw: UnsafeRawBufferPointer, in cache: inout RawCache<Value>,
                                             _ parse: () -> Value) -> Value {
        guard let k = afterAppleAddress(raw) else { return parse() }
        let key = UnsafeRawBufferPointer(rebasing: raw[k...])
        if let known = cache.lookup(key) { return known }
        let value = parse()
        cache.insert(key, value)
        return value
    }

    /// The index just past Apple's `&lt;&lt;HKDevice: 0x` and hex digits, then `&gt;`, when `raw` starts so.
    private static func afterAppleAddress(_ raw: UnsafeRawBufferPointer) -> Int? {
        let n = raw.count
        let prefix: StaticString = "&lt;&lt;HKDevice: 0x"
        guard n > prefix.utf8CodeUnitCount, memcmp(raw.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0 else {
            return nil
        }
        var k = prefix.utf8CodeUnitCount
        while k < n, raw[k] >= 0x30 && raw[k] <= 0x39 || raw[k] >= 0x61 && raw[k] <= 0x66 || raw[k] >= 0x41 && raw[k] <= 0x46 { k += 1 }
        guard k + 4 <= n, raw[k] == 0x26, raw[k + 1] == 0x67, raw[k + 2] == 0x74, raw[k + 3] == 0x3B else { return nil }
        return k + 4
    }

    /// A record's end: it becomes a resting sample or counts in its writer's day.
    /// `timeZone`: the record's `HKTimeZone` metadata.
    mutating func finish(_ record: OpenRecord, timeZone: String?, resting details: RestingDetails?) {
        if earliestHeartStart.map({ record.start < $0 }) ?? true { earliestHeartStart = record.start }
        switch record.kind {
        case .resting:
            let sample = RestingSample(store: .healthKit, writer: writers[record.writer], device: details?.device,
                                       start: record.start.date, end: record.end.date,
                                       offsetSeconds: record.start.offsetSeconds, timeZoneIdentifier: timeZone,
                                       value: record.value, unit: details?.unit ?? "count/min",
                                       created: record.created?.date)
            resting.append(sample)
        case .heartRate:
            let zone = timeZone.flatMap(ZoneNames.zone)
            let day = LocalDayRule.healthKit(start: record.start.date, end: record.end.date,
                                             writtenOffset: record.start.offsetSeconds, timeZone: zone)
            let key = record.writer << 32 | (day.daysSinceEpoch & 0xFFFF_FFFF)
            while lastHeartRateDay.count <= record.writer { lastHeartRateDay.append((-1, 0)) }
            if key != lastHeartRateDay[record.writer].key {
                if let index = heartRateDayIndex[key] {
                    lastHeartRateDay[record.writer] = (key, index)
                } else {
                    lastHeartRateDay[record.writer] = (key, heartRateDays.count)
                    heartRateDayIndex[key] = heartRateDays.count
                    heartRateDays.append(HeartRateDaySummary(writer: writers[record.writer], day: day))
                }
            }
            heartRateDays[lastHeartRateDay[record.writer].index].add(bpm: record.bpm, context: record.motion)
        }
    }

    /// Adds what `later` collected from the bytes that follow this collector's, as if one collector had read both.
    mutating func append(_ later: AppleHealthCollector) {
        let writerMap = later.writers.indices.map { k in
            // By the raw spelling it was met by, which the later collector folded as this one folds it.
            let raws = later.spellings[k].sorted()
            let index = writer(named: raws[0])
            for raw in raws.dropFirst() { _ = writer(named: raw) }
            if later.writerIsWatch[k] { writerIsWatch[index] = true }
            return index
        }
        passedOver.append(later.passedOver)
        resting.append(contentsOf: later.resting)
        for (key, k) in later.heartRateDayIndex {
            let mapped = writerMap[key >> 32] << 32 | key & 0xFFFF_FFFF
            if let index = heartRateDayIndex[mapped] {
                heartRateDays[index].merge(later.heartRateDays[k])
            } else {
                heartRateDayIndex[mapped] = heartRateDays.count
                heartRateDays.append(later.heartRateDays[k])
            }
        }
        lastHeartRateDay = []
        recordsRead += later.recordsRead
        if let date = later.exportDate { exportDate = date }
        if let end = later.latestEnd { noteEnd(end) }
        if let start = later.earliestHeartStart, earliestHeartStart.map({ start < $0 }) ?? true { earliestHeartStart = start }
    }

    /// The heart-rate day summaries in `HeartRateSummarizer`'s order: writer, day.
    var heartRate: [HeartRateDaySummary] {
        heartRateDays.sorted { ($0.writer.key, $0.day) < ($1.writer.key, $1.day) }
    }
}

/// A few recently seen raw byte strings and what they mean: exports repeat the same source names and device
/// descriptions record after record, so a byte comparison saves decoding each one.
struct RawCache<Value> {
    private var keys: [[UInt8]] = []
    private var values: [Value] = []
    private var next = 0
    private let capacity = 8

    func lookup(_ raw: UnsafeRawBufferPointer) -> Value? {
        for k in keys.indices where keys[k].count == raw.count {
            let same = keys[k].withUnsafeBytes { key in
                raw.count == 0 || memcmp(key.baseAddress!, raw.baseAddress!, raw.count) == 0
            }
            if same { return values[k] }
        }
        return nil
    }

    mutating func insert(_ raw: UnsafeRawBufferPointer, _ value: Value) {
        if keys.count < capacity {
            keys.append(Array(raw))
            values.append(value)
        } else {
            keys[next] = Array(raw)
            values[next] = value
            next = (next + 1) % capacity
        }
    }
}
