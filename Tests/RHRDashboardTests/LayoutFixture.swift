import Foundation
import RHRCore
import RHRDashboard
import RHRScreen

/// Three weeks to 12 Mar 2026 from five writers with names of real length: a Health Connect package of 32
/// characters, an app named in CJK and a HealthKit source with an emoji (each such character two columns wide),
/// and a watch with its live feed's bundle id. The four screen sizes people use are laid out with them.
enum LayoutFixture {
    static let samsung = Writer(store: .healthConnect, name: "com.samsung.android.wear.shealth", appName: "Samsung Health")
    static let huawei = Writer(store: .healthConnect, name: "com.huawei.health", appName: "华为运动健康")
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch", bundleIdentifier: "com.apple.health.7A1B3C4D",
                              productType: "Watch7,1")
    static let runner = Writer(store: .healthKit, name: "🏃 Running Club")
    static let days = 21

    static func data() -> DashboardData {
        var samples: [DaySample] = []
        for i in 0..<days {
            let day = Fixture.lastDay.adding(days: i - days + 1)
            samples.append(Fixture.healthKit(watch, day, Fixture.wave(i, base: 58, amplitude: 3, period: 11),
                                             provisional: day >= Fixture.lastDay.adding(days: -1)))
            if i % 2 == 0 {
                samples.append(Fixture.healthKit(runner, day, Fixture.wave(i, base: 62, amplitude: 2, period: 9), device: nil))
            }
            samples.append(Fixture.healthConnect(Fixture.oura, day, Int64(Fixture.wave(i, base: 54, amplitude: 2, period: 13)),
                                                 offsetAssumed: i == days - 3, id: "oura-\(i)"))
            samples.append(Fixture.healthConnect(samsung, day, Int64(Fixture.wave(i + 4, base: 56, amplitude: 2, period: 7)),
                                                 id: "samsung-\(i)"))
            if i != 10 {
                samples.append(Fixture.healthConnect(huawei, day, Int64(Fixture.wave(i + 2, base: 60, amplitude: 2, period: 8)),
                                                     id: "huawei-\(i)"))
            }
        }
        let revision = RevisionEntry(writer: watch, day: Fixture.lastDay, identity: "x", oldBPM: 61, oldValue: 61,
                                     unit: "count/min", wasProvisional: true, reason: .notInNewerExport,
                                     replacedByBPM: 58, at: Fixture.asOf, origin: "Apple Health export")
        var heartRate = HeartRateDaySummary(writer: watch, day: Fixture.lastDay)
        for v in [51.0, 53, 60, 62, 69] { heartRate.add(bpm: v, context: .sedentary) }
        heartRate.add(bpm: 118, context: .active)
        let contents = [
            StoreContents(store: .healthKit, restingWriters: [watch, runner], restingSamples: 32, heartRateSamples: 6,
                          heartRateWriters: [watch]),
            StoreContents(store: .healthConnect, restingWriters: [huawei, Fixture.oura, samsung], restingSamples: 62),
        ]
        let streams = [
            StreamState(store: .healthKit, stream: "apple-health-export", asOf: Fixture.asOf, origin: "Apple Health export",
                        revision: 3),
            StreamState(store: .healthConnect, stream: "health-connect-export", asOf: Fixture.ouraAsOf, revision: 2),
        ]
        return DashboardData(samples: samples, revisions: [revision], heartRateDays: [heartRate], contents: contents,
                             streams: streams, revision: 3, source: "/tmp/rhr-test/rhr.sqlite",
                             machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!)
    }

    static func state(_ width: Int, _ height: Int) -> DashboardState {
        Fixture.state(data(), size: TerminalSize(width: width, height: height))
    }
}
