import Foundation

/// An instant together with the UTC offset it was written with.
/// HealthKit export dates carry the phone's offset at export time; ISO-8601 dates carry theirs.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var epochSeconds: Double
    /// Offset from UTC, in seconds, as written.
    public var offsetSeconds: Int

    public init(epochSeconds: Double, offsetSeconds: Int) {
        self.epochSeconds = epochSeconds
        self.offsetSeconds = offsetSeconds
    }

    public init(date: Date, offsetSeconds: Int) {
        self.init(epochSeconds: date.timeIntervalSince1970, offsetSeconds: offsetSeconds)
    }

    public var date: Date { Date(timeIntervalSince1970: epochSeconds) }

    /// The same instant at `zone`'s offset then: moments from several phones, shown side by side, read in one clock.
    public func at(_ zone: TimeZone) -> Timestamp {
        Timestamp(epochSeconds: epochSeconds, offsetSeconds: zone.secondsFromGMT(for: date))
    }

    /// The local day of the instant at its written offset.
    public var localDay: LocalDay { LocalDay(epochSeconds: epochSeconds, offsetSeconds: offsetSeconds) }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.epochSeconds < rhs.epochSeconds }

    /// ISO-8601 with its offset: `2026-11-28T06:12:00+01:00`; fractions of a second kept to the millisecond.
    public var description: String { iso8601 }

    public var iso8601: String {
        // ISO-8601 offsets have whole minutes; an odd offset is written at UTC so the instant stays exact.
        let offset = offsetSeconds % 60 == 0 ? offsetSeconds : 0
        let totalMillis = Int64(((epochSeconds + Double(offset)) * 1000).rounded())
        let millis = Int(((totalMillis % 1000) + 1000) % 1000)
        let wholeSeconds = (totalMillis - Int64(millis)) / 1000
        let day = LocalDay(daysSinceEpoch: Int((Double(wholeSeconds) / 86_400).rounded(.down)))
        let secondOfDay = Int(wholeSeconds - Int64(day.daysSinceEpoch) * 86_400)
        var text = day.description + "T" + LocalDay.pad(secondOfDay / 3600, 2) + ":"
            + LocalDay.pad(secondOfDay / 60 % 60, 2) + ":" + LocalDay.pad(secondOfDay % 60, 2)
        if millis > 0 { text += "." + LocalDay.pad(millis, 3) }
        return text + Timestamp.offsetText(offset, colon: true)
    }

    /// "12 Mar 21:00 +01:00" in the written offset, with the year when it is not `thisYear` ("19 Jul 2019 10:36
    /// +02:00"): the one way rhr writes a moment for people (the header, the summary, the revision history, the detail
    /// pane). Every time shown carries its offset, so no reader has to guess the clock; `offset: false`
    /// only where the offset is written once for several times beside it.
    public func text(thisYear: Int, offset: Bool = true) -> String {
        let local = Int((epochSeconds + Double(offsetSeconds)).rounded(.down))
        let day = LocalDay(daysSinceEpoch: Int((Double(local) / 86_400).rounded(.down)))
        let secondOfDay = local - day.daysSinceEpoch * 86_400
        return day.text(thisYear: thisYear) + " " + LocalDay.pad(secondOfDay / 3600, 2) + ":"
            + LocalDay.pad(secondOfDay / 60 % 60, 2) + (offset ? " " + Timestamp.offsetText(offsetSeconds) : "")
    }

    /// `+01:00`, `-07:00`, `+05:45`; `Z` is never written so the offset stays visible.
    public static func offsetText(_ seconds: Int, colon: Bool = true) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return sign + LocalDay.pad(minutes / 60, 2) + (colon ? ":" : "") + LocalDay.pad(minutes % 60, 2)
    }

    /// Parses an offset alone: `+01:00`, `+0100`, `-07`, `Z`.
    public static func parseOffset(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { utf8 in
            let bytes = UnsafeRawBufferPointer(utf8)
            var i = 0
            return parseZone(bytes, &i).flatMap { i == bytes.count ? $0 : nil }
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM|±HHMM)` and Apple's `YYYY-MM-DD HH:MM:SS ±HHMM`.
    /// A date without an offset is refused: rhr never guesses the zone of a written date.
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The same, on raw bytes (the export scanner's hot path).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        let n = bytes.count
        guard n >= 19 else { return nil }
        let digits = DateDigits.self
        guard let year = digits.value(bytes, 0, 4), bytes[4] == 0x2D, let month = digits.value(bytes, 5, 2), bytes[7] == 0x2D,
              let day = digits.value(bytes, 8, 2), bytes[10] == 0x54 || bytes[10] == 0x20 || bytes[10] == 0x74,
              let hour = digits.value(bytes, 11, 2), bytes[13] == 0x3A, let minute = digits.value(bytes, 14, 2),
              bytes[16] == 0x3A, let second = digits.value(bytes, 17, 2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < n && (bytes[i] == 0x2E || bytes[i] == 0x2C) {
            i += 1
            var scale = 0.1
            let start = i
            while i < n, let d = DateDigits.value(bytes, i, 1) {
                fraction += Double(d) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        if i < n && bytes[i] == 0x20 { i += 1 }
        guard let offset = parseZone(bytes, &i), i == n else { return nil }
        let days = LocalDay.daysFromCivil(year: year, month: month, day: day)
        let local = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
        return Timestamp(epochSeconds: local - Double(offset), offsetSeconds: offset)
    }

    /// Parses the compact form exports of iOS 8–9 wrote, `YYYYMMDDHHMMSS±HHMM` (`20151107171924+0100`). Kept apart
    /// from `parse`: sync batches take ISO-8601 only.
    public static func parseCompact(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parseCompact(UnsafeRawBufferPointer($0)) }
    }

    public static func parseCompact(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
        guard bytes.count >= 15 else { return nil }
        let digits = DateDigits.self
        guard let year = digits.value(bytes, 0, 4), let month = digits.value(bytes, 4, 2), let day = digits.value(bytes, 6, 2),
              let hour = digits.value(bytes, 8, 2), let minute = digits.value(bytes, 10, 2),
              let second = digits.value(bytes, 12, 2),
              (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var i = 14
        if bytes[i] == 0x20 { i += 1 }
        guard let offset = parseZone(bytes, &i), i == bytes.count else { return nil }
        let days = LocalDay.daysFromCivil(year: year, month: month, day: day)
        let local = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
        return Timestamp(epochSeconds: local - Double(offset), offsetSeconds: offset)
    }

    /// `Z`, `±HH`, `±HHMM` or `±HH:MM` at `i`, which moves past it.
    private static func parseZone(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Int? {
        let end = b.count
        guard i < end else { return nil }
        if b[i] == 0x5A || b[i] == 0x7A { i += 1; return 0 }   // Z
        guard b[i] == 0x2B || b[i] == 0x2D else { return nil }
        let sign = b[i] == 0x2D ? -1 : 1
        i += 1
        guard let hours = DateDigits.value(b, i, 2), hours <= 18 else { return nil }
        i += 2
        var minutes = 0
        if i < end {
            if b[i] == 0x3A { i += 1 }
            guard let m = DateDigits.value(b, i, 2), m <= 59 else { return nil }
            i += 2
            minutes = m
        }
        return sign * (hours * 3600 + minutes * 60)
    }
}
