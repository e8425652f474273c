import Foundation
import Testing
@testable import RHRCore
import RHRTestSupport

@Suite("R5 local day")
struct LocalDayRuleTests {
    @Test func healthKitWindowStartingTheEveningBeforeStaysOnItsDay() {
        // An all-day window that starts late the evening before: the midpoint is on the 28th.
        let s = hkSample("2026-11-27 23:30:00 +0100", "2026-11-28 23:50:00 +0100", 58)
        #expect(LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "UTC")!).day == day("2026-11-28"))
    }

    @Test func exportOffsetDoesNotMoveAnAllDayWindow() {
        // A winter day exported in summer carries the summer offset (+0200 instead of +0100): still its day.
        let s = hkSample("2026-01-15 00:05:00 +0200", "2026-01-15 23:55:00 +0200", 60)
        #expect(LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "UTC")!).day == day("2026-01-15"))
    }

    @Test func hkTimeZoneWinsOverTheWrittenOffset() {
        // Written in Berlin's offset, but the sample was taken in New York (HKTimeZone says so).
        let s = hkSample("2026-06-10 02:00:00 +0200", "2026-06-10 06:00:00 +0200", 55, timeZone: "America/New_York")
        // Midpoint 04:00 +0200 = 22:00 the day before in New York (UTC-4).
        #expect(LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "UTC")!).day == day("2026-06-09"))
        // An unknown zone name falls back to the written offset.
        let unknown = hkSample("2026-06-10 02:00:00 +0200", "2026-06-10 06:00:00 +0200", 55, timeZone: "Mars/Olympus")
        #expect(LocalDayRule.day(of: unknown, machineZone: TimeZone(identifier: "UTC")!).day == day("2026-06-10"))
    }

    @Test func healthKitWithoutOffsetOrZoneTakesTheMidpointInTheMachinesZone() {
        // An all-day window from 23:30 the evening before, in Berlin: its midpoint is on the 28th there.
        var s = hkSample("2026-11-27 23:30:00 +0100", "2026-11-28 23:50:00 +0100", 58)
        s.offsetSeconds = nil
        let placed = LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(placed.day == day("2026-11-28"))
        #expect(placed.offsetAssumed)
    }

    @Test func healthConnectTripOffsetMovesTheDay() {
        // 06:30 UTC is 2026-11-28 at home (+01:00) but still the 27th in Los Angeles (-08:00).
        let home = LocalDayRule.healthConnect(time: date("2026-11-28T06:30:00Z"), zoneOffset: 3600,
                                              machineZone: TimeZone(identifier: "UTC")!)
        let trip = LocalDayRule.healthConnect(time: date("2026-11-28T06:30:00Z"), zoneOffset: -8 * 3600,
                                              machineZone: TimeZone(identifier: "UTC")!)
        #expect(home.day == day("2026-11-28") && !home.offsetAssumed)
        #expect(trip.day == day("2026-11-27") && !trip.offsetAssumed)
    }

    @Test func nullOffsetAssumesTheMachinesAndIsFlagged() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let placed = LocalDayRule.healthConnect(time: date("2026-11-28T20:00:00Z"), zoneOffset: nil, machineZone: tokyo)
        #expect(placed.offsetAssumed)
        #expect(placed.day == day("2026-11-29"))
        let s = hcSample("a", "2026-11-28T20:00:00Z", offset: nil, 57)
        #expect(LocalDayRule.day(of: s, machineZone: tokyo).offsetAssumed)
        #expect(LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "America/Chicago")!).day == day("2026-11-28"))
    }
}

@Suite("R6 range and units")
struct RangeAndUnitTests {
    @Test func range() {
        #expect(RestingValue.isInRange(1))
        #expect(RestingValue.isInRange(300))
        #expect(RestingValue.isInRange(58.5))
        #expect(!RestingValue.isInRange(0))
        #expect(!RestingValue.isInRange(0.5))
        #expect(!RestingValue.isInRange(-3))
        #expect(!RestingValue.isInRange(301))
        #expect(!RestingValue.isInRange(300.01))
        #expect(!RestingValue.isInRange(.nan))
        #expect(!RestingValue.isInRange(.infinity))
    }

    @Test func unitsConvertToBeatsPerMinute() throws {
        #expect(try RestingValue.bpm(value: 58, unit: "count/min") == 58)
        #expect(try RestingValue.bpm(value: 1, unit: "count/s") == 60)
        #expect(try RestingValue.bpm(value: 3600, unit: "count/h") == 60)
        #expect(throws: UnitError(unit: "kg")) { try RestingValue.bpm(value: 1, unit: "kg") }
        let error = UnitError(unit: "ms")
        #expect(error.description.contains("\"ms\""))
        #expect(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 23:00:00 +0000", 1, unit: "count/s").bpm == 60)
        #expect(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 23:00:00 +0000", 1, unit: "mmHg").bpm == nil)
    }

    @Test func formatting() {
        #expect(RestingValue.format(58) == "58")
        #expect(RestingValue.format(58.46) == "58.5")
        #expect(RestingValue.format(58, isMean: true) == "58.0")
        #expect(RestingValue.format(.nan) == "NaN")
    }
}

@Suite("R3 provisional")
struct ProvisionalTests {
    @Test func watchDetection() {
        #expect(ProvisionalRule.isAppleWatch(sourceName: "Jane’s Apple Watch"))
        #expect(ProvisionalRule.isAppleWatch(sourceName: "🕛🕐", deviceModel: "Watch"))
        #expect(ProvisionalRule.isAppleWatch(sourceName: "Jane", productType: "Watch7,1"))
        #expect(!ProvisionalRule.isAppleWatch(sourceName: "Jane’s iPhone", productType: "iPhone15,2",
                                              bundleIdentifier: "com.apple.health.ABC"))
        #expect(ProvisionalRule.isAppleWatch(sourceName: "Jane", bundleIdentifier: "com.apple.health.7A1B"))
        #expect(!ProvisionalRule.isAppleWatch(sourceName: "Oura"))
        #expect(!ProvisionalRule.isAppleWatch(sourceName: "Withings", deviceModel: "ScanWatch"))
    }

    @Test func todayAndYesterdayRelativeToAsOf() {
        let asOf = ts("2026-11-29T08:00:00+01:00")
        func provisional(_ d: String, store: HealthStore = .healthKit, watch: Bool = true) -> Bool {
            ProvisionalRule.isProvisional(store: store, writerIsWatch: watch, day: day(d), asOf: asOf)
        }
        #expect(provisional("2026-11-29"))
        #expect(provisional("2026-11-28"))
        #expect(!provisional("2026-11-27"))
        #expect(!provisional("2026-11-29", watch: false))
        #expect(!provisional("2026-11-29", store: .healthConnect))
        // asOf's own day is taken at its written offset: 00:30 +01:00 is the 29th, though 23:30 UTC is the 28th.
        let justAfterMidnight = ts("2026-11-29T00:30:00+01:00")
        #expect(!ProvisionalRule.isProvisional(store: .healthKit, writerIsWatch: true, day: day("2026-11-27"), asOf: justAfterMidnight))
        #expect(ProvisionalRule.isProvisional(store: .healthKit, writerIsWatch: true, day: day("2026-11-28"), asOf: justAfterMidnight))
    }

    /// R3: a HealthKit value whose writer nobody named (Health Auto Export's points without `source`) counts as a
    /// possible watch value; a writer known for no watch, or another store's writer of that name, does not.
    @Test func anUnnamedHealthKitWriterIsAPossibleWatch() {
        let unnamed = WriterKey(store: .healthKit, name: Writer.unnamedHealthAutoExport)
        #expect(ProvisionalRule.mayBeWatch(unnamed, isWatch: false))
        #expect(!ProvisionalRule.mayBeWatch(WriterKey(store: .healthConnect, name: Writer.unnamedHealthAutoExport), isWatch: false))
        #expect(!ProvisionalRule.mayBeWatch(WriterKey(store: .healthKit, name: "Oura"), isWatch: false))
        #expect(ProvisionalRule.mayBeWatch(WriterKey(store: .healthKit, name: "Oura"), isWatch: true))
    }
}

/// R3's "as of", one wording for every reader (`AsOfWording`).
@Suite("R3 as of")
struct AsOfWordingTests {
    @Test func eachStoresNewestReadInTheMachinesClockHealthKitFirst() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let streams = [
            StreamState(store: .healthConnect, stream: "hc", asOf: ts("2026-03-21T08:00:00Z")),
            StreamState(store: .healthKit, stream: "export", asOf: ts("2026-03-14T21:00:00+01:00")),
            StreamState(store: .healthKit, stream: "phone", asOf: ts("2026-03-14T13:00:00-07:00")),
            StreamState(store: .healthKit, stream: "never"),
        ]
        #expect(AsOfWording.currency(streams, thisYear: 2026, zone: berlin)
                == "HealthKit as of 14 Mar 21:00 +01:00 · Health Connect as of 21 Mar 09:00 +01:00")
        #expect(AsOfWording.newest(streams, zone: berlin).map(\.store) == [.healthConnect, .healthKit])
        #expect(AsOfWording.currency([], thisYear: 2026, zone: berlin) == nil)
        #expect(AsOfWording.phrase(ts("2025-12-31T23:00:00+01:00"), thisYear: 2026, offset: false) == "as of 31 Dec 2025 23:00")
        #expect(AsOfWording.exact(nil) == "as of never")
    }
}

@Suite("R7 aggregation")
struct AggregationTests {
    func placed(_ s: RestingSample, provisional: Bool = false, assumed: Bool = false) -> DaySample {
        DaySample(sample: s, day: LocalDayRule.day(of: s, machineZone: TimeZone(identifier: "UTC")!).day,
                  offsetAssumed: assumed, provisional: provisional)
    }

    @Test func latestLowestMean() {
        let samples = [
            placed(hkSample("2026-11-28 00:10:00 +0000", "2026-11-28 09:00:00 +0000", 62)),
            placed(hkSample("2026-11-28 00:10:00 +0000", "2026-11-28 21:00:00 +0000", 59)),
            placed(hkSample("2026-11-28 00:10:00 +0000", "2026-11-28 15:00:00 +0000", 57.5)),
        ]
        #expect(DaySeries.aggregate(samples, by: .latest)?.bpm == 59)
        #expect(DaySeries.aggregate(samples, by: .lowest)?.bpm == 57.5)
        let mean = DaySeries.aggregate(samples, by: .mean)
        let expected: Double = (62.0 + 59.0 + 57.5) / 3.0
        #expect(mean?.bpm == expected)
        #expect(mean?.bpmText == "59.5")
        #expect(mean?.samples == 3)
    }

    @Test func tiesInLatestGoToTheLaterRevisionThenIdentity() {
        let a = hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 20:00:00 +0000", 61, created: "2026-11-28 20:05:00 +0000")
        let b = hkSample("2026-11-28 01:00:00 +0000", "2026-11-28 20:00:00 +0000", 58, created: "2026-11-28 22:00:00 +0000")
        #expect(DaySeries.aggregate([placed(a), placed(b)], by: .latest)?.bpm == 58)
        #expect(DaySeries.aggregate([placed(b), placed(a)], by: .latest)?.bpm == 58)
        // Health Connect: same time, later lastModified wins.
        let x = hcSample("x", "2026-11-28T06:00:00Z", offset: 0, 55, lastModified: "2026-11-28T07:00:00Z")
        let y = hcSample("y", "2026-11-28T06:00:00Z", offset: 0, 53, lastModified: "2026-11-28T09:00:00Z")
        #expect(DaySeries.aggregate([placed(y), placed(x)], by: .latest)?.bpm == 53)
        // Complete ties are decided by identity, never by input order.
        let p = hcSample("p", "2026-11-28T06:00:00Z", offset: 0, 50)
        let q = hcSample("q", "2026-11-28T06:00:00Z", offset: 0, 51)
        #expect(DaySeries.aggregate([placed(p), placed(q)], by: .latest)?.bpm
                == DaySeries.aggregate([placed(q), placed(p)], by: .latest)?.bpm)
    }

    @Test func outOfRangeIsCountedNeverAggregated() {
        let zero = placed(hcSample("z", "2026-11-28T06:00:00Z", offset: 0, 0))
        let high = placed(hcSample("h", "2026-11-28T07:00:00Z", offset: 0, 301))
        let ok = placed(hcSample("o", "2026-11-28T05:00:00Z", offset: 0, 54))
        for aggregation in Aggregation.allCases {
            let value = DaySeries.aggregate([zero, high, ok], by: aggregation)
            #expect(value?.bpm == 54)
            #expect(value?.outOfRange == 2)
            #expect(value?.samples == 1)
        }
        let only = DaySeries.aggregate([zero], by: .latest)
        #expect(only?.bpm == nil)
        #expect(only?.bpmText == "")
        #expect(only?.outOfRange == 1)
        let nan = placed(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 20:00:00 +0000", .nan))
        #expect(DaySeries.aggregate([nan, ok], by: .mean)?.bpm == 54)
    }

    @Test func flagsFollowTheChosenSample() {
        let draft = placed(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 22:00:00 +0000", 57), provisional: true)
        let older = placed(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 08:00:00 +0000", 55))
        #expect(DaySeries.aggregate([draft, older], by: .latest)?.provisional == true)
        #expect(DaySeries.aggregate([draft, older], by: .lowest)?.provisional == false)
        #expect(DaySeries.aggregate([draft, older], by: .mean)?.provisional == true)
        let assumed = placed(hcSample("n", "2026-11-28T06:00:00Z", offset: nil, 52), assumed: true)
        #expect(DaySeries.aggregate([assumed], by: .latest)?.offsetAssumed == true)
    }

    @Test func daysGroupByWriterAndDayWithoutMixingStores() {
        let samples = [
            placed(hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 22:00:00 +0000", 57)),
            placed(hcSample("a", "2026-11-28T06:00:00Z", offset: 0, 52)),
            placed(hcSample("b", "2026-11-27T06:00:00Z", offset: 0, 53)),
        ]
        let days = DaySeries(samples).values(by: .latest)
        #expect(days.map(\.day.description) == ["2026-11-27", "2026-11-28", "2026-11-28"])
        #expect(days.map(\.store) == [.healthConnect, .healthConnect, .healthKit])
        #expect(Aggregation.latest.next == .lowest && Aggregation.lowest.next == .mean && Aggregation.mean.next == .latest)
        #expect(Aggregation.mean.words == "one value per day: mean")
    }
}

@Suite("R8 sedentary context")
struct HeartRateContextTests {
    @Test func countsByContextAndSedentaryStatistics() {
        var summarizer = HeartRateSummarizer()
        let d = day("2026-11-28")
        for (bpm, ctx) in [(72.0, MotionContext.notSet), (110, .active), (64, .sedentary), (61, .sedentary),
                           (67, .sedentary), (62.4, .sedentary), (.nan, .sedentary)] {
            summarizer.add(writer: watch, day: d, bpm: bpm, context: ctx)
        }
        let result = summarizer.result
        #expect(result.count == 1)
        let s = result[0]
        #expect(s.notSet == 1 && s.active == 1 && s.sedentary == 4)
        #expect(s.total == 6)
        #expect(s.sedentaryMin == 61)
        #expect(s.sedentaryMedian == 63)   // 61, 62, 64, 67 → (62 + 64) / 2
        let copy = HeartRateDaySummary.histogram(fromText: s.histogramText)
        #expect(copy == s.sedentaryHistogram)
        // Texts joined by commas (the store's group_concat of several roads) add up.
        #expect(HeartRateDaySummary.histogram(fromText: "61:1,62:2,61:3") == [61: 4, 62: 2])
    }

    @Test func outOfRangeHeartRateIsCountedButNotInTheSedentaryStatistics() {
        // R6 applies to the context series too: a zero is no minimum, and a value no Int holds must not trap.
        var s = HeartRateDaySummary(writer: watch, day: day("2026-11-28"))
        for bpm in [0, -4, 301, 1e300, .infinity, 58] { s.add(bpm: bpm, context: .sedentary) }
        #expect(s.sedentary == 6)
        #expect(s.sedentaryMin == 58)
        #expect(s.sedentaryMedian == 58)
        #expect(s.sedentaryHistogram == [58: 1])
    }

    @Test func motionContextFromMetadata() {
        #expect(MotionContext(metadataValue: "1") == .sedentary)
        #expect(MotionContext(metadataValue: "2") == .active)
        #expect(MotionContext(metadataValue: "0") == .notSet)
        #expect(MotionContext(metadataValue: nil) == .notSet)
        #expect(MotionContext(metadataValue: "7") == .notSet)
    }

    @Test func mergeAddsCountsAndKeepsTheMinimum() {
        var a = HeartRateDaySummary(writer: watch, day: day("2026-11-28"))
        a.add(bpm: 60, context: .sedentary)
        var b = HeartRateDaySummary(writer: watch, day: day("2026-11-28"))
        b.add(bpm: 58, context: .sedentary)
        b.add(bpm: 90, context: .active)
        a.merge(b)
        #expect(a.sedentary == 2 && a.active == 1 && a.sedentaryMin == 58 && a.sedentaryMedian == 59)
    }
}

@Suite("R9 empty state and R10 permissions")
struct EmptyStateTests {
    @Test func diagnosis() {
        #expect(DataDiagnosis([StoreContents(store: .healthKit), StoreContents(store: .healthConnect)]) == .noData)
        let fitbit = Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile")
        let hrOnly = StoreContents(store: .healthConnect, heartRateSamples: 12_408, heartRateWriters: [fitbit])
        #expect(DataDiagnosis([StoreContents(store: .healthKit), hrOnly]) == .noRestingWriter([hrOnly]))
        let withResting = StoreContents(store: .healthKit, restingWriters: [watch], restingSamples: 3)
        #expect(DataDiagnosis([withResting, hrOnly]) == .resting(storesWithoutRestingWriter: [hrOnly]))
        let text = DataDiagnosis.explanation(hrOnly)
        #expect(text.contains("12,408 heart-rate samples"))
        #expect(text.contains("com.fitbit.FitbitMobile"))
        #expect(text.contains("does not derive resting heart rate"))
        #expect(DataDiagnosis.reasons(hrOnly).isEmpty)
    }

    /// R9 with R10: Health Connect heart rate and no resting heart rate from a feed that lacks READ_RESTING_HEART_RATE
    /// is the permission's doing, not the writers': the words name the permission as the likely cause.
    @Test func healthConnectWithoutTheRestingPermissionNamesIt() {
        let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
        let hrOnly = StoreContents(store: .healthConnect, heartRateSamples: 480, heartRateWriters: [oura])
        let feed = StreamState(store: .healthConnect, stream: "pixel", cursor: "c",
                               grantedPermissions: ["android.permission.health.READ_HEART_RATE"])
        let text = DataDiagnosis.explanation(hrOnly, streams: [feed])
        #expect(text.contains("The likely cause: Health Connect (pixel) did not have READ_RESTING_HEART_RATE"), "\(text)")
        #expect(!text.contains("none here did"), "\(text)")
        #expect(DataDiagnosis.likelyCause(hrOnly, streams: [feed])?.hasPrefix("Health Connect (pixel) did not have") == true)
        // A feed that holds it, or one that never said: the writers wrote none, as before.
        var granted = feed
        granted.grantedPermissions = [PermissionLimit.readResting]
        #expect(DataDiagnosis.explanation(hrOnly, streams: [granted]).contains("none here did"))
        #expect(DataDiagnosis.likelyCause(hrOnly, streams: [granted]) == nil)
        #expect(DataDiagnosis.explanation(hrOnly, streams: [StreamState(store: .healthConnect, stream: "x")]).contains("none here did"))
    }

    /// HealthKit derives a resting heart rate, on the watch, which alone writes it: the words say so, and why an
    /// export can lack one, the watch's reasons only where a writer is a watch.
    @Test func healthKitHeartRateWithoutRestingSaysWhoWritesIt() {
        let watchOnly = StoreContents(store: .healthKit, heartRateSamples: 14_525, heartRateWriters: [watch])
        #expect(DataDiagnosis.explanation(watchOnly) == "HealthKit holds 14,525 heart-rate samples from Jane’s Apple "
                + "Watch and no resting heart rate. HealthKit's own resting heart rate is an estimate only an Apple Watch "
                + "writes, from its heart-rate readings; nothing makes one later from heart-rate samples, rhr included.")
        let reasons = DataDiagnosis.reasons(watchOnly)
        #expect(reasons.count == 5)
        #expect(reasons[3].hasPrefix("the watch had too few readings taken while you were still"))
        #expect(reasons[4].hasPrefix("the watch does not record one: Apple lists resting rates for Series 1 or later"))
        // A watch known by its live feed's product type, with a name that does not say so.
        let renamed = Writer(store: .healthKit, name: "Jane", productType: "Watch7,1")
        #expect(DataDiagnosis.reasons(StoreContents(store: .healthKit, heartRateSamples: 3, heartRateWriters: [renamed])).count == 5)
        let strap = StoreContents(store: .healthKit, heartRateSamples: 3, heartRateWriters: [Writer(store: .healthKit, name: "Polar H10")])
        #expect(DataDiagnosis.reasons(strap).last == "no Apple Watch wrote to it: none of these writers is one.")
    }

    @Test func permissionLimits() {
        #expect(PermissionLimit.limits(granted: []) == [.noRestingPermission, .historyLimited, .noBackgroundReads])
        #expect(PermissionLimit.limits(granted: ["READ_RESTING_HEART_RATE", PermissionLimit.readHistory])
                == [.noBackgroundReads])
        var stream = StreamState(store: .healthConnect, stream: "pixel", grantedPermissions: [PermissionLimit.readResting])
        #expect(stream.permissionLimits == [.historyLimited, .noBackgroundReads])
        stream.store = .healthKit
        #expect(stream.permissionLimits.isEmpty)
    }

    @Test func filePermissionsAreWordedOneWay() {
        #expect(AccessWording.mayNotBeWritten("its directory /data") == "its directory /data may not be written (permission denied)")
        #expect(AccessWording.cannotMakePrivate("the socket's directory", directory: true)
                == "cannot make the socket's directory private (0700)")
        #expect(AccessWording.cannotMakePrivate("the socket", directory: false) == "cannot make the socket private (0600)")
    }

    @Test func anIdleChangesTokenIsNamed() {
        var stream = StreamState(store: .healthConnect, stream: "pixel", cursor: "dG9rZW4tMQ==",
                                 asOf: ts("2026-03-21T08:10:00+01:00"))
        #expect(stream.changesTokenIdleDays(today: day("2026-04-20")) == nil)   // 30 days: still alive
        #expect(stream.changesTokenIdleDays(today: day("2026-04-21")) == 31)
        #expect(PermissionLimit.changesTokenWords(idleDays: 31)
                == "last read 31 days ago; its changes token expires after 30 days unused, so the bridge may need a full resync")
        // The one set of R10 notes: the permissions' limits, then the token, when a day is given.
        stream.grantedPermissions = [PermissionLimit.readResting, PermissionLimit.readHistory]
        #expect(stream.permissionNotes(today: day("2026-04-21")) == [PermissionLimit.noBackgroundReads.words,
                                                                    PermissionLimit.changesTokenWords(idleDays: 31)])
        #expect(stream.permissionNotes(today: nil) == [PermissionLimit.noBackgroundReads.words])
        #expect(stream.noteName == "Health Connect (pixel)")
        stream.cursor = nil   // an export: no token to expire
        #expect(stream.changesTokenIdleDays(today: day("2026-11-29")) == nil)
        stream = StreamState(store: .healthKit, stream: "iphone", cursor: "a", asOf: ts("2026-03-21T08:10:00+01:00"))
        #expect(stream.changesTokenIdleDays(today: day("2026-11-29")) == nil)
    }
}

@Suite("R1 batches keep their store")
struct BatchValidationTests {
    @Test func aBatchHoldsOneStore() {
        let mixed = SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-11-29T08:00:00+01:00"),
                              resting: [hcSample("a", "2026-11-28T06:00:00Z", offset: 0, 55)])
        #expect(throws: BatchError.self) { try mixed.validate() }
        let badUnit = SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-11-29T08:00:00+01:00"),
                                resting: [hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 22:00:00 +0000", 5, unit: "kg")])
        #expect(throws: BatchError(path: "resting[0].unit", "unit \"kg\" is not a heart rate unit (expected count/min, count/s or count/h)")) {
            try badUnit.validate()
        }
        let noStream = SyncBatch(store: .healthKit, stream: "", asOf: ts("2026-11-29T08:00:00+01:00"))
        #expect(throws: BatchError.self) { try noStream.validate() }
        let unnamed = SyncBatch(store: .healthKit, stream: "iphone", asOf: ts("2026-11-29T08:00:00+01:00"),
                                heartRate: [HeartRateDaySummary(writer: Writer(store: .healthKit, name: ""), day: day("2026-11-28"))])
        #expect(throws: BatchError(path: "heartRate[0].writer", "no name")) { try unnamed.validate() }
        // The path is a value of its own: a request that carries the batch under `batch` prefixes it.
        #expect(BatchError(path: "heartRate[0].writer", "no name").within("batch").description == "batch.heartRate[0].writer: no name")
        #expect(BatchError("not an object").within("batch").description == "batch: not an object")
    }

    @Test func healthConnectIdsAreNormalised() {
        let s = hcSample("6F1C-AB12-CD", "2026-11-28T06:00:00Z", offset: 0, 55)
        #expect(s.uuid == "6f1cab12cd")
        #expect(s.identity.key == "6f1cab12cd")
        #expect(SampleIdentity.normalisedRecordId("ABCD-ef01") == "abcdef01")
    }

    @Test func healthKitIdentityIsTheNaturalKeyToTheSecond() {
        let a = hkSample("2026-11-28 00:00:00 +0000", "2026-11-28 22:00:00 +0000", 55)
        var b = a
        b.uuid = "6F1C"
        b.start = b.start.addingTimeInterval(0.4)
        #expect(a.identity == b.identity)
        let c = hkSample("2026-11-28 00:00:00 +0100", "2026-11-28 22:00:00 +0100", 55)
        #expect(a.identity != c.identity)
    }

    @Test func revisionText() {
        var entry = RevisionEntry(writer: watch, day: day("2026-03-14"), identity: "k", oldBPM: 62, oldValue: 62,
                                  unit: "count/min", wasProvisional: true, reason: .notInNewerExport, replacedByBPM: 59,
                                  at: ts("2026-03-14T21:00:00+01:00"), origin: "Apple Health export")
        #expect(entry.text(thisYear: 2026) == "draft 62 → 59 (Apple Health export, 14 Mar 21:00 +01:00)")
        // The year, when it is not this one.
        #expect(entry.text(thisYear: 2027) == "draft 62 → 59 (Apple Health export, 14 Mar 2026 21:00 +01:00)")
        entry.replacedByBPM = nil
        entry.wasProvisional = false
        #expect(entry.text(thisYear: 2026) == "62, not in the newer export (Apple Health export, 14 Mar 21:00 +01:00)")
        entry.reason = .deleted
        #expect(entry.text(thisYear: 2026) == "62, deleted (Apple Health export, 14 Mar 21:00 +01:00)")
        // R12: a value "replaced" by an equal value is no revision.
        entry.replacedByBPM = 62
        #expect(!entry.isRevision)
    }
}
