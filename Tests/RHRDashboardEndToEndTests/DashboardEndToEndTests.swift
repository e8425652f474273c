import Foundation
import RHRStore
import RHRTestSupport
import Testing

/// The real `rhr` in tmux, as a person would use it. Serialized: each starts its own tmux server and rhr,
/// and the machine is small.
@Suite("End to end: rhr's dashboard in tmux", .serialized)
struct DashboardEndToEndTests {
    static let chart = "Resting heart rate, bpm"

    /// `keys` end rhr: it exits 0, the terminal is restored, and rhr printed nothing of its own.
    func expectQuits(_ tmux: Tmux, after keys: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try tmux.send(keys)
        try tmux.waitFor("rhr exited 0", history: true)
        expectTerminalRestored(try tmux.waitFor("icanon"))
        tmux.expectNothingStray(sourceLocation: sourceLocation)
    }

    /// The words of `stty -a` the wrapper printed after rhr: canonical mode and echo must be back.
    func expectTerminalRestored(_ screen: String) {
        let modes = screen.split(separator: "\n").last { $0.contains("icanon") }.map(String.init) ?? ""
        #expect(modes.split(separator: " ").contains("icanon"), "canonical mode not restored: \(modes)")
        #expect(modes.split(separator: " ").contains("echo"), "echo not restored: \(modes)")
        #expect(!screen.contains(Self.chart), "the dashboard is still on the screen")
    }

    @Test("The first screen: header with currency and aggregation, chart, legend, columns on the last day")
    func firstScreen() throws {
        let tmux = try dashboardOnRestingStore()
        // The last 400 days come first; the whole history follows from a background read.
        // All of it in one capture (a capture can catch a frame half drawn); one missing for 20 s fails the test.
        // The batches say 21:00 +01:00; the header reads them in the machine's clock (TZ=UTC).
        try tmux.waitForAll("rhr   resting heart rate  12 Jan – 12 Mar 2026", Self.chart, "one value per day: latest",
                            "Health Connect as of 12 Mar 20:00 +00:00  ·  HealthKit as of 12 Mar 20:00 +00:00",
                            "Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch",
                            "provisional: Apple may still replace this estimate", "▸Thu 12 Mar 2026")
    }

    @Test("a cycles the aggregation and the header follows")
    func aggregation() throws {
        let tmux = try dashboardOnRestingStore()
        try tmux.send("a")
        try tmux.waitFor("one value per day: lowest")
        try tmux.send("a")
        try tmux.waitForAll("one value per day: mean", "▸Thu 12 Mar 2026")
    }

    @Test("? shows the help with the wellness note; Esc goes back")
    func help() throws {
        let tmux = try dashboardOnRestingStore()
        try tmux.send("?")
        try tmux.waitForAll("It is not medical advice.", " Keys", "one value per day: latest → lowest → mean")
        try tmux.send("Escape")
        try tmux.waitFor(Self.chart)
    }

    @Test("Resized below 60×16 it says so and the size it needs; back to size, the dashboard returns")
    func resize() throws {
        let tmux = try dashboardOnRestingStore()
        try tmux.resize(width: 59, height: 15)
        try tmux.waitForAll("Terminal too small", "59×15: rhr needs at least 60×16.")
        try tmux.resize(width: 100, height: 30)
        try tmux.waitUntil("the chart, and no word of a small terminal") {
            $0.contains(Self.chart) && !$0.contains("Terminal too small")
        }
    }

    @Test("q quits: the process exits 0 and the terminal is restored, also from the too-small screen")
    func quit() throws {
        let tmux = try dashboardOnRestingStore()
        try tmux.resize(width: 50, height: 12)
        try tmux.waitFor("too small")
        try expectQuits(tmux, after: "q")
    }

    @Test("Ctrl-C quits and restores the terminal")
    func controlC() throws {
        let tmux = try dashboardOnRestingStore()
        try expectQuits(tmux, after: "C-c")
    }

    @Test("SIGTERM ends it with status 143 and a restored terminal; a crash (SIGSEGV) restores it too")
    func signals() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let path = dir.storePath
        try StoreFixture.resting(at: path)
        for (signal, status) in [(SIGTERM, "143"), (SIGSEGV, "139")] {
            let pidFile = dir.path + "/pid-\(signal)"
            // The Swift backtracer, which the crash handler hands the signal to, asks on a terminal; not here.
            let tmux = try Tmux.rhr("--store '\(path)'", pidFile: pidFile, environment: "SWIFT_BACKTRACE=interactive=no")
            try tmux.waitFor(Self.chart)
            let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let pid = pid_t(text) else { throw TestFailure("no pid in \(pidFile): \(text)") }
            #expect(Glibc.kill(pid, signal) == 0)
            try tmux.waitFor("rhr exited \(status)", history: true)
            expectTerminalRestored(try tmux.waitFor("icanon"))
            if signal == SIGSEGV {
                // The Swift backtracer's report came out on the restored terminal, readable.
                #expect(tmux.capture(history: true).contains("Program crashed"))
            }
        }
    }

    @Test("NO_COLOR and a non-UTF-8 locale: plain ASCII, no colours, still readable")
    func plainRendering() throws {
        let tmux = try dashboardOnRestingStore(environment: "LANG=C NO_COLOR=1")
        let screen = try tmux.waitForAll("12 Jan - 12 Mar 2026", "Health Connect: 1 Oura  HealthKit: 2 Jane's Apple Watch",
                                         "2 provisional: Apple may still replace this estimate", ">Thu 12 Mar 2026")
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
        // Colours are SGR 30–37, 40–47, 90–97, 100–107 and 38;5/48;5; 39 and 49 only reset to the default.
        let styled = tmux.capture(escapes: true)
        let colours = styled.split(separator: "\u{1B}").compactMap { sequence -> [Int]? in
            guard sequence.hasPrefix("["), let end = sequence.firstIndex(of: "m") else { return nil }
            return sequence[sequence.index(after: sequence.startIndex)..<end].split(separator: ";").compactMap { Int($0) }
        }.filter { codes in codes.contains { (30...37).contains($0) || (40...47).contains($0) || (90...107).contains($0)
            || $0 == 38 || $0 == 48 } }
        #expect(colours.isEmpty, "colour on screen despite NO_COLOR: \(colours.prefix(3))")
        #expect(styled.contains("\u{1B}[1m"), "bold still marks titles")
    }

    @Test("An empty store shows how to import or connect, never an empty chart")
    func emptyState() throws {
        let dir = try TemporaryDirectory()
        // An empty store made as an import makes it: the dashboard only reads, and makes no store (section 8).
        _ = try HealthDatabase(path: dir.storePath)
        let tmux = try Tmux.rhr("--store '\(dir.storePath)'", directory: dir)
        let screen = try tmux.waitForAll("No resting heart rate here yet.", "rhr import export.zip", "rhr demo")
        #expect(!screen.contains(Self.chart))
    }

    @Test("rhr PATH with heart rate but no resting writer explains it in words (R9)")
    func heartRateOnlyFile() throws {
        let file = SourceTree.samples + "/health-connect/heart-rate-only.zip"
        let tmux = try Tmux.rhr("'\(file)'")
        let screen = try tmux.waitForAll("No resting heart rate to show.", "heart-rate samples", "does not derive resting heart rate")
        #expect(!screen.contains(Self.chart))
    }

    @Test("rhr demo opens the dashboard on the bundled samples")
    func demo() throws {
        let tmux = try Tmux.rhr("demo")
        // Both, in one capture: a capture can catch a frame half drawn.
        let screen = try tmux.waitUntil("the demo's chart and cursor row") {
            $0.contains(Self.chart) && $0.contains("▸Sat 21 Mar 2026")
        }
        #expect(screen.contains("Jane’s Apple Watch"))
    }

    @Test("The terminal hangs up under it (tmux killed): rhr demo still removes its temporary store")
    func hangUp() throws {
        // The loop can see the hang-up on stdin before the kernel's SIGHUP lands; that SIGHUP must not end rhr
        // before it removes its temporary store, a copy of health data. The order is a race: a few rounds.
        let scratch = try TemporaryDirectory()
        for round in 1...5 {
            let tmux = try Tmux.rhr("demo", environment: "TMPDIR='\(scratch.path)'")
            try tmux.waitFor("▸Sat 21 Mar 2026")
            tmux.kill()
            guard eventually(every: 0.02, { scratch.entries().isEmpty }) else {
                throw TestFailure("round \(round): rhr left \(scratch.entries()) in its TMPDIR")
            }
        }
    }

    @Test("With stdout not a terminal, rhr prints the plain summary and no escape sequences")
    func notATerminal() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        try StoreFixture.resting(at: dir.storePath)
        let result = try Subprocess.run(try Binary.rhr(), ["--store", dir.storePath],
                                        environment: ["TZ": "UTC", "LANG": "C.UTF-8", "TERM": "xterm-256color"])
        let text = result.stdout
        #expect(result.status == 0)
        #expect(text.contains("Jane’s Apple Watch"))
        #expect(text.contains("2026-03-12"))
        #expect(!text.contains("\u{1B}["))
    }
}

/// The dashboard following a real `rhr daemon` on the same store: pushes show at once with their mark, and
/// when the daemon stops the dashboard says so and goes on.
@Suite("End to end: the live dashboard in tmux", .serialized)
struct LiveDashboardEndToEndTests {
    /// A bridge's batch: the watch's estimate for 13 Mar, the day after the store's last.
    static let batch = #"{"store":"healthkit","stream":"bridge","asOf":"2026-03-13T08:00:00+01:00","cursor":{"previous":null,"next":"b1"},"upserted":[{"type":"restingHeartRate","uuid":"E2E-1","start":"2026-03-13T00:02:00+01:00","end":"2026-03-13T07:30:00+01:00","value":47,"unit":"count/min","source":{"name":"Jane’s Apple Watch","productType":"Watch7,1"}}],"deleted":[]}"#

    @Test("A push shows with its ↻ mark; SIGTERM to the daemon: 'daemon stopped', keys still work, q restores the terminal")
    func liveDashboard() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        let store = dir.storePath, socket = dir.socketPath, pidFile = dir.file("daemon.pid")
        try StoreFixture.resting(at: store)
        let rhr = try Binary.rhr()
        let daemon = "sh -c \"echo \\$\\$ > '\(pidFile)'; exec env TZ=UTC '\(rhr)' daemon --store '\(store)' --socket '\(socket)'\""
        let tmux = try Tmux(width: 100, height: 30, command: daemon)
        defer { tmux.kill(); _ = dir }
        guard eventually(timeout: 20, every: 0.02, { FileManager.default.fileExists(atPath: socket) }) else {
            throw TestFailure("the daemon did not start: \(tmux.capture())")
        }
        try tmux.newWindow(command: try Binary.dashboard("--store '\(store)' --socket '\(socket)'", settings: dir))
        try tmux.waitUntil("the cursor row, and the header saying live") {
            $0.contains("▸Thu 12 Mar 2026") && $0.split(separator: "\n").dropFirst().first?.hasSuffix(" live") == true
        }

        let batchFile = dir.path + "/batch.jsonl"
        try (Self.batch + "\n").write(toFile: batchFile, atomically: true, encoding: .utf8)
        #expect(try Subprocess.run(rhr, ["push", "--socket", socket, batchFile]).status == 0)
        // The cursor was on the most recent day, so it follows the new one; the day is marked.
        // (Each wait asks for all it checks in one capture: a capture can catch a frame half drawn.)
        try tmux.waitUntil("the pushed day, marked, with its value") {
            $0.contains(#/▸Fri 13 Mar 2026↻ +47/#) && $0.contains("Updated: 13 Mar.")
        }

        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text) else { throw TestFailure("no pid in \(pidFile): \(text)") }
        #expect(Glibc.kill(pid, SIGTERM) == 0)
        try tmux.waitUntil("'daemon stopped' in the header and the footer") {
            $0.split(separator: "\n").dropFirst().first?.contains("daemon stopped") == true
                && $0.contains("The daemon stopped: no more live updates.")
        }
        try tmux.send("Left")
        // The dashboard goes on: the cursor moves, a key clears the marks, the header still says it.
        try tmux.waitUntil("the cursor moved, the marks gone") {
            $0.contains("▸Thu 12 Mar 2026") && !$0.contains("↻") && $0.contains("daemon stopped")
        }
        try tmux.send("q")
        try tmux.waitFor("rhr exited 0", history: true)
        let modes = try tmux.waitFor("icanon")
        let words = modes.split(separator: "\n").last { $0.contains("icanon") }.map { $0.split(separator: " ") } ?? []
        #expect(words.contains("icanon") && words.contains("echo"), "terminal not restored: \(words)")
        tmux.expectNothingStray()
    }
}
