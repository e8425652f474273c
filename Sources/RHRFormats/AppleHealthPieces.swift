import Foundation
import Synchronization

/// A bare `export.xml` on disk scanned in pieces on several threads at once (docs/design.md section 7), with the
/// same result, errors included, as one scan from its first byte to its last.
///
/// Every piece but the first starts at a guess, a `<Record` at the start of a line indented by one space, where
/// Apple writes its top-level records, and is scanned as if the document stood there between two top-level elements
/// (`AppleHealthScanner.betweenTopLevelElements()`). The guess is checked, not trusted: each piece scans its bytes
/// up to the next piece's start and hands over only if its own scan stands there between two top-level elements,
/// nothing carried over. Otherwise (the guess fell in a comment, a correlation, a tag, …) it reads on to the end of
/// the file itself, and the later pieces' work is dropped. Pieces are then taken in order: each hand-over adds the
/// next piece's records to what came before (`AppleHealthCollector.append`); the first piece that did not hand
/// over (it failed, or read to the end) is the last one taken. Only a piece whose start was right is ever taken, so
/// the first error in the file is the one reported, at its byte.
///
/// Memory stays bounded: a piece holds one block and its carried-over tag, and its collector what the file holds.
enum AppleHealthPieces {
    /// Where the pieces of a file of `size` bytes start: 0, then for each other share of the file the first
    /// `\n <Record ` at or after its nominal start (the `<`), if one is found within a mebibyte of it.
    static func starts(descriptor: Int32, size: Int64, pieces: Int) -> [Int64] {
        var starts: [Int64] = [0]
        guard pieces > 1 else { return starts }
        let window = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: window, alignment: 64)
        defer { buffer.deallocate() }
        let needle: StaticString = "\n <Record "
        for k in 1..<pieces {
            let nominal = size * Int64(k) / Int64(pieces)
            guard nominal > starts[starts.count - 1] else { continue }
            let n = pread(descriptor, buffer, window, off_t(nominal))
            guard n > 0, let at = find(needle, in: UnsafeRawBufferPointer(start: buffer, count: n)) else { continue }
            starts.append(nominal + Int64(at) + 2)  // at the `<`, after "\n "
        }
        return starts
    }

    /// The index of the first `needle` (which starts with a line feed) in `bytes`.
    private static func find(_ needle: StaticString, in bytes: UnsafeRawBufferPointer) -> Int? {
        let count = needle.utf8CodeUnitCount
        var k = 0
        while k + count <= bytes.count, let hit = memchr(bytes.baseAddress! + k, 0x0A, bytes.count - count + 1 - k) {
            let at = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if memcmp(hit, needle.utf8Start, count) == 0 { return at }
            k = at + 1
        }
        return nil
    }

    /// Scans the file in pieces that start at `starts` (the first at 0) and returns the scanner that holds what the
    /// whole file held. `progress` is called on the calling thread, which scans the first piece.
    /// A file cut short gives what the pieces read before the cut, with the truncation (`AppleHealthReader` decides).
    static func scan(descriptor: Int32, path: String, total: Int64, starts: [Int64], blockSize: Int,
                     progress: ImportProgress?) throws -> (AppleHealthScanner, truncation: AppleHealthScanError?) {
        let pieces = starts.indices.map { k in
            AppleHealthPiece(start: starts[k], end: k + 1 < starts.count ? starts[k + 1] : nil,
                             scanner: k == 0 ? AppleHealthScanner() : .betweenTopLevelElements())
        }
        for k in pieces.indices {
            pieces[k].later = Array(pieces[(k + 1)...])
        }
        let done = DispatchSemaphore(value: 0)
        for piece in pieces.dropFirst() {
            let thread = Thread {
                piece.run(descriptor: descriptor, path: path, blockSize: blockSize, progress: nil)
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        var clock = ProgressClock()
        func report() {
            guard let progress, clock.due() else { return }
            progress(min(pieces.reduce(0) { $0 + $1.bytesRead.load(ordering: .relaxed) }, total), total)
        }
        pieces[0].run(descriptor: descriptor, path: path, blockSize: blockSize, progress: report)
        for _ in pieces.dropFirst() {
            while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut { report() }
        }

        var scanner = pieces[0].scanner
        var truncation: AppleHealthScanError?
        taking: for (k, piece) in pieces.enumerated() {
            switch piece.outcome {
            case .failed(let error as AppleHealthScanError) where error.isTruncation:
                // The piece that reached the cut: what it read before it counts, as one scan's would.
                if k > 0 { scanner.collector.append(piece.scanner.collector) } else { scanner = piece.scanner }
                truncation = error
                break taking
            case .failed(let error): throw error
            case .stopped: preconditionFailure("a piece after one that handed over is never stopped")
            case .handedOver, .readToEnd:
                if k > 0 { scanner.collector.append(piece.scanner.collector) }
                if case .readToEnd = piece.outcome { break taking }
            }
        }
        progress?(total, total)
        return (scanner, truncation)
    }
}

/// One piece of `AppleHealthPieces`: its bytes from `start`, scanned until `end` (the next piece's start) when it
/// can hand over there, else to the end of the file.
///
/// `@unchecked Sendable`: `scanner` and `outcome` are written by the piece's own thread only, and read by the
/// calling thread only after that thread signalled that it is done; `stop` and `bytesRead` are atomic.
final class AppleHealthPiece: @unchecked Sendable {
    enum Outcome {
        /// The scan stood between two top-level elements at `end`: the next piece goes on from there.
        case handedOver
        /// The scan went to the end of the file (and the document ended well).
        case readToEnd
        case failed(Error)
        /// An earlier piece told it to stop: its start was wrong, or the file is refused before it.
        case stopped
    }

    let start: Int64
    let end: Int64?
    var scanner: AppleHealthScanner
    var outcome = Outcome.stopped
    /// The pieces after this one, told to stop when this one does not hand over: none of them is taken then.
    var later: [AppleHealthPiece] = []
    let stop = Atomic<Bool>(false)
    let bytesRead = Atomic<Int64>(0)

    init(start: Int64, end: Int64?, scanner: AppleHealthScanner) {
        self.start = start
        self.end = end
        self.scanner = scanner
    }

    func run(descriptor: Int32, path: String, blockSize: Int, progress: (() -> Void)?) {
        // A piece further on reads through a description of the file of its own, so that the kernel's read-ahead
        // follows each piece's sequential reading rather than the pieces' reads mixed (a file not yet in memory).
        let own = start > 0 ? open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC) : -1
        defer { if own >= 0 { close(own) } }
        if own >= 0 { _ = posix_fadvise(own, 0, 0, POSIX_FADV_SEQUENTIAL) }
        do {
            outcome = try scan(descriptor: own >= 0 ? own : descriptor, path: path, blockSize: blockSize, progress: progress)
        } catch {
            outcome = .failed(error)
        }
        if case .handedOver = outcome { return }
        for piece in later { piece.stop.store(true, ordering: .relaxed) }
    }

    /// Reads the piece block by block with `pread`, each block after the bytes the scanner left of the one before
    /// (an unfinished tag), moved to the front of the same buffer.
    private func scan(descriptor: Int32, path: String, blockSize: Int, progress: (() -> Void)?) throws -> Outcome {
        let headroom = AppleHealthScanner.maxTagLength + 64
        let memory = UnsafeMutableRawPointer.allocate(byteCount: headroom + blockSize, alignment: 64)
        defer { memory.deallocate() }
        let data = memory + headroom
        var offset = start
        var carry = 0
        var handOverAt = end
        while true {
            if stop.load(ordering: .relaxed) { return .stopped }
            if let at = handOverAt, offset == at {
                if carry == 0 && scanner.isBetweenTopLevelElements { return .handedOver }
                // The next piece's start was a wrong guess: this piece scans on through the rest of the file.
                handOverAt = nil
                for piece in later { piece.stop.store(true, ordering: .relaxed) }
            }
            let want = handOverAt.map { min(blockSize, Int($0 - offset)) } ?? blockSize
            var count = 0
            var atEnd = false
            while count < want {
                let n = pread(descriptor, data + count, want - count, off_t(offset) + off_t(count))
                if n > 0 {
                    count += n
                } else if n == 0 {
                    atEnd = true
                    break
                } else if errno != EINTR {
                    var error = InputError.cannotRead(path, code: errno)
                    error.offset = offset + Int64(count)
                    throw error
                }
            }
            bytesRead.add(Int64(count), ordering: .relaxed)
            // At the next piece's start, which is a `<` when the guess found one, a tag ends as in a longer block.
            var next: UInt8 = 0
            let lessThanFollows = !atEnd && handOverAt == offset + Int64(count)
                && pread(descriptor, &next, 1, off_t(offset) + off_t(count)) == 1 && next == 0x3C
            let region = UnsafeRawBufferPointer(start: data - carry, count: carry + count)
            let consumed = try scanner.scan(region, base: offset - Int64(carry), atEnd: atEnd, lessThanFollows: lessThanFollows)
            carry = region.count - consumed
            memmove(data - carry, data + count - carry, carry)
            offset += Int64(count)
            if atEnd { return .readToEnd }
            progress?()
        }
    }
}
