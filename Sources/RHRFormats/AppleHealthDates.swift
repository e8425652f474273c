import RHRCore

/// Apple's dates, `2022-11-14 10:15:28 +0100`, read from the day and zone of the last one parsed when they are the
/// same: an export's records come in time order, so most dates share both with the one before, and only the time
/// of day is left to read. The result is exactly `Timestamp.parse`'s: its date and zone were accepted by it, the
/// time of day is checked as it checks it, and whole seconds add exactly.
struct AppleHealthDayCache {
    /// The bytes of the last date parsed whole: day and separator (`0..<11`), then ` +0100` (`19..<25`).
    private var day: (UInt64, UInt32) = (0, 0)
    private var zone: (UInt32, UInt16) = (0, 0)
    /// That date as parsed, and its second of the day.
    private var parsed: Timestamp?
    private var secondOfDay = 0

    private static let length = 25

    /// The date `raw` names, when it shares the day and zone of the date cached.
    func date(_ raw: UnsafeRawBufferPointer) -> Timestamp? {
        guard raw.count == Self.length, let parsed, Self.day(raw) == day, Self.zone(raw) == zone,
              let second = Self.secondOfDay(raw) else { return nil }
        return Timestamp(epochSeconds: parsed.epochSeconds + Double(second - secondOfDay), offsetSeconds: parsed.offsetSeconds)
    }

    /// Keeps `date`, which `Timestamp.parse` read from `raw`, for the dates after it.
    mutating func remember(_ raw: UnsafeRawBufferPointer, _ date: Timestamp) {
        guard raw.count == Self.length, raw[19] == 0x20, let second = Self.secondOfDay(raw) else { return }
        day = Self.day(raw)
        zone = Self.zone(raw)
        parsed = date
        secondOfDay = second
    }

    private static func day(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt32) {
        (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 7, as: UInt32.self))
    }

    private static func zone(_ raw: UnsafeRawBufferPointer) -> (UInt32, UInt16) {
        (raw.loadUnaligned(fromByteOffset: 19, as: UInt32.self), raw.loadUnaligned(fromByteOffset: 23, as: UInt16.self))
    }

    /// `HH:MM:SS` at 11, as `Timestamp.parse` takes it (its digits read by the same `DateDigits`): hours to 23,
    /// minutes to 59, seconds to 60.
    private static func secondOfDay(_ raw: UnsafeRawBufferPointer) -> Int? {
        guard raw[13] == 0x3A, raw[16] == 0x3A, let h = DateDigits.value(raw, 11, 2), let m = DateDigits.value(raw, 14, 2),
              let s = DateDigits.value(raw, 17, 2), h <= 23, m <= 59, s <= 60 else { return nil }
        return h * 3600 + m * 60 + s
    }
}
