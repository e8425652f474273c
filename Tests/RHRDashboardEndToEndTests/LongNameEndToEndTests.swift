import Foundation
import Glibc
import RHRTestSupport
import Testing

/// Hostile names cost nothing, end to end: four writers, one of them named with a megabyte (a HealthKit source name, an HC Webhook
/// `data_origin`: none has a length limit), imported by the real `rhr import` from a file of sync batches; the real
/// dashboard in tmux draws at once and answers `q`, SIGTERM and SIGHUP within 100 ms.
@Suite("A megabyte writer name, end to end", .serialized)
struct LongNameEndToEndTests {
    static let longName = String(repeating: "Oura Ring ", count: 104_858)   // 1,048,580 bytes

    /// A store in `dir` holding thirty days from four writers, one of them named with a megabyte: one batch a day,
    /// one line each.
    static func store(in dir: TemporaryDirectory) throws -> String {
        var lines: [String] = []
        for day in 1...30 {
            let date = String(format: "2026-03-%02d", day)
            let samples = [("Jane’s Apple Watch", 57), (longName, 54), ("Withings", 61), ("Polar Flow", 59)].map { name, base in
                #"{"type":"restingHeartRate","start":"\#(date)T00:03:00+01:00","end":"\#(date)T23:48:00+01:00","#
                    + #""value":\#(base + day % 4),"unit":"count/min","source":{"name":"\#(name)"}}"#
            }
            let previous = day == 1 ? "null" : "\"c\(day - 1)\""
            lines.append(#"{"store":"healthkit","stream":"iphone","asOf":"\#(date)T23:59:00+01:00","#
                + #""cursor":{"previous":\#(previous),"next":"c\#(day)"},"upserted":[\#(samples.joined(separator: ","))]}"#)
        }
        let file = dir.file("iphone.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let imported = try Subprocess.run(try Binary.rhr(), ["import", "--store", dir.storePath, file])
        guard imported.status == 0 else { throw TestFailure("rhr import: \(imported.stderr)") }
        return dir.storePath
    }

    /// The dashboard on that store in tmux, once its first frame is up, and its pid.
    static func dashboard() throws -> (tmux: Tmux, pid: pid_t) {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let path = try store(in: dir)
        let pidFile = dir.file("rhr.pid")
        let tmux = try Tmux.rhr("--store '\(path)'", pidFile: pidFile, directory: dir)
        // The legend names the long writer cut, ending in "…", with the three others.
        try tmux.waitForAll(DashboardEndToEndTests.chart, "Jane’s Apple Watch", "Oura Ring Oura Ring", "Withings", seconds: 10)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text) else { throw TestFailure("no pid in \(pidFile): \(text)") }
        return (tmux, pid)
    }

    /// Seconds until `pid` has ended (a zombie has: it runs nothing), polled every millisecond, up to `limit`.
    static func secondsUntilGone(_ pid: pid_t, since start: UInt64, limit: Double = 5) -> Double {
        func ended() -> Bool {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return true }
            return text[text.index(after: close)...].split(separator: " ").first == "Z"
        }
        var now = DispatchTime.now().uptimeNanoseconds
        while !ended() && Double(now - start) / 1e9 < limit {
            usleep(1000)
            now = DispatchTime.now().uptimeNanoseconds
        }
        return Double(now - start) / 1e9
    }

    @Test func theDashboardDrawsAtOnceAndQuitsOnQWithin100Milliseconds() throws {
        let (tmux, pid) = try Self.dashboard()
        defer { tmux.kill() }
        let screen = tmux.capture()
        // A name no line holds whole asks the legend for no row of its own: it is cut to keep the writers on one.
        #expect(screen.contains("2 ◆ Oura Ring Oura Ring Oura Ring…  3 ■ Polar Flow  4 ▲ Withings"),
                "the long name is cut in the legend, ending in an ellipsis")
        // The key goes to rhr as send-keys runs; the clock starts before it, so tmux's own start counts too.
        let start = DispatchTime.now().uptimeNanoseconds
        try tmux.send("q")
        let seconds = Self.secondsUntilGone(pid, since: start)
        #expect(seconds < 0.1, "rhr took \(seconds) s to quit")
        try tmux.waitFor("rhr exited 0", history: true)
    }

    @Test(arguments: [(SIGTERM, "143"), (SIGHUP, "129")])
    func aSignalEndsItWithin100Milliseconds(signal: Int32, status: String) throws {
        let (tmux, pid) = try Self.dashboard()
        defer { tmux.kill() }
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(Glibc.kill(pid, signal) == 0)
        let seconds = Self.secondsUntilGone(pid, since: start)
        #expect(seconds < 0.1, "rhr took \(seconds) s to end on signal \(signal)")
        try tmux.waitFor("rhr exited \(status)", history: true)
    }
}
