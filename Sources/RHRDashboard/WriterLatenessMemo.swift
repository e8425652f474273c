import RHRCore
import Synchronization

/// How late each writer's values come (`WriterLateness`), worked out from every road's copies when the detail pane
/// first shows it, and kept for the index's life. A live update starts its index with what this one knew of the
/// writers it did not touch: a push to the watch of ten years does not make the others' lateness worked out again,
/// and the watch's is worked out only if it is shown.
final class WriterLatenessMemo: Sendable {
    private let known: Mutex<[WriterKey: WriterLateness]>

    init(keeping known: [WriterKey: WriterLateness] = [:]) { self.known = Mutex(known) }

    func lateness(of writer: Writer, in samples: [DaySample]) -> WriterLateness {
        if let found = known.withLock({ $0[writer.key] }) { return found }
        let lateness = WriterLateness(writer: writer, values: samples)
        known.withLock { $0[writer.key] = lateness }
        return lateness
    }

    /// What is known, but for the writers in `changed`: for the index a live update makes.
    func keeping(allBut changed: Set<WriterKey>) -> WriterLatenessMemo {
        WriterLatenessMemo(keeping: known.withLock { $0.filter { !changed.contains($0.key) } })
    }
}
