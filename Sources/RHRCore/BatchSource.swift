// Batches handed over one at a time: what the store applies in one transaction, read as they are asked for.

/// Batches handed over one at a time, each read when it is asked for: a file of sync batches is streamed into one
/// transaction this way, so an import holds one batch at a time whatever the file's size (docs/design.md section 8).
/// Used on one thread at a time.
public protocol BatchSource: AnyObject {
    /// The next batch; nil at the end. What fails names its place in the input.
    func nextBatch() throws -> SyncBatch?
    /// Where the batch handed over last came from ("line 3", "batch 2"), for a refusal of it; nil when saying it would
    /// tell nothing (a single batch).
    var place: String? { get }
}

/// Batches already in memory, as a source.
public final class BatchList: BatchSource {
    private let batches: [SyncBatch]
    private var index = 0

    public init(_ batches: [SyncBatch]) { self.batches = batches }

    public func nextBatch() -> SyncBatch? {
        guard index < batches.count else { return nil }
        index += 1
        return batches[index - 1]
    }

    public var place: String? { batches.count > 1 && index > 0 ? "batch \(index)" : nil }
}
