import Foundation
import RHRCore
import RHRJSON

/// Lines of sync batches, one JSON object per line, read one way wherever they come from: a file `rhr import` reads,
/// the file `rhr push` sends line by line over the socket, the body of `POST /v1/batches` (docs/design.md sections 4
/// and 4b). Blank lines are skipped, a UTF-8 byte order mark is passed over at the start of the first line (it still
/// counts as a column), a line over the limit is refused, and every refusal names its place in one format:
/// `line 3, column 22, store: expected ',' or '}' after an object member, found '"'`, `line 3, asOf: not an ISO-8601
/// date`. The records of a batch passed over (R14) are placed under its line: `line 3, upserted[2]`.
public enum SyncBatchLines {
    /// Why a line gives no batch: its place, what kind of refusal it is (the daemon's error code follows from it), and
    /// what is wrong.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// Over the line length limit (`too_large`).
            case tooLong
            /// Not JSON (`bad_json`).
            case notJSON
            /// JSON, but not a batch rhr reads (`invalid_batch`).
            case invalidBatch
        }

        public var kind: Kind
        public var place: InputPlace
        public var message: String

        /// `line 3, column 22, store: expected ',' or '}' after an object member, found '"'`.
        public var description: String { place.words(message) }
    }

    /// The JSON of one line; nil for a blank line, which is skipped.
    public static func json(_ item: JSONLineFramer.Item, maxLineLength: Int) throws(Refusal) -> JSONValue? {
        switch item {
        case .tooLong(let number):
            throw Refusal(kind: .tooLong, place: InputPlace(line: number),
                          message: "longer than \(ByteSize.words(maxLineLength)), the limit for one batch")
        case .line(let bytes, let number):
            let first = number == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            if bytes[first...].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) { return nil }
            do {
                return try JSONParser.parse(bytes, byteOrderMark: first > 0)
            } catch {
                // The line is the file's; the column and the path are the line's own (its byte would not be the file's).
                throw Refusal(kind: .notJSON, place: InputPlace(line: number, column: error.column, path: error.path),
                              message: error.message)
            }
        }
    }

    /// The batch one line holds: `stream` given (`POST /v1/batches`, a token's stream) stands for a stream the line
    /// does not name. Nil for a blank line. `upserts` counts its upserted records, and `heartRate` those of them that are
    /// heart rate (each an upsert that is neither resting nor passed over).
    public static func batch(_ item: JSONLineFramer.Item, maxLineLength: Int, machineZone: TimeZone, origin: String,
                             stream: String? = nil) throws(Refusal) -> (batch: SyncBatch, upserts: Int, heartRate: Int)? {
        guard var value = try json(item, maxLineLength: maxLineLength) else { return nil }
        let line = InputPlace(line: item.number)
        if let stream, case .object(var object) = value, object["stream"] == nil {
            object["stream"] = .string(stream)
            value = .object(object)
        }
        do {
            var batch = try SyncBatchJSON.decode(value, machineZone: machineZone, origin: origin)
            batch.passedOver.place(under: line)
            let upserts = value["upserted"]?.array?.count ?? 0
            let deletionsPassedOver = (value["deleted"]?.array?.count ?? 0) - batch.deleted.count
            return (batch, upserts, upserts - batch.resting.count - (batch.passedOver.total - deletionsPassedOver))
        } catch {
            throw Refusal(kind: .invalidBatch, place: line.appending(path: error.path), message: error.message)
        }
    }
}
