import Foundation
import RHRCore
import RHRTestSupport
import Testing

/// Late writers (docs/design.md section 9): when a writer last delivered, how late after its day it usually arrives,
/// and the header's line when its resting values stop while its feed still delivers heart rate.
@Suite("Writer lateness")
struct WriterLatenessTests {
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")

    /// An Apple Watch estimate as an export holds it: a window over its day, created hours after it ends.
    static func estimate(_ day: String, created: String, writer: Writer = watch) -> DaySample {
        let start = ts("\(day)T00:03:12+01:00")
        let sample = RestingSample(store: .healthKit, writer: writer, start: start.date, end: date("\(day)T23:48:44+01:00"),
                                   offsetSeconds: start.offsetSeconds, value: 58, created: date(created))
        return DaySample(sample: sample, day: RHRTestSupport.day(day), asOf: ts("2026-12-03T09:00:00+01:00"))
    }

    /// An Oura record as Health Connect holds it: the morning after the night, written soon after.
    static func ouraRecord(_ time: String, lastModified: String) -> DaySample {
        let sample = RestingSample.healthConnect(id: time, writer: oura, time: date(time), zoneOffset: 3600, beatsPerMinute: 52,
                                                 lastModified: date(lastModified))
        return DaySample(sample: sample, day: ts(time).at(TimeZone(secondsFromGMT: 3600)!).localDay,
                         asOf: ts("2026-12-03T09:00:00+01:00"))
    }

    @Test func anAppleWatchEstimateUsuallyArrivesHoursAfterItsDayEnds() throws {
        let values = [
            Self.estimate("2026-11-28", created: "2026-11-29T11:00:00+01:00"),
            Self.estimate("2026-11-29", created: "2026-11-30T12:00:00+01:00"),
            Self.estimate("2026-11-30", created: "2026-12-01T14:30:00+01:00"),
        ]
        let lateness = WriterLateness(writer: Self.watch, values: values)
        #expect(lateness.count == 3)
        #expect(lateness.medianLagAfterDay == Double(12 * 3600))
        // After the time it carries (23:48:44): 12 h 11 min 16 s.
        #expect(lateness.medianLagAfterTime == Double(12 * 3600 + 11 * 60 + 16))
        #expect(lateness.usualLagDays == 1)
        #expect(lateness.clock == .written)
        #expect(lateness.newestDay == day("2026-11-30"))
        #expect(lateness.lastDelivered == ts("2026-12-01T14:30:00+01:00"))
        #expect(lateness.words(thisYear: 2026)
            == "Jane’s Apple Watch: last written 1 Dec 14:30 +01:00, for 30 Nov; usually arrives about 12 h after its day ends (median of 3).")
    }

    @Test func anOuraValueArrivesBeforeItsDayEnds() {
        let values = [
            Self.ouraRecord("2026-11-28T05:58:00Z", lastModified: "2026-11-28T07:10:00Z"),
            Self.ouraRecord("2026-11-29T06:20:00Z", lastModified: "2026-11-29T07:30:00Z"),
        ]
        let lateness = WriterLateness(writer: Self.oura, values: values)
        // Its day ends at 23:00 UTC (midnight at +01:00): written 15 h 50 min and 15 h 30 min before.
        #expect(lateness.medianLagAfterDay == Double(-(15 * 3600 + 40 * 60)))
        // After the time it carries: 72 and 70 minutes.
        #expect(lateness.medianLagAfterTime == Double(71 * 60))
        #expect(lateness.usualLagDays == 0)
        #expect(lateness.lagWords == "usually arrives about 16 h before its day ends (median of 2)")
        #expect(lateness.lastDeliveredWords(thisYear: 2026) == "last written 29 Nov 08:30 +01:00, for 29 Nov")
    }

    /// A Health Auto Export point carries no creation time: when a live road first received it is all there is.
    @Test func aValueWithoutAWritingTimeCountsFromWhenItWasFirstReceived() {
        let writer = Writer(store: .healthKit, name: "WHOOP")
        let start = ts("2026-11-28T00:00:00+01:00")
        let point = RestingSample(store: .healthKit, writer: writer, start: start.date, end: date("2026-11-28T23:59:59+01:00"),
                                  offsetSeconds: 3600, value: 50)
        // Received first at 09:00 the next morning, and again (its road's word about the day) at 21:00.
        let received = DaySample(sample: point, day: day("2026-11-28"), asOf: ts("2026-11-29T21:00:00+01:00"),
                                 firstReceived: ts("2026-11-29T09:00:00+01:00"))
        let lateness = WriterLateness(writer: writer, values: [received])
        #expect(lateness.clock == .received)
        #expect(lateness.medianLagAfterDay == Double(9 * 3600))
        #expect(lateness.lastDeliveredWords(thisYear: 2026) == "last received 29 Nov 09:00 +01:00, for 28 Nov")
        let written = Self.estimate("2026-11-29", created: "2026-11-30T10:00:00+01:00", writer: writer)
        #expect(WriterLateness(writer: writer, values: [received, written]).clockWords == "delivered")
        // Nothing to date it by at all: not a delivery. Nor when only its road's last word is known (a store from
        // before rhr kept the first), nor in an export: when a snapshot was read says when the export was made.
        #expect(Delivery(DaySample(sample: point, day: day("2026-11-28"))) == nil)
        #expect(Delivery(DaySample(sample: point, day: day("2026-11-28"), asOf: ts("2026-11-29T21:00:00+01:00"))) == nil)
        #expect(Delivery(DaySample(sample: point, day: day("2026-11-28"), asOf: ts("2026-12-20T10:00:00+01:00"),
                                   snapshot: true, firstReceived: ts("2026-12-20T10:00:00+01:00"))) == nil)
    }

    @Test func implausibleDatesAndOtherWritersAreLeftOut() {
        let good = Self.estimate("2026-11-28", created: "2026-11-29T11:00:00+01:00")
        var implausible = Self.estimate("1999-06-01", created: "2026-11-29T11:00:00+01:00")
        implausible.implausibleDate = true
        let other = Self.estimate("2026-11-29", created: "2026-12-02T11:00:00+01:00", writer: Writer(store: .healthKit, name: "Oura"))
        let lateness = WriterLateness(writer: Self.watch, values: [good, implausible, other])
        #expect(lateness.count == 1)
        #expect(lateness.newestDay == day("2026-11-28"))
        #expect(lateness.medianLagAfterDay == Double(11 * 3600))
        let none = WriterLateness(writer: Self.watch, values: [])
        #expect(none.count == 0 && none.lastDelivered == nil && none.medianLagAfterDay == nil)
        #expect(none.words(thisYear: 2026) == nil)
    }

    @Test func lagsOfAFewDaysAreSaidInDays() {
        let late = [Self.estimate("2026-11-20", created: "2026-11-24T01:00:00+01:00")]
        let lateness = WriterLateness(writer: Self.watch, values: late)
        #expect(lateness.usualLagDays == 4)
        #expect(lateness.lagWords == "usually arrives about 3 days after its day ends (median of 1)")
        let onTime = [Self.estimate("2026-11-20", created: "2026-11-21T00:20:00+01:00")]
        #expect(WriterLateness(writer: Self.watch, values: onTime).lagWords
            == "usually arrives as its day ends (median of 1)")
    }

    @Test func restingValuesStoppedWhileTheFeedStillDeliversHeartRate() throws {
        let lateness = WriterLateness(writer: Self.oura, values: [
            Self.ouraRecord("2026-11-26T05:58:00Z", lastModified: "2026-11-26T07:10:00Z"),
            Self.ouraRecord("2026-11-27T05:58:00Z", lastModified: "2026-11-27T07:10:00Z"),
        ])
        // Heart rate a day ahead: today's value is not written yet.
        #expect(WriterStop(lateness, stream: "http-phone", heartRateThrough: day("2026-11-28")) == nil)
        let stop = try #require(WriterStop(lateness, stream: "http-phone", heartRateThrough: day("2026-11-30")))
        #expect(stop.newestRestingDay == day("2026-11-27"))
        #expect(stop.words(thisYear: 2026)
            == "Oura (com.ouraring.oura), Health Connect: resting values stopped after 27 Nov; http-phone still delivers "
            + "heart rate through 30 Nov.")
        // Without heart rate there is nothing to compare with; without a resting value it is no resting writer.
        #expect(WriterStop(lateness, stream: "http-phone", heartRateThrough: nil) == nil)
        #expect(WriterStop(WriterLateness(writer: Self.oura, values: []), stream: "http-phone",
                           heartRateThrough: day("2026-11-30")) == nil)
    }

    /// A writer that usually comes more than a day after its day is allowed that much more before it counts as stopped.
    @Test func aWriterThatUsuallyComesLateIsGivenItsUsualLag() throws {
        let late = WriterLateness(writer: Self.watch, values: [
            Self.estimate("2026-11-26", created: "2026-11-28T06:00:00+01:00"),
            Self.estimate("2026-11-27", created: "2026-11-29T06:00:00+01:00"),
        ])
        #expect(late.usualLagDays == 2)
        #expect(WriterStop(late, stream: "health-auto-export", heartRateThrough: day("2026-11-29")) == nil)
        let stop = try #require(WriterStop(late, stream: "health-auto-export", heartRateThrough: day("2026-11-30")))
        #expect(stop.usualLagDays == 2)
        #expect(stop.words(thisYear: 2026).hasPrefix("Jane’s Apple Watch, HealthKit: resting values stopped after 27 Nov;"))
    }
}

/// How the lateness of a writer reads its stored values: every road's copies (R12), the same value once.
@Suite("Writer lateness over roads")
struct WriterLatenessRoadTests {
    static let watch = WriterLatenessTests.watch

    /// The same estimate in an export (written, by its creation date) and by a phone feed (received the day after):
    /// one value, which arrived when it was first known to be there.
    @Test func aValueTwoRoadsHoldIsOneDeliveryAtItsEarliest() {
        let exported = WriterLatenessTests.estimate("2026-11-28", created: "2026-11-29T11:00:00+01:00")
        var relayed = exported
        relayed.sample.created = nil
        relayed.stream = "http-phone"
        relayed.firstReceived = ts("2026-11-30T09:00:00+01:00")
        let lateness = WriterLateness(writer: Self.watch, values: [relayed, exported])
        #expect(lateness.count == 1)
        #expect(lateness.clock == .written)
        #expect(lateness.lastDeliveredWords(thisYear: 2026) == "last written 29 Nov 11:00 +01:00, for 28 Nov")
    }

    /// Values that say nothing of when they arrived (an export's without a writing time) still say which day is the
    /// writer's newest: what a stop is judged by.
    @Test func theNewestDayCountsValuesWithoutAnArrivalTime() {
        let dated = WriterLatenessTests.estimate("2026-11-26", created: "2026-11-27T11:00:00+01:00")
        var undated = WriterLatenessTests.estimate("2026-11-28", created: "2026-11-29T11:00:00+01:00")
        undated.sample.created = nil
        undated.snapshot = true
        let lateness = WriterLateness(writer: Self.watch, values: [dated, undated])
        #expect(lateness.count == 1)
        #expect(lateness.newestDay == day("2026-11-28"))
        // The words name the day of the last delivery, not the newest day.
        #expect(lateness.lastDeliveredWords(thisYear: 2026) == "last written 27 Nov 11:00 +01:00, for 26 Nov")
        #expect(WriterStop(lateness, stream: "health-auto-export", heartRateThrough: day("2026-11-29")) == nil)
    }
}

/// A writer that writes every few days (a scale weighed twice a week) has not stopped when a day or two go by without
/// its value: it is allowed its usual gap between days too.
@Suite("Writer lateness: a writer's rhythm")
struct WriterRhythmTests {
    static let scale = Writer(store: .healthKit, name: "Withings")

    static func weighIns(_ days: [String]) -> WriterLateness {
        WriterLateness(writer: scale, values: days.map {
            WriterLatenessTests.estimate($0, created: "\($0)T23:50:00+01:00", writer: scale)
        })
    }

    @Test func aWriterEveryThirdDayIsGivenItsGap() throws {
        let lateness = Self.weighIns(["2026-11-18", "2026-11-21", "2026-11-24", "2026-11-27"])
        #expect(lateness.usualGapDays == 3)
        // Heart rate through 30 Nov: its next value is due that day, and may come before it ends.
        #expect(WriterStop(lateness, stream: "http-phone", heartRateThrough: day("2026-11-30")) == nil)
        // Through 1 Dec: 30 Nov's did not come, as a daily writer's missing the day before.
        let stop = try #require(WriterStop(lateness, stream: "http-phone", heartRateThrough: day("2026-12-01")))
        #expect(stop.newestRestingDay == day("2026-11-27"))
    }

    @Test func aDailyWritersGapIsOneDayAndOneValueHasNone() {
        #expect(Self.weighIns(["2026-11-26", "2026-11-27", "2026-11-28"]).usualGapDays == 1)
        #expect(Self.weighIns(["2026-11-26"]).usualGapDays == 1)
        #expect(WriterLateness(writer: Self.scale, values: []).usualGapDays == 1)
    }
}

/// `SampleIdentity.withinWriter` tells one writer's samples apart exactly as their identity keys do: the lateness
/// tally keys by it, and a value two roads hold must stay one delivery.
@Suite("Sample identity within a writer")
struct SampleIdentityWithinWriterTests {
    @Test(arguments: [HealthStore.healthKit, .healthConnect])
    func partsAreEqualExactlyWhenKeysAre(_ store: HealthStore) {
        let writer = Writer(store: store, name: "Jane’s Apple Watch")
        var seed: UInt64 = 0xD1CE
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        // Few starts, ends, ids and values, so that equal and unequal pairs both come often; seconds cut to the second.
        let samples = (0..<300).map { _ in
            let start = Date(timeIntervalSince1970: 1_773_000_000 + Double(next(3)) + [0, 0.4, 0.9][next(3)])
            var sample = RestingSample(store: store, uuid: next(3) == 0 ? nil : "id-\(next(3))", writer: writer,
                                       start: start, end: start.addingTimeInterval(Double(3600 * next(2))),
                                       offsetSeconds: 3600, value: Double(55 + next(2)))
            sample.isDuplicate = next(4) == 0
            return sample
        }
        var equalPairs = 0
        for i in 0..<60 {
            for j in samples.indices where j != i {
                let a = samples[i], b = samples[j]
                let sameKey = a.identity == b.identity
                if sameKey { equalPairs += 1 }
                #expect((SampleIdentity.withinWriter(a) == SampleIdentity.withinWriter(b)) == sameKey,
                        "\(a.identity.key) / \(b.identity.key)")
            }
        }
        // The seed gives both kinds of pair, many of each, of the 60 × 299 (pinned: a change to the generator shows here).
        #expect(equalPairs == [HealthStore.healthKit: 1857, .healthConnect: 1852][store])
    }
}
