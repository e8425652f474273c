import Foundation
import RHRTestSupport
import Testing

/// The dashboard's habits in the real `rhr` under tmux: the mouse, the view restored per store, the config file,
/// and a terminal without cursor addressing.
@Suite("End to end: mouse, restored view, config, TERM=dumb", .serialized)
struct DashboardHabitsEndToEndTests {
    /// A left click at a cell (0-based), as a terminal reports it in SGR mode: press, then release.
    static func click(_ tmux: Tmux, x: Int, y: Int, button: Int = 0) throws {
        try tmux.send("-l", "\u{1B}[<\(button);\(x + 1);\(y + 1)M\u{1B}[<\(button);\(x + 1);\(y + 1)m")
    }

    @Test("The mouse: a click on a legend entry hides that writer, a click on a day moves there, the wheel scrolls")
    func mouse() throws {
        let tmux = try dashboardOnRestingStore()
        defer { tmux.kill() }
        let screen = try tmux.waitFor("Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let legend = try #require(lines.firstIndex { $0.contains("HealthKit: 2 ◆ Jane’s Apple Watch") })
        let column = try #require(lines[legend].range(of: "Jane’s")).lowerBound
        try Self.click(tmux, x: lines[legend].distance(from: lines[legend].startIndex, to: column), y: legend)
        try tmux.waitFor("2 ◆ Jane’s Apple Watch (hidden)")
        // The plot starts at x = 5 with the first day, 12 Jan: the eleventh column is 22 Jan.
        try Self.click(tmux, x: 15, y: 8)
        try tmux.waitFor("▸ Thu 22 Jan 2026")
        // The wheel over the chart: a day later, twice.
        try Self.click(tmux, x: 15, y: 8, button: 65)
        try Self.click(tmux, x: 15, y: 8, button: 65)
        try tmux.waitFor("▸ Sat 24 Jan 2026")
        try tmux.send("q")
        try tmux.waitFor("rhr exited 0", history: true)
        tmux.expectNothingStray()
    }

    @Test("The view comes back: aggregation, zoom, hidden writer and aids survive a restart, kept 0600 in a 0700 directory")
    func restoredView() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path + "/rhr.sqlite"
        try StoreFixture.resting(at: store)
        let command = try Binary.dashboard("--store '\(store)'", settings: dir)
        var tmux = try Tmux(width: 100, height: 30, command: command)
        try tmux.waitFor("one value per day: latest")
        try tmux.send("a", "-", "m", "2")
        try tmux.waitUntil("lowest, week zoom, the mean, Jane’s watch hidden") {
            $0.contains("one value per day: lowest") && $0.contains("weekly medians") && $0.contains("7-day mean")
                && $0.contains("(hidden)")
        }
        try tmux.send("q")
        try tmux.waitFor("rhr exited 0", history: true)
        tmux.expectNothingStray()
        tmux.kill()
        let stateDir = dir.path + "/state/rhr"
        let files = try FileManager.default.contentsOfDirectory(atPath: stateDir)
        #expect(files.count == 1 && files[0].hasPrefix("view-"))
        #expect(FileMode.permissions(dir.path + "/state") == 0o700 && FileMode.permissions(stateDir) == 0o700)
        #expect(FileMode.permissions(stateDir + "/" + files[0]) == 0o600)

        tmux = try Tmux(width: 100, height: 30, command: command)
        defer { tmux.kill() }
        // Waits for the legend too: tmux may show the header of a frame whose chart is still being written.
        let screen = try tmux.waitUntil("the view as it was left, legend drawn") {
            $0.contains("one value per day: lowest") && $0.contains("weekly medians") && $0.contains("7-day mean")
                && $0.contains("2 ◆ ")
        }
        #expect(screen.contains("2 ◆ Jane’s Apple Watch (hidden)"))
        // Another store keeps its own view: a copy of the file at another path opens as new.
        try FileManager.default.copyItem(atPath: store, toPath: dir.path + "/other.sqlite")
        let other = try Tmux(width: 100, height: 30,
                             command: try Binary.dashboard("--store '\(dir.path)/other.sqlite'", settings: dir))
        defer { other.kill() }
        // The scale follows the whole history, which comes after the first frame of recent days: wait for it.
        let fresh = try other.waitUntil("the new store's default view over its whole history") {
            $0.contains("one value per day: latest") && !$0.contains("reading earlier days")
        }
        #expect(fresh.contains("1 column a day"))
    }

    @Test("The config sets the first aggregation and turns the mouse off; a bad line stops the dashboard, naming it")
    func config() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path + "/rhr.sqlite"
        try StoreFixture.resting(at: store)
        try FileManager.default.createDirectory(atPath: dir.path + "/config/rhr", withIntermediateDirectories: true)
        let config = dir.path + "/config/rhr/config"
        try "# mine\naggregation = mean\nmouse = off\ntheme = mono\n".write(toFile: config, atomically: true, encoding: .utf8)
        var tmux = try Tmux(width: 100, height: 30,
                            command: try Binary.dashboard("--store '\(store)'", settings: dir))
        try tmux.waitFor("one value per day: mean")
        try Self.click(tmux, x: 15, y: 8)
        try tmux.send("?")
        try tmux.waitFor("It is not medical advice.")
        try tmux.send("q")
        // The dashboard again, its cursor line drawn: the help gone and the day the cursor is on.
        let back = try tmux.waitUntil("the dashboard without the help") { screen in
            screen.contains("one value per day: mean") && !screen.contains("It is not medical advice.")
                && screen.contains(#/▸ [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}/#)
        }
        #expect(back.contains("▸ Thu 12 Mar 2026"), "the click did nothing: the mouse is off")
        // The mono theme: no colour at all.
        #expect(!tmux.capture(escapes: true).contains("\u{1B}[38;5"))
        try tmux.send("q")
        try tmux.waitFor("rhr exited 0", history: true)
        tmux.kill()

        try "aggregation = mean\ntheme = dark\n".write(toFile: config, atomically: true, encoding: .utf8)
        tmux = try Tmux(width: 200, height: 30,
                        command: try Binary.dashboard("--store '\(store)'", settings: dir))
        defer { tmux.kill() }
        let screen = try tmux.waitFor("rhr exited 1", history: true)
        #expect(screen.contains("\(config):2: theme \"dark\" is not one rhr knows; use default, 256, truecolor, high-contrast or mono"))
        #expect(!screen.contains("Resting heart rate, bpm"))
    }

    @Test("TERM=dumb (no cursor addressing): the plain summary, as rhr summary prints it, and no escape codes")
    func dumbTerminal() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path + "/rhr.sqlite"
        try StoreFixture.resting(at: store)
        let rhr = try Binary.rhr()
        let tmux = try Tmux(width: 140, height: 50, command:
            "sh -c \"exec env TZ=UTC LANG=C.UTF-8 TERM=dumb \(Binary.settings(in: dir)) '\(rhr)' --store '\(store)'\"; echo \"rhr exited $?\"")
        defer { tmux.kill() }
        let screen = try tmux.waitFor("rhr exited 0", history: true)
        #expect(!tmux.capture(history: true, escapes: true).contains("\u{1B}["))
        // The same text `rhr summary` prints; a line wider than the terminal wraps there at a word (`SummaryLayout`).
        let summary = try Subprocess.run(rhr, ["summary", "--store", store], environment: ["TZ": "UTC", "LANG": "C.UTF-8"]).stdout
        let summaryLines = summary.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let screenLines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let screenWords = screenLines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(summaryLines.count == 21, "\(summary)")
        for line in summaryLines {
            let found = line.count <= 140 ? screenLines.contains(line) : screenWords.contains(line.split(separator: " ").joined(separator: " "))
            #expect(found, "missing from TERM=dumb: \(line)")
        }
        #expect(!screen.contains("Resting heart rate, bpm"))
        // And says why, on stderr.
        #expect(screen.contains("rhr: TERM=dumb: the terminal cannot move its cursor, so rhr prints the summary instead"),
                "\(screen)")
    }
}
