/// Everything flows through one type: readers produce it, the daemon receives it, the store applies it
/// atomically (docs/design.md section 4).
public struct SyncBatch: Sendable, Hashable {
    /// Cursors are opaque strings kept per (store, stream).
    public struct Cursor: Sendable, Hashable {
        public var previous: String?
        public var next: String?
        public init(previous: String?, next: String?) {
            self.previous = previous
            self.next = next
        }
    }

    /// An export file is a snapshot (R4): one road of its own (R12), read at the batch's `asOf`. Within its stream,
    /// what it says about `from…to` replaces what older snapshots of the stream said there, whichever was imported
    /// first: an older export imported late still speaks for what no newer one covers, and its differing values
    /// go to the history.
    public struct Snapshot: Sendable, Hashable {
        /// The instants the export covers; nil means unbounded on that side.
        public var from: Timestamp?
        public var to: Timestamp?
        /// What it is a snapshot of: resting samples, heart-rate summaries, or both. A Health Auto Export file
        /// without a resting metric says nothing about resting values, so replaces none.
        public var coversResting: Bool
        public var coversHeartRate: Bool

        public init(from: Timestamp? = nil, to: Timestamp? = nil, coversResting: Bool = true, coversHeartRate: Bool = true) {
            self.from = from
            self.to = to
            self.coversResting = coversResting
            self.coversHeartRate = coversHeartRate
        }
    }

    /// How a phone feed's request speaks (docs/design.md section 4b, R12). Its stream's live road knows each day as
    /// of the last request that carried it, not as of its newest request: a request that carries some days (or heart
    /// rate only) makes no other day of the road fresher, so it cannot push another road's newer word aside.
    public enum DayFeed: Sendable, Hashable {
        /// Health Auto Export: for each writer and local day its resting points fall on they replace what the road
        /// held, and for each writer's day it carries heart rate for its summaries replace the road's; other days, and
        /// other writers' days, keep theirs.
        case replacesDays
        /// HC Webhook: its records are added or updated by identity; nothing is removed.
        case addsRecords
    }

    public var store: HealthStore
    /// The road the batch came by: a bridge's stream name, `apple-health-export`, `health-connect-export`, …
    public var stream: String
    /// When the data was read (R3): the batch's `asOf`, or an export's `ExportDate`.
    public var asOf: Timestamp
    public var cursor: Cursor?
    /// Replaces everything this stream delivered before.
    public var fullResync: Bool
    public var snapshot: Snapshot?
    /// A phone feed's request; nil for a bridge's batch or an export.
    public var dayFeed: DayFeed?
    public var resting: [RestingSample]
    public var heartRate: [HeartRateDaySummary]
    /// HealthKit sample UUIDs or Health Connect record ids, as sent.
    public var deleted: [String]
    /// Health Connect permissions the feed holds (R10), when it says.
    public var grantedPermissions: [String]?
    /// Writers the reader knows to be an Apple Watch (R3) from records other than the resting ones,
    /// e.g. an export whose heart-rate records from the same source carry a device with `model:Watch`.
    public var watchWriters: Set<String>
    /// Where the batch came from, for the revision history: "export of 14 Mar", a file name, a bridge.
    public var origin: String
    /// R14: the records its reader could not use, kept in the store raw with the batch.
    public var passedOver: PassedOverLog
    /// R2: by writer name (`WriterNameRule.canonical`), the other raw spellings the input wrote it with.
    public var writerSpellings: [String: [String]]
    /// A Health Connect export's own app priority for vitals (`AppPriority`), package names in order; nil when the
    /// input says nothing of it.
    public var appPriority: [String]?
    /// The file it came in, when it came in one: of snapshots of one instant, the one made later decides (R12).
    public var file: DeliveredFile?

    public init(store: HealthStore, stream: String, asOf: Timestamp, cursor: Cursor? = nil, fullResync: Bool = false,
                snapshot: Snapshot? = nil, resting: [RestingSample] = [], heartRate: [HeartRateDaySummary] = [],
                deleted: [String] = [], grantedPermissions: [String]? = nil, watchWriters: Set<String> = [],
                origin: String = "", dayFeed: DayFeed? = nil, passedOver: PassedOverLog = PassedOverLog(),
                writerSpellings: [String: [String]] = [:], appPriority: [String]? = nil, file: DeliveredFile? = nil) {
        self.store = store
        self.stream = stream
        self.asOf = asOf
        self.cursor = cursor
        self.fullResync = fullResync
        self.snapshot = snapshot
        self.resting = resting
        self.heartRate = heartRate
        self.deleted = deleted
        self.grantedPermissions = grantedPermissions
        self.watchWriters = watchWriters
        self.origin = origin
        self.dayFeed = dayFeed
        self.passedOver = passedOver
        self.writerSpellings = writerSpellings
        self.appPriority = appPriority
        self.file = file
    }

    /// Whether it holds anything rhr uses: a resting sample, a heart-rate summary or a deletion. A delivery whose
    /// batches hold none, only records passed over, keeps those and nothing else (R14, the account).
    public var holdsUsable: Bool { !resting.isEmpty || !heartRate.isEmpty || !deleted.isEmpty }

    /// R1: a batch belongs to one store, and so do all of its values. Checked again by the store.
    public func validate() throws(BatchError) {
        if stream.isEmpty { throw BatchError(path: "stream", "must not be empty") }
        // A stream names a road, its cursor and its lines in `rhr status`: whole and printable (`TextGate`).
        if let flaw = TextGate.flaw(in: stream) { throw BatchError(path: "stream", flaw.words) }
        if stream.utf8.count > TextGate.maxBytes {
            throw BatchError(path: "stream", "longer than \(TextGate.maxBytes) bytes (\(stream.utf8.count))")
        }
        if dayFeed != nil && (snapshot != nil || fullResync) {
            throw BatchError("a phone feed's request is neither a snapshot nor a full resync")
        }
        for (i, s) in resting.enumerated() {
            let path = "resting[\(i)]"
            if s.store != store { throw BatchError(path: path, "a \(s.store.rawValue) sample in a \(store.rawValue) batch") }
            if s.writer.store != store { throw BatchError(path: path + ".writer", "a writer of another store") }
            if s.writer.name.isEmpty { throw BatchError(path: path + ".writer", "no name") }
            if let flaw = TextGate.flaw(in: s.writer.name) { throw BatchError(path: path + ".writer", "the name holds \(flaw.words)") }
            if let uuid = s.uuid, let flaw = TextGate.flaw(in: uuid) { throw BatchError(path: path + ".uuid", "holds \(flaw.words)") }
            if s.end < s.start { throw BatchError(path: path + ".end", "before start") }
            if !RestingValue.isSupported(unit: s.unit) {
                throw BatchError(path: path + ".unit", UnitError(unit: s.unit).description)
            }
        }
        for (i, id) in deleted.enumerated() {
            if let flaw = TextGate.flaw(in: id) { throw BatchError(path: "deleted[\(i)]", "holds \(flaw.words)") }
        }
        for (i, h) in heartRate.enumerated() {
            if h.writer.store != store { throw BatchError(path: "heartRate[\(i)].writer", "a writer of another store") }
            if h.writer.name.isEmpty { throw BatchError(path: "heartRate[\(i)].writer", "no name") }
            if let flaw = TextGate.flaw(in: h.writer.name) {
                throw BatchError(path: "heartRate[\(i)].writer", "the name holds \(flaw.words)")
            }
        }
    }
}

/// A batch rhr refuses, with the place in it that is wrong as a value of its own: `path` is the JSON path
/// (`upserted[3].start`, empty for the batch as a whole), `message` what is wrong there. Whoever embeds a batch
/// (the daemon's `push` puts it under `batch`) prefixes the path, never the text.
public struct BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String = "", _ message: String) {
        self.path = path
        self.message = message
    }

    /// The same error with its path inside `parent` (`batch` → `batch.upserted[3].start`).
    public func within(_ parent: String) -> BatchError {
        BatchError(path: InputPlace.join(parent, path), message)
    }

    /// `upserted[3].start: not an ISO-8601 date`, or the message alone for the batch as a whole.
    public var description: String { InputPlace(path: path).words(message) }
}

/// What applying a batch changed. Its sample counts read as its own (`outcome.added`).
@dynamicMemberLookup
public struct BatchOutcome: Sendable, Hashable {
    /// The batch's `cursor.next` was applied already: nothing changed.
    public var duplicate = false
    public var samples = SampleCounts()
    public var heartRateSummaries = 0
    /// The local days whose values changed.
    public var changedDays: Set<LocalDay> = []
    /// The store's revision after the batch: it grows by one for every batch that changed something.
    public var revision: Int64 = 0
    /// R14: the batch's records rhr could not use, kept in the store (none for a batch applied before: they were
    /// kept then).
    public var passedOver = 0
    /// R13: the times of its own the batch gave that could not be right, and were replaced by when it was read.
    public var futureDated: [FutureDelivery] = []

    public init() {}

    public subscript(dynamicMember count: WritableKeyPath<SampleCounts, Int>) -> Int {
        get { samples[keyPath: count] }
        set { samples[keyPath: count] = newValue }
    }

    public var changedSomething: Bool { samples.added + samples.replaced + samples.deleted > 0 || !changedDays.isEmpty }
}
