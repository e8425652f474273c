import Foundation
import Glibc
import RHRTestSupport
import Testing

/// Hostile names cost nothing, end to end: four writers, one of them named with a megabyte (a HealthKit source
/// name, an HC Webhook `data_origin`: none has a length limit), imported by the real `rhr import` from a file of
/// sync batches; the real dashboard in tmux draws at once and ends on `q`, SIGTERM and SIGHUP. That no frame keeps
/// them waiting is shown by events in `SessionTests`; how fast is a benchmark's question, not a test's.
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

    /// Whether `pid` ends (a zombie has: it runs nothing) within a timeout that only guards against a hang.
    static func ends(_ pid: pid_t) -> Bool {
        eventually(timeout: 10) {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = text.lastIndex(of: ")") else { return true }
            return text[text.index(after: close)...].split(separator: " ").first == "Z"
        }
    }

    @Test func theDashboardDrawsAtOnceAndQuitsOnQ() throws {
        let (tmux, pid) = try Self.dashboard()
        defer { tmux.kill() }
        let screen = tmux.capture()
        // A name no line holds whole asks the legend for no row of its own: it is cut to keep the writers on one.
        #expect(screen.contains("2 ◆ Oura Ring Oura Ring Oura Ring…  3 ■ Polar Flow  4 ▲ Withings"),
                "the long name is cut in the legend, ending in an ellipsis")
        try tmux.send("q")
        #expect(Self.ends(pid), "rhr did not quit on q")
        try tmux.waitFor("rhr exited 0", history: true)
    }

    @Test(arguments: [(SIGTERM, "143"), (SIGHUP, "129")])
    func aSignalEndsIt(signal: Int32, status: String) throws {
        let (tmux, pid) = try Self.dashboard()
        defer { tmux.kill() }
        #expect(Glibc.kill(pid, signal) == 0)
        #expect(Self.ends(pid), "rhr did not end on signal \(signal)")
        try tmux.waitFor("rhr exited \(status)", history: true)
    }
}
