import Foundation
import RHRCore
import RHRDashboard
import RHRLive
import RHRScreen
import RHRStore
import RHRTestSupport
import Testing

/// What an open dashboard shows is the store as it is now, as a property: random steps (imports by
/// `rhr import` in another process, pushes through a daemon, the daemon stopped and started again, `r`) and after
/// each one the dashboard's state, once it has caught up, equals that of a dashboard opened afresh on the store.
/// The dashboard is `rhr`'s own session (`DashboardSession.reading`) on a real store; the daemon runs in this
/// process, so that it notices other processes' writes within 50 ms. Seeded (`RHR_PROPERTY_SEED` picks another
/// seed): all `steps` steps, within `seconds`, which only guards against a hang.
@Suite("The dashboard's state is the store's, step after step", .serialized)
@MainActor
struct StoreNowPropertyTests {
    static let steps = 30
    static let seconds = 180.0

    enum Step: CustomStringConvertible {
        case importFile(writer: String, day: LocalDay, bpm: Int)
        case push(LocalDay, bpm: Int)
        case stopDaemon
        case startDaemon
        case reload

        var description: String {
            switch self {
            case .importFile(let writer, let day, let bpm): return "rhr import of \(writer) \(day) \(bpm)"
            case .push(let day, let bpm): return "push of \(day) \(bpm)"
            case .stopDaemon: return "daemon stopped"
            case .startDaemon: return "daemon started"
            case .reload: return "r"
            }
        }
    }

    /// The steps a seed makes; pushes and stops only while a daemon runs, starts only while none does.
    static func plan(seed: UInt64) -> [Step] {
        var random = SplitMix64(seed: seed)
        var running = true, steps: [Step] = []
        let writers = ["Withings", "Polar Flow", "Writer 1", "Writer 2", "Writer 3"]
        while steps.count < Self.steps {
            let day = History.lastDay.adding(days: -Int.random(in: 0..<120, using: &random))
            let bpm = Int.random(in: 45...75, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4: steps.append(.importFile(writer: writers.randomElement(using: &random)!, day: day, bpm: bpm))
            case 4..<6 where running: steps.append(.push(day, bpm: bpm))
            case 6 where running: steps.append(.stopDaemon); running = false
            case 6..<8 where !running: steps.append(.startDaemon); running = true
            default: steps.append(.reload)
            }
        }
        return steps
    }

    @Test("imports from another process, pushes, daemon stops and starts, r: each time the store as it is now")
    func dashboardFollowsTheStore() throws {
        let seed = ProcessInfo.processInfo.environment["RHR_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 26
        let sandbox = try RHRSandbox()
        let dir = sandbox.directory
        _ = try History.build(at: dir.storePath)
        var daemon: TestDaemon? = try liveDaemon(dir)
        let feed = DaemonFeed(socketPath: dir.socketPath, storePath: dir.storePath, retrySeconds: 0.05)
        let session = DashboardSession.reading(BackgroundStore(path: dir.storePath, machineZone: utc), source: dir.storePath,
                                               feed: feed, today: { day("2026-03-13") })
        var pushes = 0
        let terminal = StepTerminal(plan: Self.plan(seed: seed), deadline: Date().addingTimeInterval(Self.seconds)) { step in
            switch step {
            case .importFile(let writer, let day, let bpm):
                let file = try sandbox.write("import.json", """
                    {"data":{"metrics":[{"name":"resting_heart_rate","units":"count/min","data":[\
                    {"date":"\(day) 08:00:00 +0100","qty":\(bpm),"source":"\(writer)"}]}]}}
                    """)
                let result = try sandbox.run(["import", "--store", dir.storePath, file])
                guard result.status == 0 else { throw TestFailure("rhr import: \(result.stderr)") }
                // Only a daemon tells the dashboard; without one it shows the store as it was until `r`.
                return daemon != nil
            case .push(let day, let bpm):
                pushes += 1
                try daemon?.push(History.bridge(pushes, asOf: "2026-03-13T09:00:00+01:00",
                                                [History.watchSample(day, Double(bpm), uuid: "P\(pushes)")]))
                return true
            case .stopDaemon:
                try daemon?.stop()
                daemon = nil
                return false
            case .startDaemon:
                daemon = try liveDaemon(dir)
                return true
            case .reload:
                return true
            }
        }
        terminal.observe = { session.state }
        terminal.compare = { state in
            // A dashboard opened now: a connection of its own, opened for this look.
            let fresh = try #require(try HealthDatabase.reading(path: dir.storePath, machineZone: utc))
            guard state.index.revision == (try fresh.revision()), !state.index.data.isPartial else { return false }
            // After `r`, the state its read brought.
            if case .reload? = terminal.step, state.message?.hasPrefix("Reloaded:") != true { return false }
            let index = DashboardIndex(try fullData(fresh))
            expectSame(state.index, index, "seed \(seed), after step \(terminal.done + 1) (\(terminal.step.map { "\($0)" } ?? "")): ")
            return true
        }
        _ = try session.run(on: terminal)
        #expect(terminal.failure == nil, "seed \(seed): \(terminal.failure ?? "")")
        #expect(terminal.done == Self.steps, "seed \(seed): only \(terminal.done) steps in \(Self.seconds) s")
        _ = daemon
    }
}

/// The property's terminal: plays one step, then lets the run loop run (watched descriptors, the feed's idle
/// calls) until the state drawn equals a fresh dashboard's (`compare`), or for a short while when the step is one the
/// dashboard cannot know of; then the next step. `q` at the end, on a failure, or once past the deadline.
@MainActor
final class StepTerminal: TerminalDevice {
    let size = TerminalSize(width: 120, height: 40)
    let capabilities = TerminalCapabilities.full
    var frames = 0
    private var plan: [StoreNowPropertyTests.Step]
    private let deadline: Date
    /// Runs a step; whether the dashboard must then catch up with the store.
    private let perform: (StoreNowPropertyTests.Step) throws -> Bool
    /// Whether the state equals a fresh dashboard's (false: not caught up yet); records what differs.
    var compare: (DashboardState) throws -> Bool = { _ in true }
    private(set) var done = 0
    private(set) var failure: String?
    private var current: (step: StoreNowPropertyTests.Step, catchUp: Bool, until: Date)?
    /// The step the dashboard is catching up with.
    var step: StoreNowPropertyTests.Step? { current?.step }
    /// The session's state as last drawn.
    var observe: () -> DashboardState? = { nil }

    init(plan: [StoreNowPropertyTests.Step], deadline: Date,
         perform: @escaping (StoreNowPropertyTests.Step) throws -> Bool) {
        self.plan = plan
        self.deadline = deadline
        self.perform = perform
    }

    func draw(_ buffer: ScreenBuffer) { frames += 1 }

    func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        if let current {
            if Date() > current.until {
                if current.catchUp { failure = "after \(current.step): not caught up within 10 s" }
                self.current = nil
                done += 1
            } else if current.catchUp, let state = observe(), (try? compare(state)) == true {
                self.current = nil
                done += 1
            } else {
                return wait(watching, timeout: min(Int(timeoutMilliseconds), 50))
            }
        }
        guard failure == nil, Date() < deadline, !plan.isEmpty else { return .key(.character("q")) }
        let step = plan.removeFirst()
        do {
            let catchUp = try perform(step)
            // A step the dashboard cannot hear of gets a moment, in which it must not break.
            current = (step, catchUp, Date().addingTimeInterval(catchUp ? 10 : 0.1))
        } catch {
            failure = "\(step): \(error)"
            return .key(.character("q"))
        }
        if case .reload = step { return .key(.character("r")) }
        return wait(watching, timeout: 50)
    }

    private func wait(_ watching: [Int32], timeout: Int) -> TerminalInput? {
        var fds = watching.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), Int32(timeout)) > 0, let ready = fds.first(where: { $0.revents != 0 }) else {
            return nil
        }
        return .readable(ready.fd)
    }
}
