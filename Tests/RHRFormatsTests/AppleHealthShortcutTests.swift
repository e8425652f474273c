import Foundation
import RHRCore
@testable import RHRFormats
import Testing

/// The scanner's shortcuts for what Apple writes (its attribute layout, dates of the same day, devices that differ
/// only in their address) give exactly what the general reading gives, and the general reading still takes the rest.
@Suite("Apple Health scanner shortcuts")
struct AppleHealthShortcutTests {
    /// Records as Apple writes them, attribute by attribute.
    static let records: [(element: String, attributes: [(String, String)], children: String)] = [
        ("Record", [("type", "HKQuantityTypeIdentifierRestingHeartRate"), ("sourceName", "Jane’s Apple Watch"),
                    ("sourceVersion", "10.1"), ("device", appleHealthWatchDevice), ("unit", "count/min"),
                    ("creationDate", "2024-03-13 23:40:00 +0100"), ("startDate", "2024-03-13 00:01:00 +0100"),
                    ("endDate", "2024-03-13 23:30:00 +0100"), ("value", "58")],
         "  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Berlin\"/>\n"),
        ("Record", [("type", "HKQuantityTypeIdentifierHeartRate"), ("sourceName", "Polar"), ("sourceVersion", "2"),
                    ("device", appleHealthWatchDevice), ("unit", "count/min"), ("creationDate", "2024-03-13 10:01:00 +0100"),
                    ("startDate", "2024-03-13 10:00:00 +0100"), ("endDate", "2024-03-13 10:00:00 +0100"), ("value", "64")],
         "  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n"),
        ("Record", [("type", "HKQuantityTypeIdentifierStepCount"), ("sourceName", "Jane’s iPhone"), ("sourceVersion", "16.1"),
                    ("device", appleHealthPhoneDevice), ("unit", "count"), ("startDate", "2024-03-13 10:00:00 +0100"),
                    ("endDate", "2024-03-13 10:05:00 +0100"), ("value", "120")], ""),
        ("Record", [("type", "HKQuantityTypeIdentifierActiveEnergyBurned"), ("sourceName", "Garmin"),
                    ("device", appleHealthWatchDevice), ("unit", "kcal"), ("startDate", "2024-03-13 10:00:00 +0100"),
                    ("endDate", "2024-03-13 10:05:00 +0100"), ("value", "3.5")], ""),
        ("Record", [("type", "HKQuantityTypeIdentifierHeartRate"), ("source", "Old Watch"), ("unit", "count/min"),
                    ("startDate", "20151107171924+0100"), ("endDate", "20151107171924+0100"), ("value", "61")], ""),
    ]

    static func render(_ record: (element: String, attributes: [(String, String)], children: String),
                       separators: [String]? = nil, quotes: [Character]? = nil) -> String {
        var line = " <\(record.element)"
        for (k, (name, value)) in record.attributes.enumerated() {
            let quote = quotes?[k] ?? "\""
            line += (separators?[k] ?? " ") + "\(name)=\(quote)\(value)\(quote)"
        }
        return record.children.isEmpty ? line + "/>\n" : line + ">\n" + record.children + " </\(record.element)>\n"
    }

    @Test("each attribute left out of Apple's layout, by its spacing, its quotes or its place, reads the same")
    func layouts() throws {
        let canonical = try readAppleHealth(appleHealthExport(Self.records.map { Self.render($0) }.joined()))
        #expect(canonical.batches[0].watchWriters == ["Jane’s Apple Watch", "Polar", "Garmin"])
        #expect(canonical.batches[0].heartRate.map(\.total) == [1, 1])
        for (r, record) in Self.records.enumerated() {
            for k in record.attributes.indices {
                var separators = Array(repeating: " ", count: record.attributes.count)
                separators[k] = "\r\n\t "
                var quotes = Array(repeating: Character("\""), count: record.attributes.count)
                quotes[k] = "'"
                var moved = record
                moved.attributes.append(moved.attributes.remove(at: k))
                for variant in [Self.render(record, separators: separators), Self.render(record, quotes: quotes), Self.render(moved)] {
                    var all = Self.records.map { Self.render($0) }
                    all[r] = variant
                    let file = try readAppleHealth(appleHealthExport(all.joined()))
                    #expect(file.batches == canonical.batches, "record \(r), attribute \(k): \(variant)")
                    #expect(file.recordsRead == canonical.recordsRead)
                }
            }
        }
    }

    @Test("a record with an attribute not parted from the one before by white space is passed over, naming its first byte, wherever it is")
    func missingSeparator() throws {
        for (r, record) in Self.records.enumerated() {
            for k in record.attributes.indices.dropFirst() {
                var separators = Array(repeating: " ", count: record.attributes.count)
                separators[k] = ""
                let line = Self.render(record, separators: separators)
                var all = Self.records.map { Self.render($0) }
                all[r] = line
                let xml = appleHealthExport(all.joined())
                // A record of another type is read up to its device, all that rhr needs of it (R3), as before.
                let isHeart = record.attributes[0].1.contains("HeartRate")
                if !isHeart, let device = record.attributes.firstIndex(where: { $0.0 == "device" }), k > device + 1 {
                    #expect(try appleHealthError(xml) == nil)
                    continue
                }
                // R14: the record is passed over, at its own offset, naming the first byte that does not parse.
                let passed = try #require(try readAppleHealth(xml).passedOver.records.first, "record \(r), attribute \(k)")
                let (name, value) = record.attributes[k]
                let at = try #require(appleHealthByteOffset(of: line, in: xml))
                let wrong = at + Int64(try #require(appleHealthByteOffset(of: "\"\(name)=\"\(value)\"", in: line))) + 1
                #expect(passed.reason == "expected white space between attributes at byte \(wrong)", "\(passed.reason)")
                #expect(passed.place == "byte \(at + 1)")
            }
        }
    }

    @Test("a record with an attribute repeated after Apple's layout is passed over, as anywhere else")
    func repeatedAfterLayout() throws {
        for (r, name) in [(0, "sourceName"), (0, "type"), (1, "unit"), (1, "value"), (1, "device")] {
            var record = Self.records[r]
            record.attributes.append((name, record.attributes.first { $0.0 == name }!.1))
            let line = Self.render(record)
            let xml = appleHealthExport(line)
            let passed = try #require(try readAppleHealth(xml).passedOver.records.first)
            #expect(passed.reason.contains("two \(name) attributes"), "\(passed.reason)")
            #expect(passed.place == "byte \(try #require(appleHealthByteOffset(of: String(line.dropFirst()), in: xml)))")
        }
    }

    @Test("dates that share a day and zone with the one before read exactly as Timestamp.parse reads them")
    func sameDayDates() {
        let texts = ["2024-03-13 10:00:00 +0100", "2024-03-13 10:00:01 +0100", "2024-03-13 23:59:59 +0100",
                     "2024-03-13 23:59:60 +0100", "2024-03-13 00:00:00 +0100", "2024-03-13 24:00:00 +0100",
                     "2024-03-13 12:60:00 +0100", "2024-03-13 12:00:61 +0100", "2024-03-13 1a:00:00 +0100",
                     "2024-03-13 12-00:00 +0100", "2024-03-13 12:00:00 +0200", "2024-03-13 12:00:00 -0100",
                     "2024-03-13T12:00:00 +0200", "2024-03-13 12:00:00.5 +0200", "2024-03-13 12:00:00 +02:00",
                     "2024-03-14 12:00:00 +0200", "2024-02-30 12:00:00 +0200", "2024-02-30 12:00:01 +0200",
                     "1970-01-01 01:00:00 +0100", "1970-01-01 00:59:59 +0100", "1970-01-01 01:00:00 +0100",
                     "2024-03-14 12:00:00 Z0000", "2024-03-14 12:00:00 +0200", "2024-03-14 12:00:01 +0200",
                     "2024-03-14 12:00:01 +0200 "]
        var cache = AppleHealthDayCache()
        var hits = 0
        for text in texts {
            var text = text
            let expected = Timestamp.parse(text)
            let read: Timestamp? = text.withUTF8 { utf8 in
                let raw = UnsafeRawBufferPointer(utf8)
                if let date = cache.date(raw) {
                    hits += 1
                    return date
                }
                let date = Timestamp.parse(raw)
                if let date { cache.remember(raw, date) }
                return date
            }
            #expect(read == expected, "\(text)")
            #expect(read.map { $0.epochSeconds.bitPattern } == expected.map { $0.epochSeconds.bitPattern }, "\(text)")
        }
        #expect(hits == 7)
    }

    @Test("resting records whose devices differ only in their address name the same device; other devices not")
    func devicesByDescription() throws {
        let other = "&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,1, software:10.1&gt;"
        let bare = "name:Polar H10, manufacturer:Polar, model:H10"
        let days = ["11", "12", "13", "14", "15"]
        let devices = [appleHealthWatchDevice, appleHealthWatchDevice.replacingOccurrences(of: "0x282a45810", with: "0xABC"),
                       other, bare, bare]
        let xml = appleHealthExport(zip(days, devices).map { day, device in
            appleHealthRecord(device: device, start: "2024-03-\(day) 00:01:00 +0100", end: "2024-03-\(day) 23:30:00 +0100")
        }.joined())
        let read = try readAppleHealth(xml).batches[0].resting.map(\.device)
        let parsed = devices.map { device in
            var device = device
            return device.withUTF8 { AppleHealthDevice.parse(AppleHealthText.attributeValue(UnsafeRawBufferPointer($0))) }
        }
        #expect(read == parsed)
        #expect(read[0] == read[1] && read[1] != read[2] && read[3]?.name == "Polar H10")
    }
}
