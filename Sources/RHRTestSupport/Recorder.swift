import Synchronization

/// What several threads hand over (a reader's progress calls, a daemon's log lines, acknowledged pushes), in
/// the order they arrived.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    public func append(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    public var all: [Element] { items.withLock { $0 } }
}

/// A count several threads add to.
public final class Counter: Sendable {
    private let value = Mutex(0)

    public init() {}

    /// Adds one; returns the new count.
    @discardableResult
    public func add() -> Int { value.withLock { $0 += 1; return $0 } }

    public var count: Int { value.withLock { $0 } }
}

/// A reader's progress calls: (bytes done, bytes in all).
public typealias ProgressLog = Recorder<(Int64, Int64)>
