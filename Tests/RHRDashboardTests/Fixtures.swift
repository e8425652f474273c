import Foundation
import RHRCore
import RHRDashboard
import RHRScreen

/// Data built from RHRCore values, the same shapes the store hands the dashboard.
enum Fixture {
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let withings = Writer(store: .healthKit, name: "Withings")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    static let berlin = 3600
    static let lastDay = LocalDay("2026-03-12")!
    static let asOf = Timestamp.parse("2026-03-12T21:00:00+01:00")!
    static let ouraAsOf = Timestamp.parse("2026-03-12T08:00:00+01:00")!

    /// A HealthKit resting sample spanning the day, 00:03–23:48 at +01:00, created just after.
    static func healthKit(_ writer: Writer, _ day: LocalDay, _ bpm: Double, provisional: Bool = false,
                          device: Device? = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
                          unit: String = "count/min") -> DaySample {
        let midnight = day.startEpochSeconds - Double(berlin)
        let start = Date(timeIntervalSince1970: midnight + 180)
        let end = Date(timeIntervalSince1970: midnight + 23 * 3600 + 48 * 60)
        let sample = RestingSample(store: .healthKit, writer: writer, device: device, start: start, end: end,
                                   offsetSeconds: berlin, value: bpm, unit: unit,
                                   created: end.addingTimeInterval(24 * 60))
        return DaySample(sample: sample, day: day, provisional: provisional, asOf: asOf, stream: "apple-health-export")
    }

    /// A Health Connect resting record at 06:12 local time.
    static func healthConnect(_ writer: Writer, _ day: LocalDay, _ bpm: Int64, offsetAssumed: Bool = false,
                              id: String) -> DaySample {
        let time = Date(timeIntervalSince1970: day.startEpochSeconds - Double(berlin) + 6 * 3600 + 12 * 60)
        let sample = RestingSample.healthConnect(id: id, writer: writer, time: time,
                                                 zoneOffset: offsetAssumed ? nil : berlin, beatsPerMinute: bpm,
                                                 device: Device(manufacturer: "Oura", model: "Ring", type: 4),
                                                 recordingMethod: .automaticallyRecorded,
                                                 lastModified: time.addingTimeInterval(8 * 60))
        return DaySample(sample: sample, day: day, offsetAssumed: offsetAssumed, asOf: ouraAsOf,
                         stream: "health-connect-export")
    }

    /// A smooth, repeatable wobble: no randomness in tests.
    static func wave(_ i: Int, base: Double, amplitude: Double, period: Double) -> Double {
        (base + amplitude * sin(Double(i) / period * 2 * .pi) + Double((i * 7) % 5) - 2).rounded()
    }

    /// Sixty days to 12 Mar 2026 from three writers: the watch's last two days provisional, Withings every
    /// third day, Oura daily with one day without an offset and one zero (out of range); a revision and
    /// sedentary heart rate on the last day.
    static func standard(days: Int = 60) -> DashboardData {
        var samples: [DaySample] = []
        for i in 0..<days {
            let day = lastDay.adding(days: -(days - 1) + i)
            if i != 20 && i != 21 {   // a two-day gap
                samples.append(healthKit(watch, day, wave(i, base: 58, amplitude: 3, period: 23),
                                         provisional: day >= lastDay.adding(days: -1)))
            }
            if i % 3 == 0 {
                samples.append(healthKit(withings, day, wave(i, base: 63, amplitude: 2, period: 17), device: nil))
            }
            let ouraValue: Int64 = i == days - 5 ? 0 : Int64(wave(i, base: 55, amplitude: 2, period: 29))
            samples.append(healthConnect(oura, day, ouraValue, offsetAssumed: i == days - 3, id: "0C9D-\(i)"))
        }
        let revision = RevisionEntry(writer: watch, day: lastDay.adding(days: -2), identity: "x", oldBPM: 62,
                                     oldValue: 62, unit: "count/min", wasProvisional: true, reason: .notInNewerExport,
                                     replacedByBPM: 59, at: asOf, origin: "Apple Health export")
        var heartRate = HeartRateDaySummary(writer: watch, day: lastDay)
        for v in [52.0, 54, 61, 63, 70] { heartRate.add(bpm: v, context: .sedentary) }
        heartRate.add(bpm: 120, context: .active)
        let contents = [
            StoreContents(store: .healthKit, restingWriters: [watch, withings], restingSamples: samples.count,
                          heartRateSamples: 6, heartRateWriters: [watch]),
            StoreContents(store: .healthConnect, restingWriters: [oura], restingSamples: days),
        ]
        let streams = [
            StreamState(store: .healthKit, stream: "apple-health-export", asOf: asOf, origin: "Apple Health export", revision: 3),
            StreamState(store: .healthConnect, stream: "health-connect-export", asOf: ouraAsOf, revision: 2),
        ]
        return DashboardData(samples: samples, revisions: [revision], heartRateDays: [heartRate], contents: contents,
                             streams: streams, revision: 3, source: "/tmp/rhr-test/rhr.sqlite",
                             machineZone: TimeZone(secondsFromGMT: berlin)!)
    }

    /// R9 with R10: a Health Connect feed that reports its permissions without READ_RESTING_HEART_RATE, and so brought
    /// Oura's heart rate over two weeks but no resting value.
    static func permissionHidden() -> DashboardData {
        let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
        let days = (0..<14).map { i in
            var summary = HeartRateDaySummary(writer: oura, day: lastDay.adding(days: i - 13))
            for v in 0..<40 { summary.add(bpm: Double(52 + (v * 7 + i) % 30), context: .notSet) }
            return summary
        }
        let contents = [StoreContents(store: .healthKit),
                        StoreContents(store: .healthConnect, heartRateSamples: 560, heartRateWriters: [oura])]
        let streams = [StreamState(store: .healthConnect, stream: "pixel", cursor: "dG9r", asOf: ouraAsOf,
                                   grantedPermissions: ["android.permission.health.READ_HEART_RATE",
                                                        "android.permission.health.READ_HEALTH_DATA_IN_BACKGROUND"],
                                   revision: 1)]
        return DashboardData(heartRateDays: days, contents: contents, streams: streams, revision: 1,
                             source: "/tmp/rhr-test/rhr.sqlite", machineZone: TimeZone(secondsFromGMT: berlin)!)
    }

    static func state(_ data: DashboardData = standard(), size: TerminalSize = TerminalSize(width: 80, height: 24),
                      today: LocalDay = lastDay, unicode: Bool = true) -> DashboardState {
        DashboardState(data: data, size: size, today: today,
                       capabilities: TerminalCapabilities(unicode: unicode, color: unicode))
    }

    /// The screen, rendered into a buffer filled with a sentinel first.
    static func render(_ state: DashboardState, sentinel: Character = "¤") -> ScreenBuffer {
        var buffer = ScreenBuffer(size: state.size, fill: sentinel)
        DashboardRenderer.render(state, into: &buffer)
        return buffer
    }

    /// The screen's text, rendered into a buffer filled with a sentinel first.
    static func screen(_ state: DashboardState, sentinel: Character = "¤") -> [String] {
        render(state, sentinel: sentinel).lines
    }
}
