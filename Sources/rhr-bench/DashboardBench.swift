import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRScreen
import RHRStore
import RHRSystem
import enum RHRTestSupport.SourceTree
import enum RHRTestSupport.Subprocess

// The dashboard benchmark (docs/design.md section 7): on a store with 10 years × 8 writers, with the lines, the
// 7-day mean and the usual range on (the targets: first frame ≤ 100 ms, key press p99 ≤ 5 ms),
// - in process: reading the store, preparing the data, the first render, and key presses (update + render),
//   median and p99 over many presses, at 80×24 and 200×60;
// - end to end: time to the first frame of the real `rhr` under tmux, against tmux showing `echo` output.
//
//   rhr-bench dashboard [--years N] [--presses N] [--runs N] [--dir DIR] [--rhr PATH] [--keep]
//   rhr-bench dashboard store PATH [--years N] [--seed N]     (only builds a store, e.g. to look at it)
enum DashboardBench {
    struct Options {
        var years = 10
        var presses = 3000
        var runs = 5
        var seed: UInt64 = 1
        var dir = "bench-out"
        var rhr: String?
        var keep = false

        init(_ arguments: [String]) throws {
            try BenchArguments.read(arguments, into: &self, [
                "--years": .count(\.years), "--presses": .count(\.presses), "--runs": .count(\.runs), "--seed": .seed(\.seed),
                "--dir": .value(\.dir), "--rhr": .optionalValue(\.rhr), "--keep": .flag(\.keep),
            ])
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The view every measurement draws: braille lines (always), the 7-day mean and the usual range.
    static let aids = ViewSettings(showMean: true, showBand: true)

    static func run(_ arguments: [String]) throws {
        if arguments.first == "store" {
            guard arguments.count >= 2 else { throw BenchError("store needs a path") }
            let options = try Options(Array(arguments.dropFirst(2)))
            let (samples, seconds) = try buildStore(at: arguments[1], options: options)
            print("\(arguments[1]): \(samples) resting samples, \(options.years) years, built in \(format(seconds * 1000)) ms")
            return
        }
        let options = try Options(arguments)
        try FileManager.default.createDirectory(atPath: options.dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = options.dir + "/dashboard-\(options.years)y.sqlite"
        let (samples, buildSeconds) = try buildStore(at: path, options: options)
        defer { if !options.keep { removeStore(path) } }
        print("dashboard: store of \(options.years) years × \(DashboardHistory.writerCount) writers, \(samples) resting samples "
              + "(built in \(format(buildSeconds * 1000)) ms)")

        // In process: what the first frame costs, step by step. As in `rhr`, the first frame is drawn from the
        // recent days; the whole history is read and prepared on a background thread after it.
        let database = try HealthDatabase(path: path)
        let today = DashboardHistory(years: options.years, lastDay: MachineClock.today(), seed: options.seed).lastDay
        var recentTimes: [Double] = []
        for _ in 0..<options.runs {
            let t0 = now()
            guard let data = try DashboardLoader.loadRecent(database, source: path, today: today) else {
                throw BenchError("the generated store has no resting value in its last \(DashboardLoader.recentDays) days")
            }
            var s = DashboardState(data: data, size: TerminalSize(width: 200, height: 60), today: today)
            s.settings = aids
            _ = DashboardRenderer.render(s, size: s.size)
            recentTimes.append(now() - t0)
        }
        print("  lines, 7-day mean and usual range on")
        print("  first frame in process from the last \(DashboardLoader.recentDays) days (median of \(options.runs)): "
              + "\(ms(median(recentTimes))) (target ≤ 100 ms, ratio \(ratio(median(recentTimes), 0.100)))")
        var loadTimes: [Double] = [], prepareTimes: [Double] = [], renderTimes: [Double] = []
        var queryTimes: [String: [Double]] = [:]
        func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            let t = now()
            defer { queryTimes[name, default: []].append(now() - t) }
            return try body()
        }
        var state: DashboardState?
        for _ in 0..<options.runs {
            let t0 = now()
            // As DashboardLoader.load reads, query by query: the contents count the heart rate already read.
            let samples = try timed("samples") { try database.samples() }
            let heartRateDays = try timed("heartRateDays") { try database.heartRateDays() }
            let data = DashboardData(samples: samples,
                                     revisions: try timed("revisions") { try database.revisions() },
                                     heartRateDays: heartRateDays,
                                     contents: try timed("contents") { try database.contents(heartRate: heartRateDays) },
                                     streams: try timed("streams") { try database.streams() },
                                     revision: try database.revision(), source: path)
            let t1 = now()
            var s = DashboardState(data: data, size: TerminalSize(width: 200, height: 60), today: today)
            s.settings = aids
            let t2 = now()
            _ = DashboardRenderer.render(s, size: s.size)
            let t3 = now()
            loadTimes.append(t1 - t0)
            prepareTimes.append(t2 - t1)
            renderTimes.append(t3 - t2)
            state = s
        }
        let first = zip(zip(loadTimes, prepareTimes), renderTimes).map { $0.0 + $0.1 + $1 }
        print("  reading the store (median): " + ["samples", "revisions", "heartRateDays", "contents", "streams"]
            .map { "\($0) \(ms(median(queryTimes[$0] ?? [])))" }.joined(separator: ", "))
        print("  the whole history, in the background after the first frame (median of \(options.runs)): "
              + "read store \(ms(median(loadTimes))), prepare \(ms(median(prepareTimes))), "
              + "render \(ms(median(renderTimes))), total \(ms(median(first)))")

        // Key presses: update + render, a realistic mix, on both sizes.
        let keys: [Key] = [.left, .left, .right, .character("a"), .left, .character("-"), .left, .character("+"),
                           .pageUp, .right, .character("c"), .pageDown, .character("1"), .left, .character("1"),
                           .tab, .down, .tab, .down, .tab, .character("g"), .right, .character("G"), .up,
                           .character("-"), .character("-"), .left, .character("+"), .character("+"), .character("a"),
                           .character("a"), .character("?"), .down, .escape, .character("t"), .right,
                           .character("f"), .left, .character("-"), .character("w"), .left, .character("w"),
                           .character("+"), .character("v"), .down, .escape, .character(">"), .character("<"), .pageUp,
                           .pageDown]
        for size in [TerminalSize(width: 80, height: 24), TerminalSize(width: 200, height: 60)] {
            guard var s = state else { break }
            DashboardUpdate.update(&s, .resize(size))
            var times: [Double] = []
            times.reserveCapacity(options.presses)
            // The slowest press of each step of the mix, to say which key costs the most.
            var slowest = Array(repeating: 0.0, count: keys.count)
            for n in 0..<options.presses {
                let key = keys[n % keys.count]
                let t0 = now()
                DashboardUpdate.update(&s, .key(key))
                let buffer = DashboardRenderer.render(s, size: s.size)
                let t1 = now()
                precondition(buffer.width == size.width)
                times.append(t1 - t0)
                slowest[n % keys.count] = max(slowest[n % keys.count], t1 - t0)
            }
            times.sort()
            print("  key press at \(size): median \(ms(median(times))), p99 \(ms(percentile(times, 0.99))), "
                  + "max \(ms(times.last ?? 0)) over \(options.presses) presses "
                  + "(target ≤ 5 ms, p99 ratio \(ratio(percentile(times, 0.99), 0.005)))")
            let worst = slowest.indices.sorted { slowest[$0] > slowest[$1] }.prefix(3)
            print("    slowest steps of the mix: " + worst.map { "#\($0) \(keys[$0]) \(ms(slowest[$0]))" }.joined(separator: ", "))
        }

        try firstFrameUnderTmux(path: path, options: options)
    }

    // MARK: - End to end under tmux

    static func firstFrameUnderTmux(path: String, options: Options) throws {
        let binary = options.rhr ?? (try? SourceTree.builtProduct("rhr")) ?? "rhr (beside rhr-bench)"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("  first frame under tmux: skipped (no rhr binary at \(binary); build it or pass --rhr PATH)")
            return
        }
        guard let tmux = Subprocess.which("tmux") else {
            print("  first frame under tmux: skipped (tmux is not installed)")
            return
        }
        func firstFrame(_ command: String, until text: String) throws -> Double {
            let session = "s\(UInt32.random(in: 0...UInt32.max))"
            // A server of its own each time: a server whose last session was killed exits, and a new session
            // started on its socket meanwhile would fail.
            let socket = options.dir + "/tmux-\(getpid())-\(session).sock"
            let start = now()
            // Through Subprocess.status: the tmux server it starts keeps nothing of this process's.
            guard (try? Subprocess.status(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                                                 "-x", "200", "-y", "60", command])) == 0 else {
                throw BenchError("tmux new-session failed")
            }
            defer {
                _ = try? Subprocess.status(tmux, ["-S", socket, "kill-server"])
                try? FileManager.default.removeItem(atPath: socket)
            }
            let deadline = start + 10
            while now() < deadline {
                let screen = try? Subprocess.run(tmux, ["-S", socket, "capture-pane", "-p", "-t", session])
                if screen?.stdout.contains(text) == true { return now() - start }
            }
            throw BenchError("no \"\(text)\" on screen within 10 s")
        }
        // The store's kept view turns the aids on, in settings directories of the bench's own.
        let settings = PathText.join(PathText.join(FileManager.default.currentDirectoryPath, options.dir), "settings-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: settings) }
        let environment = ["XDG_STATE_HOME": settings + "/state", "XDG_CONFIG_HOME": settings + "/config"]
        try DashboardFiles.saveViewState(aids, store: DashboardFiles.storeKey(path), environment: environment)
        // Warm the tmux server and the file cache once.
        _ = try? firstFrame("echo warm; sleep 30", until: "warm")
        var baseline: [Double] = [], dashboard: [Double] = []
        for _ in 0..<options.runs {
            baseline.append(try firstFrame("echo ready; sleep 30", until: "ready"))
            dashboard.append(try firstFrame("LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME='\(settings)/state' "
                                            + "XDG_CONFIG_HOME='\(settings)/config' \(binary) --store \(path)",
                                            until: "7-day mean"))
        }
        let b = median(baseline), d = median(dashboard)
        print("  first frame under tmux (median of \(options.runs)): \(ms(d)); tmux showing `echo`: \(ms(b)); "
              + "rhr's own share \(ms(max(0, d - b))) (target ≤ 100 ms, ratio \(ratio(max(0, d - b), 0.100)))")
    }

    // MARK: - The store

    static func buildStore(at path: String, options: Options) throws -> (samples: Int, seconds: Double) {
        removeStore(path)
        let start = now()
        let history = DashboardHistory(years: options.years, lastDay: MachineClock.today(), seed: options.seed)
        let batches = history.batches()
        let database = try HealthDatabase(path: path)
        _ = try database.apply(batches)
        return (try database.samples().count, now() - start)
    }

    static func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    // MARK: - Figures

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    /// `sorted` must be sorted.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let i = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return sorted[i]
    }

    static func ms(_ seconds: Double) -> String { format(seconds * 1000) + " ms" }
    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
    static func ratio(_ measured: Double, _ target: Double) -> String { String(format: "%.2f", measured / target) }
}
