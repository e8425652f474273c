/// R12: one truth per store, writer and local day, whatever the road. A value can reach rhr by several roads (an
/// Apple export, a live bridge, Health Auto Export, an HTTP feed); each road keeps what it currently says, and for
/// one writer's day the road whose knowledge is freshest decides which samples stand. The others' samples of that
/// writer and day are superseded: out of every aggregate, kept in the revision history.

/// One road's knowledge, as a sample carries it: a live stream (its state after its own batches, read at its
/// newest `asOf`), or one snapshot an export file brought (read at its `ExportDate`). Two snapshots of one stream
/// are two roads: an older export imported late decides only the writer-days no fresher road holds.
public struct Road: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The stream's name: `bridge-iphone`, `apple-health-export`, …
    public var stream: String
    /// When the road's knowledge was read (R3); nil when unknown, which counts as oldest.
    public var asOf: Timestamp?
    /// One snapshot of an export stream, rather than a live stream's running state.
    public var snapshot: Bool

    public init(stream: String, asOf: Timestamp?, snapshot: Bool) {
        self.stream = stream
        self.asOf = asOf
        self.snapshot = snapshot
    }

    /// Freshness, the one order R12 decides by: the newer `asOf` is fresher. Roads read at the same instant are
    /// told apart by what they are, never by the order they were imported in: the stream's name (earlier in the
    /// alphabet is fresher), then a live stream before a snapshot.
    public static func < (a: Road, b: Road) -> Bool {
        let ta = a.asOf?.epochSeconds ?? -.infinity, tb = b.asOf?.epochSeconds ?? -.infinity
        if ta != tb { return ta < tb }
        if a.stream != b.stream { return a.stream > b.stream }
        return a.snapshot && !b.snapshot
    }

    public var description: String { "\(stream)\(snapshot ? " snapshot" : "") as of \(asOf?.iso8601 ?? "never")" }
}
