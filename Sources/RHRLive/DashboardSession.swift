import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import RHRSystem

/// How a session ended.
public enum DashboardExit: Sendable, Equatable {
    case quit
    case signal(TerminalSignal)
}

/// The run loop: terminal input, feed events and finished loads in; `update`; effects carried out; `render`;
/// blit. Reading the store and rendering happen on other threads, so keys and signals are answered while they
/// run (`BackgroundLoader`, `BackgroundRenderer`).
@MainActor
public final class DashboardSession {
    private let load: @Sendable () throws -> DashboardData
    private let loader: BackgroundLoader
    private let renderer: BackgroundRenderer
    private let feed: DashboardFeed?
    private let today: () -> LocalDay
    /// How the store was looked at when the last run ended (to keep for the next one).
    public private(set) var finalSettings: ViewSettings?
    /// The state last drawn: what the screen shows.
    public private(set) var state: DashboardState?

    /// `load` reads the whole store; `loadDays`, when given, reads some days of it for a live update (else a
    /// live update reads everything). Both run on a background thread (open a connection of their own there).
    /// `today` is the machine's local day. `render` makes a frame of a state (tests give a slow one).
    public init(load: @escaping @Sendable () throws -> DashboardData,
                loadDays: (@Sendable (Set<LocalDay>) throws -> DashboardDelta)? = nil,
                feed: DashboardFeed? = nil,
                today: @escaping () -> LocalDay = { MachineClock.today() },
                render: @escaping @Sendable (DashboardState) -> ScreenBuffer = { DashboardRenderer.render($0, size: $0.size) }) {
        self.load = load
        self.loader = BackgroundLoader(load: load, loadDays: loadDays)
        self.renderer = BackgroundRenderer(render: render)
        self.feed = feed
        self.today = today
    }

    /// Runs until `q`, Ctrl-C or a signal; the caller opens and closes the terminal. `initial` is drawn at
    /// once (when partial, the whole history follows from `load`); without it, `load` runs first. `settings`:
    /// the view to open with (a store's kept state); `mouse`: whether clicks and the wheel count;
    /// `importFailures`: the files `rhr FILE...` could not import, said on screen; `temporaryStore`: the store is made
    /// for this run (`rhr demo`), which no daemon can serve (`LiveStatus.temporary`). The view at the end is left in
    /// `finalSettings`.
    public func run(on terminal: TerminalDevice, initial: DashboardData? = nil, settings: ViewSettings? = nil,
                    mouse: Bool = true, importFailures: [ImportFailure] = [],
                    temporaryStore: Bool = false) throws -> DashboardExit {
        // Without initial data, read on this thread: there is nothing to show until then anyway.
        let data = try initial ?? load()
        var state = DashboardState(data: data, size: terminal.size, today: today(),
                                   capabilities: terminal.capabilities)
        if let settings { state.settings = settings }
        state.mouse = mouse
        state.importFailures = importFailures
        if temporaryStore { state.live = .temporary }
        defer { finalSettings = state.settings }
        loader.setBase(state.index)
        if data.isPartial { loader.start(.history) }
        if let effect = apply(feed?.start() ?? [], to: &state), effect == .quit { return .quit }
        show(state, on: terminal)
        var lastIdle = Self.milliseconds()
        while true {
            var watching = [loader.fileDescriptor, renderer.fileDescriptor]
            if let fd = feed?.fileDescriptor { watching.append(fd) }
            let interval = feed?.idleInterval
            let input = terminal.nextInput(timeoutMilliseconds: min(30_000, interval ?? 30_000), watching: watching)
            var events: [DashboardEvent] = []
            switch input {
            case nil:
                events = [.tick(today: today())]
            case .key(let key):
                events = [.key(key)]
            case .mouse(let event):
                events = [.mouse(event)]
            case .resize(let size):
                events = [.resize(size)]
            case .signal(let signal):
                return .signal(signal)
            case .readable(let fd) where fd == renderer.fileDescriptor:
                // A frame that took longer than the loop waited: drawn now; the state has not changed for it.
                if let frame = renderer.take() { terminal.draw(frame) }
                continue
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
            // On a timeout (which is the interval when the feed has one), and on any wake-up once it has passed.
            if let feed, let interval, input == nil || Self.milliseconds() - lastIdle >= Int64(interval) {
                lastIdle = Self.milliseconds()
                events += feed.idle()
            }
            if apply(events, to: &state) == .quit { return .quit }
            show(state, on: terminal)
        }
    }

    /// Has `state` rendered on another thread and draws the frame, waiting for it only while no key or signal
    /// waits: a frame still being made when one does is drawn when it comes (`.readable` above).
    private func show(_ state: DashboardState, on terminal: TerminalDevice) {
        self.state = state
        renderer.request(state)
        if let frame = renderer.awaitFrame(milliseconds: BackgroundRenderer.frameWaitMilliseconds, input: terminal.inputDescriptors) {
            terminal.draw(frame)
        }
    }

    /// Updates the state with each event and starts the loads they ask for; `.quit` when one says so.
    private func apply(_ events: [DashboardEvent], to state: inout DashboardState) -> DashboardEffect? {
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
        return nil
    }

    private static func milliseconds() -> Int64 {
        Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
    }
}
