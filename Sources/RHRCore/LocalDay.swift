/// A calendar date with no zone: the local day a value belongs to (R5).
/// Stored as days since 1970-01-01, like Health Connect's `local_date`.
public struct LocalDay: Sendable, Hashable, Comparable, Strideable, CustomStringConvertible {
    public let daysSinceEpoch: Int

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// Nil when the date does not exist (Feb 30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDay.daysIn(month: month, year: year) else {
            return nil
        }
        self.daysSinceEpoch = LocalDay.daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        var text = text
        let parts = text.withUTF8 { utf8 -> (Int, Int, Int)? in
            let bytes = UnsafeRawBufferPointer(utf8)
            guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D, let y = DateDigits.value(bytes, 0, 4),
                  let m = DateDigits.value(bytes, 5, 2), let d = DateDigits.value(bytes, 8, 2) else { return nil }
            return (y, m, d)
        }
        guard let (y, m, d) = parts else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The local day of an instant seen at a fixed offset from UTC.
    public init(epochSeconds: Double, offsetSeconds: Int) {
        let local = (epochSeconds + Double(offsetSeconds)) / 86_400
        self.daysSinceEpoch = Int(local.rounded(.down))
    }

    public var year: Int { LocalDay.civil(daysSinceEpoch).year }
    public var month: Int { LocalDay.civil(daysSinceEpoch).month }
    public var day: Int { LocalDay.civil(daysSinceEpoch).day }

    /// 0 Sunday … 6 Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 11) % 7 }

    /// Seconds since the epoch of this day's local midnight, at UTC.
    public var startEpochSeconds: Double { Double(daysSinceEpoch) * 86_400 }

    public var description: String {
        let c = LocalDay.civil(daysSinceEpoch)
        return LocalDay.pad(c.year, 4) + "-" + LocalDay.pad(c.month, 2) + "-" + LocalDay.pad(c.day, 2)
    }

    /// "12 Mar", for axes and the header.
    public var shortText: String {
        let c = LocalDay.civil(daysSinceEpoch)
        return "\(c.day) \(LocalDay.monthNames[c.month - 1])"
    }

    /// "12 Mar 2026".
    public var mediumText: String { "\(shortText) \(year)" }

    /// "12 Mar" in `thisYear`, "12 Mar 2019" in any other: how a day is written for people wherever the year
    /// is not evident from around it.
    public func text(thisYear: Int) -> String { year == thisYear ? shortText : mediumText }

    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public func adding(days: Int) -> LocalDay { LocalDay(daysSinceEpoch: daysSinceEpoch + days) }
    public func distance(to other: LocalDay) -> Int { other.daysSinceEpoch - daysSinceEpoch }
    public func advanced(by n: Int) -> LocalDay { adding(days: n) }
    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    // MARK: - Civil calendar arithmetic (proleptic Gregorian; H. Hinnant's algorithms)

    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
