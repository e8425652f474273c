import Foundation
import RHRCore
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRSystem

/// `rhr push FILE|-`: sends each line (one batch as a JSON object, read as every batch line is: `SyncBatchLines`) to
/// the daemon as a push, in order, and prints each reply. A line that fails is named (`batches.jsonl: line 3:
/// cursor_mismatch: …`); the exit status is 1 when any failed.
enum PushCommand {
    static let command = Command(
        name: "push",
        operands: Operands(usage: "FILE|-", noun: "FILE, or - for standard input", minimum: 1, maximum: 1, completion: .files),
        summary: "send sync batches (one JSON object per line) to the daemon",
        options: [DaemonCommand.socketOption, .flag("json", "print the daemon's replies as JSON lines")],
        run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let path = invocation.arguments.positionals[0]
        let name = path == "-" ? "stdin" : path
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CommandFailure(InputError.cannotOpen(path, code: errno).description) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure(InputError.cannotOpen(path, code: EISDIR).description)
        }

        let client: DaemonClient
        do {
            client = try DaemonClient(socketPath: DaemonCommand.socketPath(invocation))
        } catch {
            throw CommandFailure("\(error.message); start one with 'rhr daemon'")
        }
        let output = invocation.output
        let json = invocation.arguments.has("json")
        var failed = false
        var framer = JSONLineFramer()

        func push(_ item: JSONLineFramer.Item) throws {
            // "batches.jsonl: line 3: ok: …", and every failure in the daemon's words (its code first).
            let number = item.number
            func named(_ text: String) -> String { "\(name): " + InputPlace(line: number).words(text) }
            let batch: JSONValue
            do throws(SyncBatchLines.Refusal) {
                guard let value = try SyncBatchLines.json(item, maxLineLength: framer.maxLineLength) else { return }
                batch = value
            } catch {
                failed = true
                invocation.report("\(name): " + error.place.words("\(ProtocolError(error).code.rawValue): \(error.message)"))
                return
            }
            let reply: DaemonReply
            let outcome: BatchOutcome?
            do {
                reply = try client.request(["op": "push", "id": .number(JSONNumber(number)), "batch": batch], timeout: 60)
                outcome = reply.isOK ? try reply.decode(BatchOutcome.self) : nil
            } catch {
                throw CommandFailure(named(error.message))
            }
            if json { output.print(reply.description) }
            if let outcome {
                if !json { output.print(named(describe(outcome))) }
            } else if let error = reply.error {
                failed = true
                if !json { invocation.report(named("\(error)")) }
            }
        }

        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CommandFailure("\(path): cannot be read: \(errnoText())") }
            if n == 0 { break }
            framer.append(buffer[0..<n])
            while let item = framer.next() { try push(item) }
        }
        if let last = framer.finish() { try push(last) }
        return failed ? 1 : 0
    }

    /// "ok: 2 added, 1 replaced, 0 deleted; revision 7; days 2026-11-20, 2026-11-21", the counts and the records
    /// passed over as `rhr import` words them (`SampleCounts.words`, `PassedOverLog.words`).
    static func describe(_ outcome: BatchOutcome) -> String {
        if outcome.duplicate { return "ok: applied before; nothing changed (revision \(outcome.revision))" }
        var text = "ok: " + outcome.samples.words
        if outcome.heartRateSummaries > 0 { text += "; " + Wording.count(outcome.heartRateSummaries, "heart-rate summary", plural: "heart-rate summaries") }
        if outcome.passedOver > 0 { text += "; " + PassedOverLog.words(outcome.passedOver) }
        for note in outcome.futureDated { text += "; " + note.words }
        text += "; revision \(outcome.revision)"
        let days = outcome.changedDays.sorted().map(\.description)
        if !days.isEmpty {
            text += "; days " + (days.count > 6 ? days.prefix(3).joined(separator: ", ") + ", … " + days.last! + " (\(days.count))"
                                                : days.joined(separator: ", "))
        }
        return text
    }
}
