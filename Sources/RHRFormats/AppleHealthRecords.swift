import Foundation
import RHRCore

/// The records of an Apple Health export: which are read, how their attributes are taken, and what a record rhr
/// cannot use becomes (R14: passed over, kept raw with its byte offset and reason, never the end of the file).
extension AppleHealthScanner {
    // MARK: - Records

    private static let restingType: StaticString = "HKQuantityTypeIdentifierRestingHeartRate"
    private static let heartRateType: StaticString = "HKQuantityTypeIdentifierHeartRate"

    /// The attributes of a top-level `Record` that rhr reads, as spans of the block; nil: not in the tag.
    private struct RecordAttributes {
        var kind: OpenRecord.Kind?
        var type: ByteSpan?
        var source: ByteSpan?
        /// iOS 8–9 named the writer in `source`; `sourceName` wins where both are.
        var legacySource: ByteSpan?
        var device: ByteSpan?
        var unit: ByteSpan?
        var value: ByteSpan?
        /// iOS 8–9 wrote some records as statistics (`min`, `max`, `average`, `recordCount`) without `value`: the
        /// average is the value (docs/design.md section 2).
        var average: ByteSpan?
        var created: ByteSpan?
        var start: ByteSpan?
        var end: ByteSpan?
        /// The first attribute written twice: the record is passed over (R14).
        var repeated: String?
    }

    /// The kind of record a `type` value names, nil for the types rhr does not read.
    private func recordKind(_ p: UnsafeRawPointer, _ raw: ByteSpan) -> OpenRecord.Kind? {
        if spanEquals(p, raw, AppleHealthScanner.restingType) { return .resting }
        if spanEquals(p, raw, AppleHealthScanner.heartRateType) { return .heartRate }
        guard memchr(p + raw.start, 0x26, raw.count) != nil else { return nil }
        // A type written with references (`HKQuantityTypeIdentifier&#82;esting…`) names the same type.
        return typeIs(p, raw, AppleHealthScanner.restingType) ? .resting
            : typeIs(p, raw, AppleHealthScanner.heartRateType) ? .heartRate : nil
    }

    /// A top-level `Record`. Returns the tag's real end when the record was parsed whole, its fast end otherwise,
    /// or nil when the block ends inside it.
    mutating func record(_ p: UnsafeRawPointer, _ lt: Int, _ nameEnd: Int, _ n: Int, base: Int64,
                         fastEnd: Int, selfClosing: Bool) -> (tagEnd: Int, selfClosing: Bool)? {
        var cursor = AttributeCursor(base: p, start: nameEnd, limit: n)
        var a = RecordAttributes()
        let needsEnds = collector.needsEnds

        // Apple's own layout, its attributes in its order one space apart, is read without the general walk below;
        // wherever a tag leaves that layout, the walk goes on from there with what was read so far. Most records
        // are of other types, and end here: their source and device are all rhr looks at (R3).
        if let raw = cursor.literal(" type=\"") {
            a.type = raw
            a.kind = recordKind(p, raw)
            if let source = cursor.literal(" sourceName=\"") {
                a.source = source
                _ = cursor.literal(" sourceVersion=\"")
                if let device = cursor.literal(" device=\"") {
                    a.device = device
                    if a.kind == nil && !needsEnds {
                        noteDevice(p, source: source, device: device)
                        return (fastEnd, selfClosing)
                    }
                }
                if a.kind != nil || needsEnds {
                    a.unit = cursor.literal(" unit=\"")
                    a.created = cursor.literal(" creationDate=\"")
                    a.start = cursor.literal(" startDate=\"")
                    a.end = cursor.literal(" endDate=\"")
                    a.value = cursor.literal(" value=\"")
                }
            }
        }

        while true {
            switch cursor.next() {
            case .attribute(let name, let raw):
                var repeated: StaticString?
                func once(_ span: inout ByteSpan?, _ attribute: StaticString) {
                    if span != nil { repeated = attribute } else { span = raw }
                }
                switch name.count {
                case 4 where spanEquals(p, name, "type"):
                    once(&a.type, "type")
                    a.kind = recordKind(p, raw)
                case 4 where spanEquals(p, name, "unit"): once(&a.unit, "unit")
                case 5 where spanEquals(p, name, "value"): once(&a.value, "value")
                case 6 where spanEquals(p, name, "device"): once(&a.device, "device")
                case 6 where spanEquals(p, name, "source"): once(&a.legacySource, "source")
                case 7 where spanEquals(p, name, "endDate"): once(&a.end, "endDate")
                case 7 where spanEquals(p, name, "average"): once(&a.average, "average")
                case 9 where spanEquals(p, name, "startDate"): once(&a.start, "startDate")
                case 10 where spanEquals(p, name, "sourceName"): once(&a.source, "sourceName")
                case 12 where spanEquals(p, name, "creationDate"): once(&a.created, "creationDate")
                default: break
                }
                if let repeated, a.repeated == nil { a.repeated = "\(repeated)" }
                // Other types: only the source and its device matter (R3), and only until both are seen; their end
                // too while the export has shown no ExportDate.
                if a.type != nil && a.kind == nil && !needsEnds && a.repeated == nil, let source = a.source,
                   let device = a.device {
                    noteDevice(p, source: source, device: device)
                    return (fastEnd, selfClosing)
                }
            case .end(let closes, let tagEnd):
                return finishRecord(p, a, lt: lt, at: base + Int64(lt), needsEnds: needsEnds, closes: closes, tagEnd: tagEnd)
            case .needMore:
                return nil
            case .malformed(let at, let expected):
                // Only a tag whose end the fast rule found gets here (the general walk refuses it first), so the
                // record's extent is known: it is passed over, and the scan goes on after it.
                passOver(p, lt: lt, tagEnd: fastEnd, at: base + Int64(lt), kind: "Record whose attributes do not parse",
                         reason: "expected \(expected) at byte \(base + Int64(at))")
                return (fastEnd, selfClosing)
            }
        }
    }

    /// R14: the record from `lt` to `tagEnd` (its start tag) is kept raw with its offset and reason, and read no
    /// further; its children, if any, are passed by depth like any record's rhr does not read.
    private mutating func passOver(_ p: UnsafeRawPointer, lt: Int, tagEnd: Int, at offset: Int64, kind: String,
                                   reason: String) {
        collector.passedOver.add(kind: kind, reason: reason, place: InputPlace(byte: offset),
                                 raw: String(decoding: bytes(p, ByteSpan(start: lt, count: tagEnd - lt)), as: UTF8.self))
    }

    /// A whole `Record` start tag read: a heart record becomes an `OpenRecord`, finished here when the tag closes
    /// itself, or at its `</Record>`; of another type, only its source's device and its end are noted. A record rhr
    /// cannot use is passed over (R14), whatever else the file holds.
    private mutating func finishRecord(_ p: UnsafeRawPointer, _ a: RecordAttributes, lt: Int, at where_: Int64,
                                       needsEnds: Bool, closes: Bool, tagEnd: Int) -> (tagEnd: Int, selfClosing: Bool) {
        let done = (tagEnd: tagEnd, selfClosing: closes)
        func passOver(_ kind: String, _ reason: String) -> (tagEnd: Int, selfClosing: Bool) {
            self.passOver(p, lt: lt, tagEnd: tagEnd, at: where_, kind: kind, reason: reason)
            return done
        }
        func notADate(_ attribute: String, _ span: ByteSpan) -> (tagEnd: Int, selfClosing: Bool) {
            passOver("\(kindName(a.kind ?? .resting)) whose \(attribute) is not a date",
                     "\(attribute) \(quoted(p, span)) is not a date like 2022-02-17 12:22:00 +0200")
        }
        let source = a.source ?? a.legacySource
        guard let type = a.type else { return passOver("Record without a type", "a Record without a type attribute") }
        if let repeated = a.repeated {
            return passOver("Record with an attribute written twice", "a Record with two \(repeated) attributes")
        }
        guard let kind = a.kind else {
            _ = type
            if needsEnds, let end = a.end, let t = try? date(p, end, "endDate", 0) { collector.noteEnd(t) }
            if let source, let device = a.device { noteDevice(p, source: source, device: device) }
            return done
        }
        let name = kindName(kind)
        guard let sourceSpan = source, sourceSpan.count > 0 else {
            // R2: a value without a writer to name.
            return passOver("\(name) without a writer", source == nil ? "a \(name) record with no sourceName (or source)"
                                                                       : "a \(name) record with an empty sourceName")
        }
        guard let start = a.start else { return passOver("\(name) without a startDate", "a \(name) record without startDate") }
        guard let end = a.end else { return passOver("\(name) without an endDate", "a \(name) record without endDate") }
        guard let valueSpan = a.value ?? a.average else {
            return passOver("\(name) without a value", "a \(name) record without value (or average)")
        }
        guard let unit = a.unit else { return passOver("\(name) without a unit", "a \(name) record without unit") }
        let writer = collector.writer(raw: bytes(p, sourceSpan))
        if let flaw = collector.flaw(of: writer) {
            return passOver("\(name) whose writer's name holds a control character",
                            "sourceName \(quoted(p, sourceSpan)) holds \(flaw.words)")
        }
        guard let startDate = try? date(p, start, "startDate", where_) else {
            return notADate("startDate", start)
        }
        // Heart-rate samples are instants: the end is most often the start, written again.
        let endDate: Timestamp
        if start.count == end.count && memcmp(p + start.start, p + end.start, start.count) == 0 {
            endDate = startDate
        } else if let t = try? date(p, end, "endDate", where_) {
            endDate = t
        } else {
            return notADate("endDate", end)
        }
        guard let value = AppleHealthText.number(bytes(p, valueSpan)) else {
            return passOver("\(name) whose value is not a number",
                            "\(a.value == nil ? "average" : "value") \(quoted(p, valueSpan)) is not a number")
        }
        var record = OpenRecord(kind: kind, offset: where_, writer: writer, start: startDate, end: endDate,
                                created: nil, value: value, bpm: 0)
        var details: RestingDetails?
        if record.end < record.start {
            return passOver("\(name) whose endDate is before its startDate",
                            "a \(name) record whose endDate is before its startDate")
        }
        if needsEnds { collector.noteEnd(record.end) }
        switch kind {
        case .resting:
            if let created = a.created {
                guard let t = try? date(p, created, "creationDate", where_) else { return notADate("creationDate", created) }
                record.created = t
            }
            let unitText = AppleHealthText.attributeValue(bytes(p, unit))
            guard RestingValue.isSupported(unit: unitText) else {
                return passOver("\(name) in a unit that is not a heart rate", "\(UnitError(unit: unitText))")
            }
            var parsed: Device?
            if let device = a.device {
                parsed = collector.device(raw: bytes(p, device))
                if let model = parsed?.model, ProvisionalRule.isAppleWatch(sourceName: "", deviceModel: model) {
                    collector.markWatch(writer)
                }
            }
            details = RestingDetails(unit: unitText, device: parsed)
        case .heartRate:
            if spanEquals(p, unit, "count/min") {
                record.bpm = record.value
            } else {
                let text = AppleHealthText.attributeValue(bytes(p, unit))
                guard let bpm = try? RestingValue.bpm(value: record.value, unit: text) else {
                    return passOver("\(name) in a unit that is not a heart rate", "\(UnitError(unit: text))")
                }
                record.bpm = bpm
            }
            // The writer is known here: no need to look its source up again, as noteDevice does.
            if let device = a.device, !collector.isWatch(writer), collector.deviceIsWatch(raw: bytes(p, device)) {
                collector.markWatch(writer)
            }
        }
        if closes {
            collector.finish(record, timeZone: nil, resting: details)
        } else {
            open = record
            openResting = details
        }
        return done
    }

    /// An attribute's value as the reasons quote it (`PassedOverRecord.quote`).
    private func quoted(_ p: UnsafeRawPointer, _ span: ByteSpan) -> String {
        PassedOverRecord.quote(AppleHealthText.attributeValue(bytes(p, ByteSpan(start: span.start, count: min(span.count, 256)))))
    }

    /// R3: a record whose device's model is Apple Watch makes its source a watch. A source already known as a watch
    /// needs no look at the device.
    mutating func noteDevice(_ p: UnsafeRawPointer, source: ByteSpan, device: ByteSpan) {
        if collector.isKnownWatch(raw: bytes(p, source)) { return }
        guard collector.deviceIsWatch(raw: bytes(p, device)) else { return }
        let writer = collector.writer(raw: bytes(p, source))
        collector.markWatch(writer)
    }

    /// A `type` value with entity-encoded letters still names the type (decoded exactly, compared whole).
    private func typeIs(_ p: UnsafeRawPointer, _ raw: ByteSpan, _ type: StaticString) -> Bool {
        let text = AppleHealthText.attributeValue(bytes(p, raw))
        return text.utf8.elementsEqual(UnsafeBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount))
    }

    private func kindName(_ kind: OpenRecord.Kind) -> String {
        kind == .resting ? "RestingHeartRate" : "HeartRate"
    }

    mutating func date(_ p: UnsafeRawPointer, _ span: ByteSpan, _ attribute: String, _ offset: Int64)
        throws(AppleHealthScanError) -> Timestamp {
        let raw = bytes(p, span)
        if let t = days.date(raw) { return t }
        if let t = Timestamp.parse(raw) {
            days.remember(raw, t)
            return t
        }
        if let t = Timestamp.parseCompact(raw) { return t }
        if AppleHealthText.needsDecoding(raw), let t = Timestamp.parse(AppleHealthText.attributeValue(raw))
            ?? Timestamp.parseCompact(AppleHealthText.attributeValue(raw)) { return t }
        throw AppleHealthScanError(offset: offset, message:
            "\(attribute) \"\(AppleHealthText.attributeValue(raw))\" is not a date like 2022-02-17 12:22:00 +0200")
    }

    /// `MetadataEntry` of an open record: `HKTimeZone` and `HKMetadataKeyHeartRateMotionContext`.
    /// Returns false when the block ends inside it.
    mutating func metadata(_ p: UnsafeRawPointer, _ lt: Int, _ nameEnd: Int, _ n: Int, base: Int64)
        throws(AppleHealthScanError) -> Bool {
        var cursor = AttributeCursor(base: p, start: nameEnd, limit: n)
        // Apple's layout first, as for records; a repeated attribute is taken at its last.
        var key = cursor.literal(" key=\"")
        var value = key == nil ? nil : cursor.literal(" value=\"")
        while true {
            switch cursor.next() {
            case .attribute(let name, let raw):
                if spanEquals(p, name, "key") { key = raw }
                else if spanEquals(p, name, "value") { value = raw }
            case .end:
                guard let key, let value else { return true }
                let k = bytes(p, key)
                let decodedKey = AppleHealthText.needsDecoding(k) ? AppleHealthText.attributeValue(k) : nil
                func isKey(_ literal: StaticString) -> Bool {
                    if let decodedKey {
                        return decodedKey.utf8.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
                    }
                    return spanEquals(p, key, literal)
                }
                let v = bytes(p, value)
                if isKey("HKTimeZone") {
                    openTimeZone = AppleHealthText.attributeValue(v)
                } else if isKey("HKMetadataKeyHeartRateMotionContext") {
                    let motion = v.count == 1 && v[0] >= 0x30 && v[0] <= 0x39
                        ? MotionContext(rawValue: Int(v[0] - 0x30)) ?? .notSet
                        : MotionContext(metadataValue: AppleHealthText.attributeValue(v))
                    open?.motion = motion
                }
                return true
            case .needMore:
                return false
            case .malformed(let at, let expected):
                throw AppleHealthScanError(offset: base + Int64(at), message: "expected \(expected) in a MetadataEntry")
            }
        }
    }
}
