import Foundation
import RHRCore
import RHRStore

/// The package root, found from this file, and the `rhr` that `swift build` made there.
enum Binary {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func rhr() throws -> String {
        let path = packageRoot + "/.build/debug/rhr"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("\(path) is missing: run `swift build` before `swift test` (scripts/test does)")
        }
        return path
    }

    /// A command line for tmux: the dashboard in a UTF-8 locale and a fixed zone, then, once it exits, its
    /// status and the terminal modes it left behind. The inner shell writes its pid (which `exec` hands to rhr).
    /// The config and view state go nowhere (a directory that cannot exist) unless `environment` names them, so
    /// a test never reads or writes the files of whoever runs it.
    static func dashboard(_ arguments: String, pidFile: String? = nil, environment: String = "") throws -> String {
        let rhr = try rhr()
        // \$\$: expanded by the inner shell, whose pid `exec` passes on to rhr.
        let pid = pidFile.map { "echo \\$\\$ > '\($0)'; " } ?? ""
        let settings = "XDG_CONFIG_HOME=/dev/null/config XDG_STATE_HOME=/dev/null/state"
        let inner = "\(pid)exec env TZ=UTC LANG=C.UTF-8 TERM=xterm-256color \(settings) \(environment) '\(rhr)' \(arguments)"
        // (Variables in `environment` come after the defaults, so they win: LANG=C, NO_COLOR=1.)
        return "sh -c \"\(inner)\"; echo \"rhr exited $?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo"
    }
}

/// A private directory removed at the end of the test.
final class TemporaryDirectory {
    let path: String
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/rhr-e2e-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        path = String(cString: made)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Stores for the dashboard to open, written through the real store.
enum StoreFixture {
    static let watch = Writer(store: .healthKit, name: "Jane’s Apple Watch")
    static let oura = Writer(store: .healthConnect, name: "com.ouraring.oura", appName: "Oura")
    static let lastDay = LocalDay("2026-03-12")!

    /// Sixty days from a watch (an export of 12 Mar 21:00, so the last two days are provisional) and from Oura
    /// through Health Connect.
    static func resting(at path: String) throws {
        let database = try HealthDatabase(path: path, machineZone: TimeZone(identifier: "UTC")!)
        let asOf = Timestamp.parse("2026-03-12T21:00:00+01:00")!
        var healthKit: [RestingSample] = [], healthConnect: [RestingSample] = []
        for i in 0..<60 {
            let day = lastDay.adding(days: i - 59)
            let midnight = day.startEpochSeconds - 3600
            let start = Date(timeIntervalSince1970: midnight + 180), end = Date(timeIntervalSince1970: midnight + 85_680)
            healthKit.append(RestingSample(store: .healthKit, writer: watch,
                                           device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch"),
                                           start: start, end: end, offsetSeconds: 3600, value: Double(56 + i % 7),
                                           created: end.addingTimeInterval(600)))
            let time = Date(timeIntervalSince1970: midnight + 6 * 3600)
            healthConnect.append(.healthConnect(id: String(format: "%032x", i + 1), writer: oura, time: time,
                                                zoneOffset: 3600, beatsPerMinute: Int64(53 + i % 5),
                                                recordingMethod: .automaticallyRecorded, lastModified: time))
        }
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                      resting: healthKit, watchWriters: [watch.name], origin: "export of 12 Mar"),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: asOf, snapshot: .init(),
                      resting: healthConnect, origin: "Health Connect export"),
        ])
    }
}
