import Foundation
import RHRCore
import RHRStore
import RHRTestSupport
import Testing

/// The `rhr` that `swift build` made, and command lines that run it in tmux.
enum Binary {
    static func rhr() throws -> String { try SourceTree.builtProduct("rhr") }

    /// A command line for tmux: the dashboard in a UTF-8 locale and a fixed zone, then, once it exits, its
    /// status and the terminal modes it left behind. The inner shell writes its pid (which `exec` hands to rhr).
    /// The config and the view state live in `settings` (`config/` and `state/` inside it, `settings(in:)`), a
    /// test's own directory, so a test never reads or writes the files of whoever runs it.
    static func dashboard(_ arguments: String, settings: TemporaryDirectory, pidFile: String? = nil,
                          environment: String = "") throws -> String {
        let rhr = try rhr()
        // \$\$: expanded by the inner shell, whose pid `exec` passes on to rhr.
        let pid = pidFile.map { "echo \\$\\$ > '\($0)'; " } ?? ""
        let inner = "\(pid)exec env TZ=UTC LANG=C.UTF-8 TERM=xterm-256color \(Self.settings(in: settings)) \(environment) '\(rhr)' \(arguments)"
        // (Variables in `environment` come after the defaults, so they win: LANG=C, NO_COLOR=1.)
        return "sh -c \"\(inner)\"; echo \"rhr exited $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo"
    }

    /// The environment that puts the config and the view state in `dir`.
    static func settings(in dir: TemporaryDirectory) -> String {
        "XDG_CONFIG_HOME='\(dir.path)/config' XDG_STATE_HOME='\(dir.path)/state'"
    }
}

/// Stores for the dashboard to open, written through the real store.
enum StoreFixture {
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    static let lastDay = LocalDay("2026-03-12")!

    /// Sixty days from a watch (an export of 12 Mar 21:00, so the last two days are provisional) and from Oura
    /// through Health Connect.
    static func resting(at path: String) throws {
        try sixtyDays(at: path, healthKit: [(watch, Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"))],
                      healthConnect: [oura], healthKitValue: { _, i in Double(56 + i % 7) },
                      healthConnectValue: { _, i in Int64(53 + i % 5) })
    }

    /// Five writers over sixty days, in HealthKit and Health Connect: the NO_COLOR screen tells each by its glyph.
    static func fiveWriters(at path: String) throws {
        try sixtyDays(at: path, healthKit: [(watch, nil), (Writer(store: .healthKit, name: "Withings"), nil)],
                      healthConnect: [oura, Writer(store: .healthConnect, name: "com.fitbit.FitbitMobile", appName: "Fitbit"),
                                      Writer(store: .healthConnect, name: "com.garmin.android.apps.connectmobile", appName: "Garmin")],
                      healthKitValue: { w, i in Double(56 + w * 4 + (i * (w + 2)) % 5) },
                      healthConnectValue: { w, i in Int64(52 + w * 3 + (i * (w + 3)) % 4) })
    }

    /// Sixty days to 12 Mar of each writer's values (`value(writer index, day index)`): HealthKit ones from an export of
    /// 12 Mar 21:00 that marks the watch, Health Connect ones from an export.
    static func sixtyDays(at path: String, healthKit healthKitWriters: [(Writer, Device?)], healthConnect healthConnectWriters: [Writer],
                          healthKitValue: (Int, Int) -> Double, healthConnectValue: (Int, Int) -> Int64) throws {
        let database = try HealthDatabase(path: path, machineZone: TimeZone(identifier: "UTC")!)
        let asOf = Timestamp.parse("2026-03-12T21:00:00+01:00")!
        var healthKit: [RestingSample] = [], healthConnect: [RestingSample] = []
        for i in 0..<60 {
            let midnight = lastDay.adding(days: i - 59).startEpochSeconds - 3600
            let start = Date(timeIntervalSince1970: midnight + 180), end = Date(timeIntervalSince1970: midnight + 85_680)
            for (w, (writer, device)) in healthKitWriters.enumerated() {
                healthKit.append(RestingSample(store: .healthKit, writer: writer, device: device, start: start, end: end,
                                               offsetSeconds: 3600, value: healthKitValue(w, i), created: end.addingTimeInterval(600)))
            }
            let time = Date(timeIntervalSince1970: midnight + 6 * 3600)
            for (w, writer) in healthConnectWriters.enumerated() {
                healthConnect.append(.healthConnect(id: String(format: "%08x%024x", w, i + 1), writer: writer, time: time,
                                                    zoneOffset: 3600, beatsPerMinute: healthConnectValue(w, i),
                                                    recordingMethod: .automaticallyRecorded, lastModified: time))
            }
        }
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                      resting: healthKit, watchWriters: [watch.name], origin: "export of 12 Mar"),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: asOf, snapshot: .init(),
                      resting: healthConnect, origin: "Health Connect export"),
        ])
    }
}

extension StoreFixture {
    /// R9 with R10: a Health Connect feed without READ_RESTING_HEART_RATE that brought Oura's heart rate only.
    static func permissionHidden(at path: String) throws {
        let database = try HealthDatabase(path: path, machineZone: TimeZone(identifier: "UTC")!)
        var batch = SyncBatch(store: .healthConnect, stream: "pixel", asOf: Timestamp.parse("2026-03-12T08:00:00+01:00")!,
                              cursor: .init(previous: nil, next: "dG9r"),
                              grantedPermissions: ["android.permission.health.READ_HEART_RATE"], origin: "pixel")
        for i in 0..<14 {
            var summary = HeartRateDaySummary(writer: oura, day: lastDay.adding(days: i - 13))
            for v in 0..<40 { summary.add(bpm: Double(52 + (v * 7 + i) % 30), context: .notSet) }
            batch.heartRate.append(summary)
        }
        _ = try database.apply([batch])
    }
}

extension Tmux {
    /// `rhr ARGUMENTS` in a 100×30 tmux, as `Binary.dashboard` runs it; its config and view state in the tmux's
    /// directory.
    static func rhr(_ arguments: String, pidFile: String? = nil, environment: String = "",
                    directory: TemporaryDirectory? = nil) throws -> Tmux {
        let directory = try directory ?? TemporaryDirectory(prefix: "rhr-tmux")
        return try Tmux(width: 100, height: 30, directory: directory,
                        command: try Binary.dashboard(arguments, settings: directory, pidFile: pidFile, environment: environment))
    }

    /// rhr wrote nothing of its own on the terminal (every message of rhr's starts with "rhr:"), up to and
    /// after its exit: no error, no warning such as a view it could not keep.
    func expectNothingStray(sourceLocation: SourceLocation = #_sourceLocation) {
        let stray = capture(history: true).split(separator: "\n").filter { $0.hasPrefix("rhr:") }
        #expect(stray.isEmpty, "rhr printed: \(stray)", sourceLocation: sourceLocation)
    }
}

/// Sixty resting days in a fresh store (`StoreFixture.resting`) and the dashboard on it, in a tmux of
/// 100×30 tmux, once its chart is drawn. The store lives in the tmux's directory and goes with it.
func dashboardOnRestingStore(environment: String = "") throws -> Tmux {
    let directory = try TemporaryDirectory(prefix: "rhr-e2e")
    try StoreFixture.resting(at: directory.storePath)
    let tmux = try Tmux.rhr("--store '\(directory.storePath)'", environment: environment, directory: directory)
    try tmux.waitFor(DashboardEndToEndTests.chart)
    return tmux
}
