import RHRJSON
import Foundation
import RHRCore

/// Reads a file of sync batches, one JSON object per line (what `rhr push` sends and a bridge may save).
///
/// The file is streamed in chunks, never loaded whole, and its lines read as every batch line is
/// (`SyncBatchLines`: blank lines skipped, CRLF line ends and a UTF-8 byte order mark at the start accepted, a line
/// over 16 MiB refused). Every line is decoded before anything is returned, so a file with one bad line applies not
/// at all, and the error names the file, the line and the column or JSON path:
/// `batches.jsonl: line 3, upserted[0].start: not an ISO-8601 date`.
public enum BatchFileReader {
    static let chunkSize = FileLines.chunkSize

    /// `recordsRead` counts the upserted records of all batches and the deletions passed over; each batch's `origin` is
    /// the file's name.
    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let origin = PathText.lastComponent(path)
        let limit = JSONLineFramer.defaultMaxLineLength
        var batches: [SyncBatch] = []
        var records = 0, heartRate = 0

        func take(_ item: JSONLineFramer.Item) throws(InputError) {
            do throws(SyncBatchLines.Refusal) {
                guard var read = try SyncBatchLines.batch(item, maxLineLength: limit, machineZone: options.machineZone,
                                                          origin: origin) else { return }
                read.batch.passedOver.source = path
                batches.append(read.batch)
                // The account (docs/design.md R14): a deletion passed over was read too.
                let upsertsPassedOver = read.upserts - read.batch.resting.count - read.heartRate
                records += read.upserts + read.batch.passedOver.total - upsertsPassedOver
                heartRate += read.heartRate
            } catch {
                throw InputError(path: path, place: error.place, message: error.message, isSyntaxError: error.kind == .notJSON)
            }
        }

        try FileLines.read(file, maxLineLength: limit, progress: progress, take)

        return ImportedFile(path: path, kind: .syncBatches, batches: batches, recordsRead: records, heartRateRead: heartRate)
    }
}
