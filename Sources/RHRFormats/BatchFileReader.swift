import RHRJSON
import Foundation
import RHRCore

/// Reads a file of sync batches, one JSON object per line (what `rhr push` sends and a bridge may save), whole: every
/// line is decoded before anything is returned, so a file with one bad line gives nothing, and the error names the file,
/// the line and the column or JSON path: `batches.jsonl: line 3, upserted[0].start: not an ISO-8601 date`. What
/// imports a file streams it instead (`SyncBatchFile`, `FileImporter.open`); this is for what wants the batches.
public enum BatchFileReader {
    static let chunkSize = FileLines.chunkSize

    /// `recordsRead` counts the upserted records of all batches and the deletions passed over; each batch's `origin` is
    /// the file's name.
    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let file = try SyncBatchFile(path: path, options: options, progress: progress)
        var batches: [SyncBatch] = []
        do {
            while let batch = try file.next() { batches.append(batch) }
        } catch {
            // Asked for batches, not to tell a file's kind: what the file was read as goes without saying.
            var error = error
            error.readAs = nil
            throw error
        }
        return ImportedFile(path: path, kind: .syncBatches, batches: batches, recordsRead: file.recordsRead,
                            heartRateRead: file.heartRateRead)
    }
}
