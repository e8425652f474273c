import Foundation
import RHRCore

/// Everything the dashboard shows, as one plain value read from the store in one go. The dashboard never
/// reads the store itself: a loader builds this, and `r` or a live update asks for a fresh one.
public struct DashboardData: Sendable {
    /// Every resting sample with its local day and flags (R3, R5, R6).
    public var samples: [DaySample]
    /// Deleted and replaced values (R4), for the detail pane.
    public var revisions: [RevisionEntry]
    /// Heart-rate summaries per writer and day: the sedentary context series (R8).
    public var heartRateDays: [HeartRateDaySummary]
    /// What each store holds (R9).
    public var contents: [StoreContents]
    /// The roads data came by: "HealthKit as of 12 Mar 21:00" and the permission limits (R10).
    public var streams: [StreamState]
    /// The store's revision when this was read.
    public var revision: Int64
    /// Where the data lives, in words: a store path, "a temporary store of 2 files", "the bundled samples".
    public var source: String
    /// The machine's zone, assumed for Health Connect values without an offset (R5).
    public var machineZone: TimeZone
    /// Only the most recent days, read first so the first frame comes quickly; the rest is on its way.
    public var isPartial: Bool
    /// Each resting writer's lasting number (its key 1–9, glyph and colour), as the store keeps it; empty: numbered
    /// by place.
    public var writerNumbers: [WriterKey: Int]

    /// R14: how many records the store keeps passed over (the header counts them; `rhr status` lists them).
    public var passedOver: Int
    /// R2: the raw spellings of each writer's name that were folded into it, for the detail pane.
    public var writerSpellings: [WriterKey: [String]]
    /// The writers the store marks as an Apple Watch (R3), whose derivation is Apple's (R15).
    public var watchWriters: Set<WriterKey>

    public init(samples: [DaySample] = [], revisions: [RevisionEntry] = [], heartRateDays: [HeartRateDaySummary] = [],
                contents: [StoreContents] = [], streams: [StreamState] = [], revision: Int64 = 0, source: String = "",
                machineZone: TimeZone = .current, isPartial: Bool = false, writerNumbers: [WriterKey: Int] = [:],
                passedOver: Int = 0, writerSpellings: [WriterKey: [String]] = [:], watchWriters: Set<WriterKey> = []) {
        self.samples = samples
        self.revisions = revisions
        self.heartRateDays = heartRateDays
        self.contents = contents
        self.streams = streams
        self.revision = revision
        self.source = source
        self.machineZone = machineZone
        self.isPartial = isPartial
        self.writerNumbers = writerNumbers
        self.passedOver = passedOver
        self.writerSpellings = writerSpellings
        self.watchWriters = watchWriters
    }
}
