import Foundation
import RHRCore
import RHRSystem

/// Reads Health Connect's own export: `Health Connect.zip` (any name) holding `health_connect_export.db`
/// (any name; found by its SQLite header), or that database bare. The result is one `SyncBatch` that is a
/// snapshot of the whole store (R4): applying a newer export removes what an older one had and it lacks.
///
/// `asOf`, the time the data was read, is the latest of (R12)
/// - the zip member's modification time, the moment Health Connect wrote the database,
/// - the newest `last_modified_time` of any record in the database (any table that has the column, the medical
///   ones aside), and
/// - the previous export's time, which the database keeps (`HealthConnectExportTime`).
/// None is enough alone. A bare `.db` has no member time, and a zip's DOS time carries no zone (libarchive
/// reads it in the machine's zone, hours off when the phone was elsewhere). The newest modification is only a
/// lower bound of the export time: an export whose one change was a deletion could look older than the one
/// before it, which the store would refuse; the previous export's time is another, which moves forward with every
/// scheduled export. A database with neither falls back to the file's own time.
///
/// Any database version from 9 on is read by the tables and columns it holds (`HealthConnectSchema`); the medical
/// tables are never read, and travel only in the private copy of the database (docs/design.md section 8).
///
/// `recordsRead` counts resting records plus heart-rate series samples.
public enum HealthConnectReader {
    public static let stream = "health-connect-export"

    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        try read(path: path, options: options, progress: progress, scratchRoot: TemporaryFiles.defaultRoot, whileExtracted: nil)
    }

    /// `scratchRoot` is where the private copy of a zipped database goes; `whileExtracted` sees its path
    /// while it exists (tests check its modes and that it is gone afterwards).
    static func read(path: String, options: ImportOptions, progress: ImportProgress?, scratchRoot: String,
                     whileExtracted: ((String) -> Void)?) throws(InputError) -> ImportedFile {
        let head = try ReadOnlyFile.head(path: path, count: 16)
        if InputKind.isSQLite(head) {
            let total = HealthConnectScratchCopy.fileSize(path)
            // Committed changes in a -wal (or an unfinished one in a -journal) beside the file are part of the
            // database (docs/design.md section 2): read from a private copy of both, which SQLite brings up to date.
            if let log = ["-wal", "-journal"].first(where: { HealthConnectScratchCopy.fileSize(path + $0) > 0 }) {
                let copy = try HealthConnectScratchCopy.copy(database: path, log: log, root: scratchRoot, options: options)
                defer { copy.remove() }
                whileExtracted?(copy.file)
                let db = try HealthConnectDatabase(file: copy.file, errorPath: path, member: nil, privateCopy: true)
                let file = try read(db, path: path, kind: .healthConnectDatabase, memberModified: nil, options: options)
                progress?(total, total)
                return file
            }
            let db = try HealthConnectDatabase(file: path, errorPath: path, member: nil)
            let file = try read(db, path: path, kind: .healthConnectDatabase, memberModified: nil, options: options)
            progress?(total, total)
            return file
        }
        guard ArchiveReader.looksLikeZip(head) else {
            throw InputError(path: path, message: head.isEmpty ? "the file is empty"
                : "not a Health Connect export: neither a zip archive nor a SQLite database")
        }
        let copy = try HealthConnectScratchCopy.extract(zip: path, root: scratchRoot, options: options, progress: progress)
        defer { copy.remove() }
        whileExtracted?(copy.file)
        let db = try HealthConnectDatabase(file: copy.file, errorPath: path, member: copy.member, privateCopy: true)
        return try read(db, path: path, kind: .healthConnectZip(member: copy.member ?? HealthConnectScratchCopy.name),
                        memberModified: copy.memberModified, options: options)
    }

    private static func read(_ db: HealthConnectDatabase, path: String, kind: InputKind, memberModified: Date?,
                             options: ImportOptions) throws(InputError) -> ImportedFile {
        let schema = try HealthConnectSchema.check(db)
        let contents = try HealthConnectContents.read(db, schema: schema, machineZone: options.machineZone)
        let priority = try HealthConnectPriority.read(db)
        let newest = [memberModified, try HealthConnectExportTime.read(db).latest].compactMap { $0 }.max()
            ?? HealthConnectReader.fileModified(path) ?? Date(timeIntervalSince1970: 0)
        let asOf = Timestamp(date: newest, offsetSeconds: options.machineZone.secondsFromGMT(for: newest))
        var passedOver = contents.passedOver.log
        if case .healthConnectZip(let member) = kind { passedOver.source = "\(path) (\(member))" } else { passedOver.source = path }
        let batch = SyncBatch(
            store: .healthConnect, stream: stream, asOf: asOf,
            snapshot: .init(from: nil, to: nil),
            resting: contents.resting, heartRate: contents.heartRate,
            origin: "Health Connect export", passedOver: passedOver, writerSpellings: contents.writerSpellings,
            appPriority: priority.packages)
        do {
            try batch.validate()
        } catch {
            throw db.error("the export reads as an invalid batch: \(error.description)")
        }
        // Every resting record and heart-rate sample looked at, used or not (the account, docs/design.md R14).
        let skipped = contents.skipped.merging(priority.skippedCounts, uniquingKeysWith: +)
        return ImportedFile(path: path, kind: kind, batches: [batch],
                            recordsRead: contents.restingRecords + contents.heartRateSamples + passedOver.total
                                + skipped.values.reduce(0, +),
                            skipped: skipped, notes: schema.notes, heartRateRead: contents.heartRateSamples)
    }

    /// The file's own modification time: only when the database says nothing of when it was exported.
    private static func fileModified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
