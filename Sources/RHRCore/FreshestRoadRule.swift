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

    /// The road as it speaks for one writer's day (R12): a phone feed's road (`byDay`), which knows each day as of the
    /// last request that carried it, as of `dayAsOf` (the newest delivery of its rows of that day, in seconds since
    /// the epoch), in its own offset; any other road as of its own `asOf`.
    public func speaking(forDayAsOf dayAsOf: Double?, byDay: Bool) -> Road {
        guard byDay, let dayAsOf else { return self }
        return Road(stream: stream, asOf: Timestamp(epochSeconds: dayAsOf, offsetSeconds: asOf?.offsetSeconds ?? 0),
                    snapshot: false)
    }

    /// R12's one decision, which every reader asks: of the holders of one writer's day (each with its road as it
    /// speaks for the day), the one whose road is freshest; the first of equal ones. Nil without holders.
    public static func deciding<Holder>(_ holders: some Sequence<Holder>, road: (Holder) -> Road) -> Holder? {
        var result: (holder: Holder, road: Road)?
        for h in holders {
            let r = road(h)
            if let found = result, !(found.road < r) { continue }
            result = (h, r)
        }
        return result?.holder
    }

    public var description: String { "\(stream)\(snapshot ? " snapshot" : "") \(AsOfWording.exact(asOf))" }
}
