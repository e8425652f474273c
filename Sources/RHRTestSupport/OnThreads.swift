import Foundation

/// Runs `body(0)` … `body(count - 1)` at once, each on a thread of its own (the clients of a load test or a bench);
/// `done` is left when all have ended, for the caller to wait on.
@discardableResult
public func onThreads(_ count: Int, group done: DispatchGroup = DispatchGroup(),
                      _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    for index in 0..<count {
        done.enter()
        Thread {
            defer { done.leave() }
            body(index)
        }.start()
    }
    return done
}
