import Foundation

/// Cuts a byte stream into lines: bytes go in as they arrive (a file's chunks, a socket's reads), whole
/// lines come out, numbered from 1. A line ends at LF; a CR before it is dropped, so CRLF works.
///
/// A line longer than `maxLineLength` (16 MiB by default, the protocol's limit) is reported as soon as it
/// is known to be too long, without waiting for its end, and its bytes are dropped up to the next LF:
/// a client sending an endless line costs at most the limit in memory, and the next line is read normally.
public struct JSONLineFramer: Sendable {
    public static let defaultMaxLineLength = 16 << 20

    public enum Item: Sendable, Equatable {
        /// A complete line without its line ending (possibly empty).
        case line([UInt8], number: Int)
        /// A line over the limit; its bytes are skipped.
        case tooLong(number: Int)

        /// The line's number, 1 for the first.
        public var number: Int {
            switch self {
            case .line(_, let number), .tooLong(let number): return number
            }
        }
    }

    public let maxLineLength: Int
    private var buffer: [UInt8] = []
    /// Where the current line starts in `buffer`.
    private var start = 0
    /// How far past `start` is known to hold no LF.
    private var scanned = 0
    /// Dropping the rest of a line already reported as too long.
    private var discarding = false
    /// The number of the current line.
    private var lineNumber = 1

    public init(maxLineLength: Int = JSONLineFramer.defaultMaxLineLength) {
        self.maxLineLength = maxLineLength
    }

    /// Bytes of the current, unfinished line held in memory.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, or an over-long one; nil when more bytes are needed.
    public mutating func next() -> Item? {
        while true {
            guard let newline = findNewline() else {
                let pending = buffer.count - start
                if discarding {
                    dropConsumed(all: true)
                    return nil
                }
                // One byte of slack: the line may still turn out to end in CR.
                if pending > maxLineLength + 1 {
                    discarding = true
                    dropConsumed(all: true)
                    return .tooLong(number: lineNumber)
                }
                scanned = pending
                dropConsumed(all: false)
                return nil
            }
            let number = lineNumber
            lineNumber += 1
            let lineStart = start
            start = newline + 1
            scanned = 0
            if discarding {
                discarding = false
                continue
            }
            let item = cut(lineStart..<newline, number: number)
            dropConsumed(all: false)
            return item
        }
    }

    /// At the end of the input: the last line when it has no LF, or nil. The framer is empty afterwards.
    public mutating func finish() -> Item? {
        defer {
            buffer.removeAll()
            start = 0
            scanned = 0
            discarding = false
        }
        guard !discarding, start < buffer.count else { return nil }
        let number = lineNumber
        lineNumber += 1
        return cut(start..<buffer.count, number: number)
    }

    private func cut(_ range: Range<Int>, number: Int) -> Item {
        var end = range.upperBound
        if end > range.lowerBound && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end - range.lowerBound > maxLineLength { return .tooLong(number: number) }
        return .line(Array(buffer[range.lowerBound..<end]), number: number)
    }

    private func findNewline() -> Int? {
        let from = start + scanned
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress,
                  let hit = memchr(base + from, 0x0A, bytes.count - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    /// Frees the bytes of finished lines, now and then, so the buffer does not grow with the stream.
    private mutating func dropConsumed(all: Bool) {
        if all || start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
            scanned = 0
        } else if start >= 1 << 16 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
