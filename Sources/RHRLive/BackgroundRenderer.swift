import Dispatch
import Glibc
import RHRDashboard
import RHRScreen
import RHRSystem
import Synchronization

/// Renders frames off the run loop's thread, so that no frame, however long it takes, keeps a key or a signal
/// waiting (`q`, SIGTERM and SIGHUP are answered within 100 ms whatever is being drawn). The loop
/// hands over each state it wants on screen and waits for the frame while no input waits; a frame that takes
/// longer is drawn when it comes, and the loop answers keys meanwhile. One render at a time: a state handed over
/// while one runs replaces any still waiting, so the next frame is of the newest state.
final class BackgroundRenderer: Sendable {
    typealias Render = @Sendable (DashboardState) -> ScreenBuffer

    /// How long the loop waits for a frame when nothing else comes: frames take milliseconds; this bounds only how
    /// long a frame that does not slows the loaders' and the feed's wake-ups (keys and signals never wait).
    static let frameWaitMilliseconds: Int32 = 1000

    private struct State {
        var running = false
        var pending: DashboardState?
    }

    private let render: Render
    private let state = Mutex(State())
    private let finished: WakeupMailbox<ScreenBuffer>

    init(render: @escaping Render) {
        self.render = render
        finished = .forRunLoop("renderer")
    }

    /// Readable when a frame is ready.
    var fileDescriptor: Int32 { finished.fileDescriptor }

    /// Renders `drawn` as soon as the render before it (if any) is done.
    func request(_ drawn: DashboardState) {
        let idle = state.withLock { state in
            if state.running {
                state.pending = drawn
                return false
            }
            state.running = true
            return true
        }
        if idle { run(drawn) }
    }

    /// The newest frame finished since the last call.
    func take() -> ScreenBuffer? {
        finished.take().messages.last
    }

    /// Waits up to `milliseconds` for a frame, returning early (nil) when one of `input` becomes readable.
    func awaitFrame(milliseconds: Int32, input: [Int32]) -> ScreenBuffer? {
        var fds = ([fileDescriptor] + input).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), milliseconds) > 0, fds[0].revents != 0 else { return nil }
        return take()
    }

    private func run(_ drawn: DashboardState) {
        DispatchQueue.global(qos: .userInteractive).async { [self] in
            var next: DashboardState? = drawn
            while let current = next {
                finished.post(render(current))
                next = state.withLock { state in
                    defer { state.pending = nil }
                    state.running = state.pending != nil
                    return state.pending
                }
            }
        }
    }
}
