import RHRJSON
import Foundation
import RHRCore

/// Reads a file of sync batches, one JSON object per line (what `rhr push` sends and a bridge may save).
///
/// The file is streamed in chunks, never loaded whole; blank lines are skipped, CRLF line ends and a UTF-8
/// byte order mark at the start are accepted, a line over 16 MiB is refused. Every line is decoded before
/// anything is returned, so a file with one bad line applies not at all, and the error names the file, the
/// line and the JSON path or column: `batches.jsonl:3: upserted[0].start: not an ISO-8601 date`.
public enum BatchFileReader {
    static let chunkSize = FileLines.chunkSize

    /// `recordsRead` counts the upserted records of all batches; each batch's `origin` is the file's name.
    public static func read(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) -> ImportedFile {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let origin = PathText.lastComponent(path)

        let limit = JSONLineFramer.defaultMaxLineLength
        let limitMiB = limit >> 20
        var batches: [SyncBatch] = []
        var records = 0

        func take(_ item: JSONLineFramer.Item) throws(InputError) {
            switch item {
            case .tooLong(let number):
                throw InputError(path: path, line: number,
                                 message: "the line is longer than \(limitMiB) MiB, the limit for one batch")
            case .line(let bytes, let number):
                guard let line = batchText(bytes, number: number) else { return }
                let value: JSONValue
                do {
                    value = try JSONParser.parse(line.text)
                } catch {
                    throw InputError(path: path, line: number,
                                     message: "column \(error.column + line.columnShift): \(error.messageWithPath)")
                }
                do {
                    var batch = try SyncBatchJSON.decode(value, machineZone: options.machineZone, origin: origin)
                    batch.passedOver.source = path
                    batch.passedOver.place(under: "line \(number), ")
                    batches.append(batch)
                } catch {
                    throw InputError(path: path, line: number, message: error.description)
                }
                records += value["upserted"]?.array?.count ?? 0
            }
        }

        try FileLines.read(file, maxLineLength: limit, progress: progress, take)

        return ImportedFile(path: path, kind: .syncBatches, batches: batches, recordsRead: records)
    }

    /// What one line of a batch file gives the JSON parser: the bytes after the byte order mark that only the
    /// file's first line may start with, and how many characters that mark shifts the line's columns (0 or 1);
    /// nil for a blank line, which is skipped. `rhr push` reads its files the same way.
    public static func batchText(_ line: [UInt8], number: Int) -> (text: ArraySlice<UInt8>, columnShift: Int)? {
        let bom = number == 1 && line.starts(with: [0xEF, 0xBB, 0xBF])
        let text = line[(bom ? 3 : 0)...]
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) { return nil }
        return (text, bom ? 1 : 0)
    }
}
