import Foundation
import RHRCore
import RHRDashboard
import RHRScreen

/// Seven writers over ninety days to 12 Mar 2026, the shape a crowded trend was seen with: four Health Connect apps
/// and three HealthKit writers (the watch's last two days provisional, Withings every other day, Polar with a
/// week-long gap), levels a few bpm apart.
enum ManyWriters {
    static let healthConnect = [("com.fitbit.FitbitMobile", "Fitbit", 59.0), ("com.garmin.android.apps.connectmobile",
                                "Garmin Connect", 52), ("com.ouraring.oura", "Oura", 54), ("com.sec.android.app.shealth",
                                "Samsung Health", 56)]
    static let healthKit = [("Jane’s Apple Watch", 57.0), ("Polar Flow", 55), ("Withings", 61)]

    static func data(days: Int = 90) -> DashboardData {
        var samples: [DaySample] = []
        for i in 0..<days {
            let day = Fixture.lastDay.adding(days: i - days + 1)
            for (w, (package, app, base)) in healthConnect.enumerated() {
                let writer = Writer(store: .healthConnect, name: package, appName: app)
                samples.append(Fixture.healthConnect(writer, day, Int64(Fixture.wave(i + w * 5, base: base, amplitude: 2, period: 19)),
                                                     id: "\(w)-\(i)"))
            }
            for (w, (name, base)) in healthKit.enumerated() {
                if w == 1 && (40..<47).contains(i) { continue }
                if w == 2 && i % 2 == 1 { continue }
                samples.append(Fixture.healthKit(Writer(store: .healthKit, name: name), day,
                                                 Fixture.wave(i + w * 3, base: base, amplitude: 2, period: 23),
                                                 provisional: w == 0 && day >= Fixture.lastDay.adding(days: -1),
                                                 device: w == 0 ? Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch") : nil))
            }
        }
        return DashboardData(samples: samples, revision: 5, source: "/tmp/seven.sqlite",
                             machineZone: TimeZone(secondsFromGMT: Fixture.berlin)!)
    }

    static func state(_ width: Int, _ height: Int, unicode: Bool = true) -> DashboardState {
        Fixture.state(data(), size: TerminalSize(width: width, height: height), unicode: unicode)
    }
}
