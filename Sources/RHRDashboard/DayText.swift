import Foundation
import RHRCore

/// Dates and times as the dashboard writes them.
enum DayText {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Tue 12 Mar 2026"; with `padded`, " 2 Mar" keeps columns aligned.
    static func long(_ day: LocalDay, padded: Bool = false) -> String {
        let d = padded && day.day < 10 ? " \(day.day)" : "\(day.day)"
        return "\(weekdays[day.weekday]) \(d) \(LocalDay.monthNames[day.month - 1]) \(day.year)"
    }

    /// "12 Mar 21:00" (year added when not `thisYear`), in the timestamp's own offset.
    static func moment(_ t: Timestamp, thisYear: Int) -> String { t.text(thisYear: thisYear) }

    /// "14:02" today, else "12 Mar 14:02" (with the year when not this one).
    static func recent(_ t: Timestamp, today: LocalDay) -> String {
        t.localDay == today ? clock(t.date, offset: t.offsetSeconds) + " " + Timestamp.offsetText(t.offsetSeconds)
            : moment(t, thisYear: today.year)
    }

    /// "06:12" at an offset.
    static func clock(_ date: Date, offset: Int) -> String {
        let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let secondOfDay = ((local % 86_400) + 86_400) % 86_400
        return pad2(secondOfDay / 3600) + ":" + pad2(secondOfDay / 60 % 60)
    }

    static func day(_ date: Date, offset: Int) -> LocalDay {
        LocalDay(epochSeconds: date.timeIntervalSince1970, offsetSeconds: offset)
    }

    private static func pad2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
