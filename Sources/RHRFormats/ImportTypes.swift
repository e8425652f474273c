import Foundation
import RHRCore
import RHRSystem

/// What a reader is told about the machine and the user's wishes.
public struct ImportOptions: Sendable {
    /// R5: the zone whose offset is assumed for Health Connect values with a null offset.
    public var machineZone: TimeZone
    /// The most a temporary copy of the input may hold (a Health Connect database out of its zip, a pipe).
    public var temporaryCopyLimit: Int64 = TemporaryCopyLimit.defaultBytes
    /// Asked while a long copy runs: true stops the import (the daemon is stopping).
    public var isCancelled: (@Sendable () -> Bool)? = nil

    public init(machineZone: TimeZone = .current) {
        self.machineZone = machineZone
    }
}

/// Called now and then while a reader streams a file: bytes of input read so far, of the total.
public typealias ImportProgress = @Sendable (_ bytesDone: Int64, _ bytesTotal: Int64) -> Void

/// What a reader made of one file: the batches to apply (whole or not at all) and what it counted.
public struct ImportedFile: Sendable {
    public var path: String
    public var kind: InputKind
    /// The batches, in memory; empty for a file opened to stream (`stream`).
    public var batches: [SyncBatch]
    /// A file of sync batches opened by `FileImporter.open`: read a batch at a time as the store applies it.
    public var stream: SyncBatchFile?
    private var counted: Int
    /// Things passed over, by reason: "unknown metric" → 3.
    public var skipped: [String: Int]
    /// What the import line must say about how the file was read: "no <ExportDate>: taken as of …".
    public var notes: [String]
    private var heartRateCounted: Int

    /// R14: why not one record of the file could be used, when records were passed over and none was a resting sample,
    /// heart rate or a deletion: "750 records passed over, kept in the store (rhr status lists them): 750 Health Auto
    /// Export rows whose date is not a date (first at line 2)". Such a file keeps its passed-over records and nothing
    /// else: it dates no road (the account, docs/design.md R14). Nil when something could be used.
    public var unusable: String? {
        let log = passedOver
        guard !log.isEmpty, !(stream?.heldUsable ?? false), !batches.contains(where: \.holdsUsable) else { return nil }
        var lines = log.summaryLines
        let head = lines.removeFirst().dropLast()
        return head + ": " + lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }

    /// The skipped records of types rhr does not read: steps, energy, and the rest.
    public static let otherTypes = "records of other types"

    /// Records (or points, or lines) the reader looked at: of a stream, those read so far.
    public var recordsRead: Int {
        get { stream?.recordsRead ?? counted }
        set { counted = newValue }
    }

    /// Of `recordsRead`, the heart-rate records (or samples, as the reader counts them) it summarised by day (R8).
    public var heartRateRead: Int {
        get { stream?.heartRateRead ?? heartRateCounted }
        set { heartRateCounted = newValue }
    }

    /// What the store applies (`HealthDatabase.apply(from:each:)`): the stream, else the batches.
    public var source: any BatchSource { stream ?? BatchList(batches) }

    /// R14: what its readers passed over, all batches' together (of a stream, those read so far).
    public var passedOver: PassedOverLog {
        var log = PassedOverLog(source: path)
        if let stream { log.append(stream.passedOver) }
        for batch in batches { log.append(batch.passedOver) }
        return log
    }

    /// `heartRateRead`: nil is one for each heart-rate sample the batches' summaries count.
    public init(path: String, kind: InputKind, batches: [SyncBatch], recordsRead: Int, skipped: [String: Int] = [:],
                notes: [String] = [], heartRateRead: Int? = nil) {
        self.path = path
        self.kind = kind
        self.batches = batches
        self.counted = recordsRead
        self.skipped = skipped
        self.notes = notes
        self.heartRateCounted = heartRateRead ?? batches.reduce(0) { $0 + $1.heartRate.reduce(0) { $0 + $1.total } }
    }

    /// The account of what was read (docs/design.md R14): every record is a resting sample, a heart-rate record,
    /// passed over or skipped, so these add up to `recordsRead` (a test holds every reader to it).
    public var accounted: Int {
        (stream?.restingRead ?? 0) + batches.reduce(0) { $0 + $1.resting.count } + heartRateRead + passedOver.total
            + skipped.values.reduce(0, +)
    }

    /// A file of sync batches opened to stream.
    init(streaming file: SyncBatchFile) {
        self.init(path: file.path, kind: .syncBatches, batches: [], recordsRead: 0)
        stream = file
    }
}
