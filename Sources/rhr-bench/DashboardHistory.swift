import Foundation
import RHRCore
import struct RHRTestSupport.SplitMix64

/// A made-up but realistically shaped history for the dashboard benchmark and for looking at the dashboard:
/// ten years of resting heart rate from eight writers (two HealthKit, six Health Connect), with gaps, a
/// summer-time offset, a few out-of-range values, Health Connect values without an offset, sedentary heart
/// rate for the watch, and two exports in a row so the last days carry revisions (R4).
struct DashboardHistory {
    let years: Int
    let lastDay: LocalDay
    let seed: UInt64

    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let withings = Writer(store: .healthKit, name: "Withings")
    static let healthConnectWriters = [
        Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura"),
        Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile", appName: "Fitbit"),
        Writer(store: .healthConnect, name: "com.sec.android.app.shealth", appName: "Samsung Health"),
        Writer(store: .healthConnect, name: "com.garmin.android.apps.connectmobile", appName: "Garmin Connect"),
        Writer(store: .healthConnect, name: "fi.polar.polarflow", appName: "Polar Flow"),
        Writer(store: .healthConnect, name: "com.whoop.android", appName: "WHOOP"),
    ]

    /// The writers in every history: the watch, Withings and the Health Connect apps.
    static var writerCount: Int { 2 + healthConnectWriters.count }

    /// The batches to apply, oldest first.
    func batches() -> [SyncBatch] {
        // One step past the seed, as this history has always started: the same seed still gives the same store.
        var random = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
        let firstDay = lastDay.adding(days: -(years * 365) + 1)
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let exportAsOf = timestamp(lastDay, hour: 21, zone: berlin)
        let earlierAsOf = timestamp(lastDay.adding(days: -2), hour: 21, zone: berlin)

        var healthKit: [RestingSample] = []
        var earlierHealthKit: [RestingSample] = []
        var heartRate = HeartRateSummarizer()
        var healthConnect: [RestingSample] = []
        var day = firstDay
        var i = 0
        while day <= lastDay {
            let t = Double(i)
            // A slow drift over the years, a season, and day-to-day noise.
            let base = 58 - 3 * sin(t / 900) + 1.5 * sin(t / 365 * 2 * .pi)
            if random.chance(0.95) {
                let value = (base + random.noise(2.5)).rounded()
                let sample = watchSample(day, value, zone: berlin)
                healthKit.append(sample)
                // The earlier export saw other, provisional values for its last two days.
                if day <= lastDay.adding(days: -2) {
                    var draft = sample
                    if day >= lastDay.adding(days: -3) { draft.value = value + 3 }
                    earlierHealthKit.append(draft)
                }
                for _ in 0..<60 {
                    heartRate.add(writer: Self.watch, day: day, bpm: (value + 4 + random.noise(6)).rounded(),
                                  context: random.chance(0.5) ? .sedentary : (random.chance(0.5) ? .active : .notSet))
                }
            }
            if random.chance(0.9) {
                var value = (base + 4 + random.noise(3)).rounded()
                if random.chance(0.002) { value = 0 }
                let time = date(day, hour: 7, minute: 30, zone: berlin)
                healthKit.append(RestingSample(store: .healthKit, writer: Self.withings,
                                               device: Device(manufacturer: "Withings", model: "ScanWatch"),
                                               start: time, end: time, offsetSeconds: berlin.secondsFromGMT(for: time),
                                               value: value, unit: "count/min", created: time.addingTimeInterval(60)))
            }
            for (w, writer) in Self.healthConnectWriters.enumerated() where random.chance(0.93) {
                let value = Int64((base - 2 + Double(w) + random.noise(3)).rounded())
                let time = date(day, hour: 6 + w, minute: 12, zone: berlin)
                let offset: Int? = w == 1 && random.chance(0.05) ? nil : berlin.secondsFromGMT(for: time)
                healthConnect.append(.healthConnect(
                    id: String(format: "%08x%04x%04x", i, w, random.next() & 0xffff), writer: writer, time: time,
                    zoneOffset: offset, beatsPerMinute: random.chance(0.001) ? 0 : value,
                    device: Device(manufacturer: writer.appName, model: "Band", type: 6),
                    recordingMethod: .automaticallyRecorded, lastModified: time.addingTimeInterval(600)))
            }
            day = day.adding(days: 1)
            i += 1
        }
        let watches: Set<String> = [Self.watch.name]
        let earlier = SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: earlierAsOf,
                                snapshot: .init(from: nil, to: earlierAsOf), resting: earlierHealthKit,
                                watchWriters: watches, origin: "export of \(lastDay.adding(days: -2).shortText)")
        let latest = SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: exportAsOf,
                               snapshot: .init(from: nil, to: exportAsOf), resting: healthKit,
                               heartRate: heartRate.result, watchWriters: watches,
                               origin: "export of \(lastDay.shortText)")
        let connect = SyncBatch(store: .healthConnect, stream: "health-connect-export",
                                asOf: timestamp(lastDay, hour: 9, zone: berlin), snapshot: .init(),
                                resting: healthConnect, origin: "Health Connect export of \(lastDay.shortText)")
        return [earlier, latest, connect]
    }

    private func watchSample(_ day: LocalDay, _ value: Double, zone: TimeZone) -> RestingSample {
        let start = date(day, hour: 0, minute: 3, zone: zone)
        let end = date(day, hour: 23, minute: 48, zone: zone)
        return RestingSample(store: .healthKit, writer: Self.watch,
                             device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
                             start: start, end: end, offsetSeconds: zone.secondsFromGMT(for: start),
                             timeZoneIdentifier: "Europe/Berlin", value: value, unit: "count/min",
                             created: end.addingTimeInterval(30 * 60))
    }

    private func date(_ day: LocalDay, hour: Int, minute: Int, zone: TimeZone) -> Date {
        let local = day.startEpochSeconds + Double(hour * 3600 + minute * 60)
        let guess = Date(timeIntervalSince1970: local)
        return Date(timeIntervalSince1970: local - Double(zone.secondsFromGMT(for: guess)))
    }

    private func timestamp(_ day: LocalDay, hour: Int, zone: TimeZone) -> Timestamp {
        let d = date(day, hour: hour, minute: 0, zone: zone)
        return Timestamp(date: d, offsetSeconds: zone.secondsFromGMT(for: d))
    }
}

/// What the history draws from its generator (the same seed gives the same history).
extension SplitMix64 {
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// Roughly normal, within ± 3 × `scale`.
    mutating func noise(_ scale: Double) -> Double { (unit() + unit() + unit() - 1.5) * 2 * scale }
}
