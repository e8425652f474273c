import Foundation
import RHRCore
import RHRSystem
import Testing

/// The clock rhr reads "now" and "today" from, in the machine's zone (R5).
@Suite("Machine clock: now and today in the zone asked for")
struct MachineClockTests {
    /// The calendar day `timestamp` falls on in `zone`, as Foundation's own calendar counts it.
    func calendarDay(_ timestamp: Timestamp, _ zone: TimeZone) -> LocalDay? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: timestamp.date)
        return LocalDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    @Test("Now carries the zone's offset, and its local day is the one the zone's calendar has then",
          arguments: ["Pacific/Kiritimati", "Etc/GMT+12", "Asia/Kathmandu", "UTC"])
    func nowInZone(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let now = MachineClock.now(in: zone)
        #expect(now.offsetSeconds == zone.secondsFromGMT(for: now.date))
        #expect(now.localDay == calendarDay(now, zone))
    }

    @Test("Fourteen hours east and twelve west of Greenwich are never on the same day")
    func zonesApartAreDaysApart() throws {
        // 26 hours apart: whatever the moment, the day in Kiritimati is one or two after the day at GMT-12.
        let east = MachineClock.today(in: try #require(TimeZone(identifier: "Pacific/Kiritimati")))
        let west = MachineClock.today(in: try #require(TimeZone(identifier: "Etc/GMT+12")))
        #expect(east > west)
    }
}
