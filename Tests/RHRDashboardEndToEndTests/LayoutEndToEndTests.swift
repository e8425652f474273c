import Foundation
import RHRCore
import RHRStore
import RHRTestSupport
import Testing

/// Each pane what it needs, in the real `rhr` under tmux: the panes at 80×24, 120×40, 200×60 and 300×80 (and a resize through
/// them), with names of real length; the mouse on the wide layout; a watch owner's heart-rate-only export.
@Suite("End to end: the layout at four sizes, and a heart-rate-only export", .serialized)
struct LayoutEndToEndTests {
    static let samsung = Writer(store: .healthConnect, name: "com.samsung.android.wear.shealth", appName: "Samsung Health")
    static let huawei = Writer(store: .healthConnect, name: "com.huawei.health", appName: "华为运动健康")
    static let runner = Writer(store: .healthKit, name: "🏃 Running Club")

    /// Three weeks to 12 Mar 2026 from a watch, a HealthKit app named with an emoji, Samsung Health (a 32-character
    /// package) and an app named in CJK, written through the real store.
    static func store(at path: String) throws {
        let database = try HealthDatabase(path: path, machineZone: TimeZone(identifier: "UTC")!)
        let asOf = Timestamp.parse("2026-03-12T21:00:00+01:00")!
        var healthKit: [RestingSample] = [], healthConnect: [RestingSample] = []
        for i in 0..<21 {
            let day = StoreFixture.lastDay.adding(days: i - 20)
            let midnight = day.startEpochSeconds - 3600
            let start = Date(timeIntervalSince1970: midnight + 180), end = Date(timeIntervalSince1970: midnight + 85_680)
            for (writer, base) in [(StoreFixture.watch, 56), (Self.runner, 61)] where writer == StoreFixture.watch || i % 2 == 0 {
                healthKit.append(RestingSample(store: .healthKit, writer: writer, start: start, end: end, offsetSeconds: 3600,
                                               value: Double(base + i % 5), created: end.addingTimeInterval(600)))
            }
            for (n, (writer, base)) in [(Self.samsung, 55), (Self.huawei, 59)].enumerated() {
                let time = Date(timeIntervalSince1970: midnight + 6 * 3600 + Double(n * 60))
                healthConnect.append(.healthConnect(id: String(format: "%031x%01x", i + 1, n), writer: writer, time: time,
                                                    zoneOffset: 3600, beatsPerMinute: Int64(base + i % 4),
                                                    recordingMethod: .automaticallyRecorded, lastModified: time))
            }
        }
        _ = try database.apply([
            SyncBatch(store: .healthKit, stream: "apple-health-export", asOf: asOf, snapshot: .init(from: nil, to: asOf),
                      resting: healthKit, watchWriters: [StoreFixture.watch.name], origin: "export of 12 Mar"),
            SyncBatch(store: .healthConnect, stream: "health-connect-export", asOf: asOf, snapshot: .init(),
                      resting: healthConnect, origin: "Health Connect export"),
        ])
    }

    /// The dashboard on that store in a `width`×`height` tmux, once its chart and cursor row are drawn.
    static func dashboard(_ width: Int, _ height: Int) throws -> Tmux {
        let directory = try TemporaryDirectory(prefix: "rhr-e2e")
        try store(at: directory.storePath)
        let tmux = try Tmux(width: width, height: height, directory: directory,
                            command: try Binary.dashboard("--store '\(directory.storePath)'", settings: directory))
        try tmux.waitForAll(DashboardEndToEndTests.chart, "▸Thu 12 Mar 2026", "Per source")
        return tmux
    }

    /// q ends rhr with status 0, and it printed nothing of its own.
    static func quit(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send("q")
        try tmux.waitFor("rhr exited 0", history: true)
        tmux.expectNothingStray(sourceLocation: sourceLocation)
    }

    static func lines(_ screen: String) -> [String] { screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test("200×60 and 300×80: every writer's name, store and package whole; the detail pane beside; the table its three weeks",
          arguments: [(200, 60), (300, 80)])
    func wide(width: Int, height: Int) throws {
        let tmux = try Self.dashboard(width, height)
        defer { tmux.kill() }
        let screen = try tmux.waitUntil("the detail pane beside the columns") { $0.contains("│ Thu 12 Mar 2026  raw samples") }
        let lines = Self.lines(screen)
        let top = try #require(lines.firstIndex { $0.hasPrefix(" Per source") })
        for heading in ["1 ● 华为运动健康", "2 ◆ Samsung Health", "3 ■ Jane’s Apple Watch", "4 ▲ 🏃 Running Club"] {
            #expect(lines[top].contains(heading + " "), "\(heading) at \(width)×\(height): \(lines[top])")
        }
        #expect(lines[top + 2].contains("com.huawei.health com.samsung.android.wear.shealth "))
        #expect(!lines[top...(top + 2)].joined().contains("…"))
        // Three weeks from 20 Feb, then the flags' line: no blank rows under the table.
        #expect(lines[top + 3].hasPrefix(" Fri 20 Feb 2026"))
        #expect(lines[top + 23].hasPrefix("▸Thu 12 Mar 2026"))
        #expect(lines[top + 24].hasPrefix(" p provisional"))
        try Self.quit(tmux)
    }

    @Test("80×24 → 120×40 → 200×60 → 300×80 → 80×24: each size lays the panes out anew, the view as it was")
    func resizes() throws {
        let tmux = try Self.dashboard(80, 24)
        defer { tmux.kill() }
        try tmux.send("Left", "a")
        try tmux.waitForAll("one value per day: lowest", "▸Wed 11 Mar 2026")
        // 80×24: the columns share the width; the detail pane is a Tab away.
        #expect(!tmux.capture().contains("raw samples and revisions"))
        try tmux.resize(width: 120, height: 40)
        // 120×40: the stores whole and the detail pane below the columns.
        var screen = try tmux.waitUntil("the detail pane below the columns, the stores whole") { screen in
            let stores = Self.lines(screen).first { $0.hasPrefix(" lowest ") } ?? ""
            return screen.contains(" Wed 11 Mar 2026  raw samples and revisions")
                && stores.components(separatedBy: "Health Connect").count == 3 && stores.components(separatedBy: "HealthKit").count == 3
        }
        #expect(screen.contains("▸Wed 11 Mar 2026"))
        try tmux.resize(width: 200, height: 60)
        screen = try tmux.waitForAll("│ Wed 11 Mar 2026  raw samples", "com.huawei.health com.samsung.android.wear.shealth ")
        try tmux.resize(width: 300, height: 80)
        screen = try tmux.waitForAll("│ Wed 11 Mar 2026  raw samples", "com.huawei.health com.samsung.android.wear.shealth ")
        #expect(screen.contains("one value per day: lowest"))
        try tmux.resize(width: 80, height: 24)
        screen = try tmux.waitUntil("80×24 again") { !$0.contains("raw samples") && $0.contains("▸Wed 11 Mar 2026") }
        #expect(Self.lines(screen).count >= 24 && Self.lines(screen)[23].hasPrefix(" ←→ day"))
        try Self.quit(tmux)
    }

    @Test("The mouse at 200×60: a click on a table day moves there, the wheel over it moves a day, a click on the detail pane focuses it, a click on a legend entry hides that writer")
    func mouseOnTheWideLayout() throws {
        let tmux = try Self.dashboard(200, 60)
        defer { tmux.kill() }
        let lines = Self.lines(try tmux.waitFor("│ Thu 12 Mar 2026  raw samples"))
        let row = try #require(lines.firstIndex { $0.hasPrefix(" Tue 10 Mar 2026") })
        try DashboardHabitsEndToEndTests.click(tmux, x: 5, y: row)
        try tmux.waitForAll("▸Tue 10 Mar 2026", "│ Tue 10 Mar 2026  raw samples")
        try DashboardHabitsEndToEndTests.click(tmux, x: 5, y: row, button: 65)
        try tmux.waitForAll("▸Wed 11 Mar 2026", "│ Wed 11 Mar 2026  raw samples")
        // Right of the divider: the detail pane. Focused, ↓ scrolls it and leaves the day alone.
        let divider = try #require(lines[row].firstIndex(of: "│"))
        try DashboardHabitsEndToEndTests.click(tmux, x: lines[row].distance(from: lines[row].startIndex, to: divider) + 5, y: row)
        try tmux.send("Down", "Down", "Left")
        try tmux.waitForAll("▸Tue 10 Mar 2026", "│ Tue 10 Mar 2026  raw samples")
        let legend = try #require(lines.firstIndex { $0.contains("HealthKit: 3 ■ Jane’s Apple Watch") })
        let name = try #require(lines[legend].range(of: "Jane’s")).lowerBound
        try DashboardHabitsEndToEndTests.click(tmux, x: lines[legend].distance(from: lines[legend].startIndex, to: name), y: legend)
        try tmux.waitFor("3 ■ Jane’s Apple Watch (hidden)")
        try Self.quit(tmux)
    }

    /// An Apple Health export as the Health app writes it, with `count` heart-rate samples from an Apple Watch over
    /// 30 days to 12 Mar 2026 (three in four sedentary), and no resting heart rate.
    static func heartRateOnlyExport(count: Int) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
             <ExportDate value="2026-03-12 21:00:00 +0100"/>

            """
        let device = "&lt;&lt;HKDevice: 0x282a45810&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3&gt;"
        let first = Timestamp.parse("2026-02-11T00:01:00+01:00")!.epochSeconds
        for i in 0..<count {
            // "2026-02-11 00:01:00 +0100", as the export writes a moment.
            let iso = Timestamp(epochSeconds: (first + Double(i) * 30 * 86_400 / Double(count)).rounded(), offsetSeconds: 3600).iso8601
            let text = iso.prefix(19).replacingOccurrences(of: "T", with: " ") + " +0100"
            let day = i * 30 / count
            let value = 55 + day % 6 + (i % 20)
            xml += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Jane’s Apple Watch\" sourceVersion=\"10.3\" "
                + "device=\"\(device)\" unit=\"count/min\" creationDate=\"\(text)\" startDate=\"\(text)\" endDate=\"\(text)\" "
                + "value=\"\(value)\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(i % 4 == 3 ? 2 : 1)\"/>\n </Record>\n"
        }
        return xml + "</HealthData>\n"
    }

    @Test("A watch owner's export of 14,525 heart-rate samples and no resting values: why, in words; c draws the sedentary minimum",
          arguments: [(80, 24), (120, 40)])
    func heartRateOnlyExport(width: Int, height: Int) throws {
        let directory = try TemporaryDirectory(prefix: "rhr-e2e")
        let file = directory.file("export.xml")
        try Self.heartRateOnlyExport(count: 14_525).write(toFile: file, atomically: true, encoding: .utf8)
        let tmux = try Tmux(width: width, height: height, directory: directory,
                            command: try Binary.dashboard("'\(file)'", settings: directory))
        defer { tmux.kill() }
        let words = try tmux.waitForAll("No resting heart rate to show.", "14,525 heart-rate samples from Jane’s Apple Watch",
                                        "c charts the sedentary minimum instead")
        #expect(!words.contains("no app writes"))
        #expect(words.contains("Apple Watch writes, from its heart-rate readings"))
        try tmux.send("c")
        let chart = try tmux.waitForAll("Sedentary minimum, bpm  context, not resting",
                                        "· sedentary minimum (Jane’s Apple Watch): context, not resting",
                                        "Heart rate that day (context, not resting)")
        #expect(!chart.contains("Resting heart rate, bpm"))
        #expect(chart.contains("No resting value on Thu 12 Mar 2026."))
        try tmux.send("Left")
        try tmux.waitFor("No resting value on Wed 11 Mar 2026.")
        try tmux.send("c")
        try tmux.waitUntil("the words again") { $0.contains("No resting heart rate to show.") && !$0.contains("Sedentary minimum, bpm") }
        try Self.quit(tmux)
    }
}
