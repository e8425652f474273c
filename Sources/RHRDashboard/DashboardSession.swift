import Foundation
import RHRCore
import RHRTerminal

/// A source of store-change events, e.g. a daemon subscription: the run loop watches its file descriptor and
/// asks it for events when it becomes readable. The seam for live updates.
@MainActor
public protocol DashboardFeed: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Reads what arrived; typically `.storeChanged(revision:days:)` events.
    func receive() -> [DashboardEvent]
}

/// How a session ended.
public enum DashboardExit: Sendable, Equatable {
    case quit
    case signal(TerminalSignal)
}

/// The run loop: terminal input and feed events in, `update`, effects carried out, `render`, blit.
@MainActor
public final class DashboardSession {
    private let load: () throws -> DashboardData
    private let feed: DashboardFeed?
    private let today: () -> LocalDay

    /// `load` reads the store (at start, on `r`, on a store change); `today` is the machine's local day.
    public init(load: @escaping () throws -> DashboardData, feed: DashboardFeed? = nil,
                today: @escaping () -> LocalDay = DashboardSession.machineToday) {
        self.load = load
        self.feed = feed
        self.today = today
    }

    /// Runs until `q`, Ctrl-C or a signal. The caller opens and closes the terminal.
    public func run(on terminal: TerminalDevice, initial: DashboardData? = nil) throws -> DashboardExit {
        let data = try initial ?? load()
        var state = DashboardState(data: data, size: terminal.size, today: today(),
                                   capabilities: terminal.capabilities)
        terminal.draw(DashboardRenderer.render(state, size: state.size))
        while true {
            let watching = feed.map { [$0.fileDescriptor] } ?? []
            let input = terminal.nextInput(timeoutMilliseconds: 30_000, watching: watching)
            var events: [DashboardEvent] = []
            switch input {
            case nil:
                events = [.tick(today: today())]
            case .key(let key):
                events = [.key(key)]
            case .resize(let size):
                events = [.resize(size)]
            case .signal(let signal):
                return .signal(signal)
            case .readable:
                events = feed?.receive() ?? []
            }
            for event in events {
                switch DashboardUpdate.update(&state, event) {
                case .quit:
                    return .quit
                case .reload(let days):
                    do {
                        DashboardUpdate.update(&state, .dataLoaded(try load(), changedDays: days))
                    } catch {
                        DashboardUpdate.update(&state, .loadFailed("\(error)"))
                    }
                case nil:
                    break
                }
            }
            terminal.draw(DashboardRenderer.render(state, size: state.size))
        }
    }

    /// The machine's local day now.
    public nonisolated static func machineToday() -> LocalDay {
        let now = Date()
        return LocalDay(epochSeconds: now.timeIntervalSince1970, offsetSeconds: TimeZone.current.secondsFromGMT(for: now))
    }
}
