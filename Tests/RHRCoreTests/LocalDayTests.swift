import Testing
@testable import RHRCore
import RHRTestSupport

@Suite("LocalDay and Timestamp")
struct LocalDayTests {
    @Test func civilRoundTrip() {
        for days in [-719_468, -1, 0, 1, 365, 10_957, 11_016, 19_782, 20_000, 2_932_896] {
            let c = LocalDay.civil(days)
            #expect(LocalDay.daysFromCivil(year: c.year, month: c.month, day: c.day) == days)
        }
        #expect(LocalDay(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(LocalDay(year: 2000, month: 3, day: 1)?.description == "2000-03-01")
    }

    @Test func invalidDatesAreRefused() {
        #expect(LocalDay(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDay(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDay("2026-13-01") == nil)
        #expect(LocalDay("2026-1-01") == nil)
        #expect(LocalDay("2026-04-31") == nil)
        #expect(LocalDay("2026-04-30")?.description == "2026-04-30")
    }

    @Test func weekdayAndText() {
        #expect(day("1970-01-01").weekday == 4)   // a Thursday
        #expect(day("2026-11-29").weekday == 0)   // a Sunday
        #expect(day("2026-03-12").shortText == "12 Mar")
    }

    @Test func parsesBothDateShapes() {
        let apple = ts("2022-10-01 08:01:23 +0200")
        #expect(apple.offsetSeconds == 7200)
        #expect(apple.epochSeconds == 1_664_604_083)
        let iso = ts("2022-10-01T06:01:23Z")
        #expect(iso.epochSeconds == apple.epochSeconds)
        #expect(iso.offsetSeconds == 0)
        #expect(ts("2022-10-01T08:01:23.250+02:00").epochSeconds == 1_664_604_083.25)
        #expect(ts("2022-10-01T00:46:23-05:15").epochSeconds == apple.epochSeconds)
        #expect(ts("2022-10-01T08:01:23+0200") == apple)
    }

    @Test func refusesDatesWithoutOffsetOrMalformed() {
        #expect(Timestamp.parse("2022-10-01 08:01:23") == nil)
        #expect(Timestamp.parse("2022-10-01T08:01:23") == nil)
        #expect(Timestamp.parse("2022-13-01T08:01:23Z") == nil)
        #expect(Timestamp.parse("2022-02-30T08:01:23Z") == nil)
        #expect(Timestamp.parse("2022-10-01T25:01:23Z") == nil)
        #expect(Timestamp.parse("2022-10-01T08:01:23+02:00x") == nil)
        #expect(Timestamp.parse("yesterday") == nil)
        #expect(Timestamp.parse("") == nil)
    }

    @Test func writesISOWithItsOffset() {
        #expect(ts("2026-11-28 23:48:44 +0100").iso8601 == "2026-11-28T23:48:44+01:00")
        #expect(ts("2026-11-28T06:12:00Z").iso8601 == "2026-11-28T06:12:00+00:00")
        #expect(ts("2026-11-28T06:12:00.5-07:00").iso8601 == "2026-11-28T06:12:00.500-07:00")
        #expect(Timestamp.offsetText(-(5 * 3600 + 45 * 60)) == "-05:45")
        #expect(Timestamp.parseOffset("+05:45") == 20_700)
        #expect(Timestamp.parseOffset("Z") == 0)
        #expect(Timestamp.parseOffset("+5") == nil)
    }

    @Test func localDayOfAnInstantAtAnOffset() {
        let t = ts("2026-11-28T23:30:00Z")
        #expect(t.localDay == day("2026-11-28"))
        #expect(LocalDay(epochSeconds: t.epochSeconds, offsetSeconds: 3600) == day("2026-11-29"))
        #expect(LocalDay(epochSeconds: -1, offsetSeconds: 0) == day("1969-12-31"))
    }
}

@Suite("Timestamp edge cases")
struct TimestampEdgeTests {
    @Test func oddOffsetsAreWrittenAtUTCKeepingTheInstant() {
        let t = Timestamp(epochSeconds: 1_700_000_000, offsetSeconds: 3601)
        #expect(Timestamp.parse(t.iso8601)?.epochSeconds == t.epochSeconds)
        #expect(t.iso8601.hasSuffix("+00:00"))
    }

    @Test func millisecondsRoundingUpCarryIntoTheSecond() {
        let t = Timestamp(epochSeconds: 1_700_000_000.9996, offsetSeconds: 3600)
        #expect(t.iso8601 == Timestamp(epochSeconds: 1_700_000_001, offsetSeconds: 3600).iso8601)
        #expect(Timestamp(epochSeconds: -0.25, offsetSeconds: 0).iso8601 == "1969-12-31T23:59:59.750+00:00")
    }
}
