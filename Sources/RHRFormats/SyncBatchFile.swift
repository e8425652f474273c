// A file of sync batches read one batch at a time, as the store applies them: bounded memory at any size.
import Foundation
import RHRCore
import RHRJSON
import Synchronization

/// A file of sync batches (one JSON object per line), open and read a line at a time as the store asks for the next
/// batch (`BatchSource`, `HealthDatabase.apply(from:each:)`): the import holds one batch, a 1 MiB chunk and the line
/// being cut, whatever the file's size, and applies whole or not at all (docs/design.md section 8). Its lines read as
/// every batch line does (`SyncBatchLines`); a line that does not is thrown as the file's error, naming the line, and
/// the store rolls back what came before. `rhr push` streams the same lines to the daemon, a transaction each.
///
/// Sendable: the folder watch opens it on its thread and the store's thread reads it; the state is behind a lock.
public final class SyncBatchFile: BatchSource, Sendable {
    public let path: String
    private let machineZone: TimeZone
    private let progress: ImportProgress?
    private let origin: String

    private struct State {
        var file: ReadOnlyFile?
        var framer = JSONLineFramer(maxLineLength: JSONLineFramer.defaultMaxLineLength)
        var atEnd = false
        var bytesDone: Int64 = 0
        var line: Int?
        /// The account of the batches read so far (docs/design.md R14): records read, and of them the resting samples
        /// and the heart-rate records; whether any batch held something usable (`SyncBatch.holdsUsable`).
        var records = 0, resting = 0, heartRate = 0
        var heldUsable = false
        /// The file the batches came in, named in each (R12: of snapshots of one instant, the one made later decides).
        var delivered: DeliveredFile?
        var passedOver: PassedOverLog
        /// The first batch, read ahead (`readAhead`) and not handed out yet.
        var ahead: SyncBatch?
        /// What errors and passed-over records name the file as: its path, or the input it is a copy of.
        var label: String
    }
    private let state: Mutex<State>

    /// Opens the file; nothing of it is read until the first batch is asked for.
    init(path: String, options: ImportOptions, progress: ImportProgress?) throws(InputError) {
        self.path = path
        machineZone = options.machineZone
        self.progress = progress
        origin = PathText.lastComponent(path)
        state = Mutex(State(file: try ReadOnlyFile(path: path), passedOver: PassedOverLog(source: path), label: path))
    }

    /// Names the file `label` from now on, where it named `path` (standard input read through /dev/stdin).
    func relabel(_ label: String, reading path: String) {
        state.withLock { state in
            if state.label == path { state.label = label }
            if state.passedOver.source == path { state.passedOver.source = label }
        }
    }

    deinit { state.withLock { $0.file?.close() } }

    /// The records of the batches read so far: every upsert, and each deletion passed over.
    public var recordsRead: Int { state.withLock { $0.records } }

    /// Of `recordsRead`, the resting samples and the heart-rate records.
    public var restingRead: Int { state.withLock { $0.resting } }
    public var heartRateRead: Int { state.withLock { $0.heartRate } }

    /// Whether a batch read so far held something rhr uses (`SyncBatch.holdsUsable`).
    public var heldUsable: Bool { state.withLock { $0.heldUsable } }

    /// Names `file` in each batch read from now on (`FileImporter`, before the first is read).
    func stamp(_ file: DeliveredFile) {
        state.withLock { $0.delivered = file }
    }

    /// R14: what the batches read so far passed over, together.
    public var passedOver: PassedOverLog { state.withLock { $0.passedOver } }

    public var place: String? { state.withLock { $0.line.map { "line \($0)" } } }

    public func nextBatch() throws -> SyncBatch? { try next() }

    /// Reads the first batch now, before anything is written: a file that is no file of batches, or whose first line
    /// does not read, is refused before a store is opened (a failed import creates nothing).
    public func readAhead() throws(InputError) {
        let result: Result<Void, InputError> = state.withLock { state in
            Result { () throws(InputError) in
                if state.line == nil { state.ahead = try read(&state) }
            }
        }
        do { try result.get() } catch { throw named(error) }
    }

    /// The next batch; nil at the end of the file, which is then closed. An error says what the file was read as.
    public func next() throws(InputError) -> SyncBatch? {
        let result: Result<SyncBatch?, InputError> = state.withLock { state in
            if let ahead = state.ahead {
                state.ahead = nil
                return .success(ahead)
            }
            return Result { () throws(InputError) in try read(&state) }
        }
        do { return try result.get() } catch { throw named(error) }
    }

    /// "read as a sync batch file (JSON lines): …", naming the file by its label.
    private func named(_ error: InputError) -> InputError {
        var error = error
        error.readAs = InputKind.syncBatches.readAs
        if error.path == path { error.path = state.withLock { $0.label } }
        return error
    }

    private func read(_ state: inout State) throws(InputError) -> SyncBatch? {
        while true {
            if let item = state.framer.next() ?? (state.atEnd ? state.framer.finish() : nil) {
                if let batch = try decode(item, &state) { return batch }
                continue
            }
            if state.atEnd { return nil }
            try fill(&state)
        }
    }

    /// Reads the next chunk into the framer; at the end of the file, closes it.
    private func fill(_ state: inout State) throws(InputError) {
        guard let file = state.file else {
            state.atEnd = true
            return
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: FileLines.chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        let n = try file.read(into: chunk)
        if n == 0 {
            file.close()
            state.file = nil
            state.atEnd = true
            return
        }
        state.framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
        state.bytesDone += Int64(n)
        progress?(state.bytesDone, max(file.size, state.bytesDone))
    }

    /// The batch a line holds; nil for a blank line.
    private func decode(_ item: JSONLineFramer.Item, _ state: inout State) throws(InputError) -> SyncBatch? {
        do throws(SyncBatchLines.Refusal) {
            guard var read = try SyncBatchLines.batch(item, maxLineLength: state.framer.maxLineLength, machineZone: machineZone,
                                                      origin: origin) else { return nil }
            read.batch.passedOver.source = state.label
            read.batch.file = state.delivered
            state.line = item.number
            // The account (docs/design.md R14): a deletion passed over was read too.
            let upsertsPassedOver = read.upserts - read.batch.resting.count - read.heartRate
            state.records += read.upserts + read.batch.passedOver.total - upsertsPassedOver
            state.resting += read.batch.resting.count
            state.heartRate += read.heartRate
            state.heldUsable = state.heldUsable || read.batch.holdsUsable
            state.passedOver.append(read.batch.passedOver)
            return read.batch
        } catch {
            throw InputError(path: state.label, place: error.place, message: error.message, isSyntaxError: error.kind == .notJSON)
        }
    }
}
