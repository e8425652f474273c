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

/// The run loop: terminal input, feed events and finished loads in; `update`; effects carried out; `render`;
/// blit. Reading the store happens on another thread, so keys are answered while it runs.
@MainActor
public final class DashboardSession {
    private let load: @Sendable () throws -> DashboardData
    private let loader: BackgroundLoader
    private let feed: DashboardFeed?
    private let today: () -> LocalDay

    /// `load` reads the whole store; it runs on a background thread (open a connection of its own there).
    /// `today` is the machine's local day.
    public init(load: @escaping @Sendable () throws -> DashboardData, feed: DashboardFeed? = nil,
                today: @escaping () -> LocalDay = DashboardSession.machineToday) {
        self.load = load
        self.loader = BackgroundLoader(load: load)
        self.feed = feed
        self.today = today
    }

    /// Runs until `q`, Ctrl-C or a signal; the caller opens and closes the terminal. `initial` is drawn at
    /// once (when partial, the whole history follows from `load`); without it, `load` runs first.
    public func run(on terminal: TerminalDevice, initial: DashboardData? = nil) throws -> DashboardExit {
        // Without initial data, read on this thread: there is nothing to show until then anyway.
        let data = try initial ?? load()
        var state = DashboardState(data: data, size: terminal.size, today: today(),
                                   capabilities: terminal.capabilities)
        terminal.draw(DashboardRenderer.render(state, size: state.size))
        if data.isPartial { loader.start(.history) }
        while true {
            let watching = [loader.fileDescriptor] + (feed.map { [$0.fileDescriptor] } ?? [])
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
            case .readable(let fd) where fd == loader.fileDescriptor:
                events = loader.take().map { result, reason in
                    switch result {
                    case .success(let index): return .dataLoaded(index, reason)
                    case .failure(let error): return .loadFailed("\(error)")
                    }
                }
            case .readable:
                events = feed?.receive() ?? []
            }
            for event in events {
                switch DashboardUpdate.update(&state, event) {
                case .quit:
                    return .quit
                case .load(let reason):
                    loader.start(reason)
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
