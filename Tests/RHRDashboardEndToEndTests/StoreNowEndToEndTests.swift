import Foundation
import RHRTestSupport
import Testing

/// What an open dashboard shows is the store as it is now, in the real `rhr` under tmux: imports from
/// another shell, a daemon stopped and started again.
@Suite("End to end: the dashboard shows the store as it is now", .serialized)
struct StoreNowEndToEndTests {
    /// A Health Auto Export file of one resting value from a new writer on an older day, as the issue's a.json.
    static func writerFile(_ dir: TemporaryDirectory, _ name: String, day: Int) throws -> String {
        try dir.write("\(name).json", """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[\
            {"date":"2026-02-\(String(format: "%02d", day)) 00:00:00 +0100","qty":\(50 + day),"source":"Writer \(name)"}]}]}}
            """)
    }

    static func rhr(_ arguments: [String]) throws {
        let result = try Subprocess.run(try Binary.rhr(), arguments, environment: ["TZ": "UTC", "LANG": "C.UTF-8"])
        guard result.status == 0 else { throw TestFailure("rhr \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    @Test("No daemon: each import from another process is on screen at the next r, the third as the first")
    func reloadSeesEveryImport() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let store = dir.storePath
        try Self.rhr(["import", "--store", store, SourceTree.samples + "/apple-health/export-1.xml"])
        let tmux = try Tmux.rhr("--store '\(store)' --socket '\(dir.path)/none.sock'", directory: dir)
        defer { tmux.kill() }
        try tmux.waitFor(DashboardEndToEndTests.chart)
        for (n, name) in ["a", "b", "c"].enumerated() {
            try Self.rhr(["import", "--store", store, try Self.writerFile(dir, name, day: n + 1)])
            try tmux.send("r")
            try tmux.waitForAll("Reloaded: store revision \(n + 2).", "■ Writer a", "Writer \(name)")
        }
        // Pressed again, it stays at the newest: nothing older comes back.
        try tmux.send("r")
        try tmux.waitForAll("Reloaded: store revision 4.", "Writer c")
    }

    @Test("Live: a daemon stopped and started again; what another process and its folder watch imported is shown")
    func daemonRestart() throws {
        let sandbox = try RHRSandbox()
        let dir = sandbox.directory
        let store = dir.storePath, socket = sandbox.socketPath, inbox = dir.path + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: false)
        try Self.rhr(["import", "--store", store, SourceTree.samples + "/apple-health/export-1.xml"])
        func startDaemon() throws -> RunningProcess { try sandbox.startDaemon(["--store", store, "--watch", inbox]) }
        var daemon = try startDaemon()
        defer { daemon.stop() }
        let tmux = try Tmux.rhr("--store '\(store)' --socket '\(socket)'", directory: dir)
        defer { tmux.kill() }
        try tmux.waitUntil("the chart, live") {
            $0.contains(DashboardEndToEndTests.chart) && $0.split(separator: "\n").prefix(2).contains { $0.hasSuffix(" live") }
        }
        // Another process writes while the daemon serves: the daemon's resync, a live update.
        try Self.rhr(["import", "--store", store, try Self.writerFile(dir, "a", day: 1)])
        try tmux.waitForAll("Writer a", "Updated: 1 Feb.")
        // The daemon stops; another process imports with nobody serving.
        daemon.stop()
        try tmux.waitFor("The daemon stopped")
        try Self.rhr(["import", "--store", store, try Self.writerFile(dir, "b", day: 2)])
        // The daemon again; its folder watch takes the file that waits in its inbox.
        let waiting = try Self.writerFile(dir, "c", day: 3)
        try FileManager.default.moveItem(atPath: waiting, toPath: inbox + "/c.json")
        daemon = try startDaemon()
        try tmux.waitForAll("Writer b", "Writer c", "live", seconds: 30)
        try tmux.send("r")
        try tmux.waitForAll("Reloaded: store revision 4.", "Writer b", "Writer c")
    }

    @Test("rhr FILE whose import fails: the error, with the file and the position, in the dashboard; not the first-run screen")
    func failedFile() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let broken = try dir.write("broken.json", """
            {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[\
            {"date":"2026-02-01 00:00:00 +0100","qty":55,"source":"W"},
            {"date": ]}]}}
            """)
        let tmux = try Tmux.rhr("'\(broken)'", directory: dir)
        defer { tmux.kill() }
        let screen = try tmux.waitForAll("broken.json could not be imported.",
                                         "broken.json: read as a Health Auto Export file (JSON): line 2, column 10,",
                                         "Nothing was imported, so there is nothing to show")
        #expect(!screen.contains("No resting heart rate here yet"))
        try tmux.send("q")
        // The exit says it failed; the message is on stderr too, once the screen is back.
        try tmux.waitFor("rhr exited 1", history: true)
    }

    @Test("rhr GOOD BROKEN: the good file's chart, and a note naming the broken one and where")
    func oneOfTwoFailed() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let good = try Self.writerFile(dir, "a", day: 1)
        let broken = try dir.write("broken.json", "{\"data\":{\"metrics\":[{\"name\":\"resting_heart_rate\",\n\"units\": }]}}")
        let tmux = try Tmux.rhr("'\(good)' '\(broken)'", directory: dir)
        defer { tmux.kill() }
        try tmux.waitForAll(DashboardEndToEndTests.chart, "Writer a", "· Not imported: \(broken): line 2, column 10, byte")
    }
}
