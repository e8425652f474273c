import Foundation
import RHRDaemonClient

/// What the daemon still has to write to one client, bounded.
///
/// Messages not yet started wait in `pending`; when the socket takes more, up to 64 KiB of them are joined
/// into `head` and written from there (one `send` for many small events). Replies are never dropped: a
/// client that does not read them stops being read from instead. Events are: when more than `limit` of
/// them (or of their bytes) wait, they are all dropped and one `resync` event takes their place, telling
/// the subscriber to read the store again; a slow subscriber so costs at most a bounded amount of memory
/// and never blocks anyone.
struct OutputQueue {
    struct Message {
        var bytes: [UInt8]
        var isEvent: Bool
    }

    private(set) var head: [UInt8] = []
    private var headOffset = 0
    private var pending: [Message] = []
    private var pendingStart = 0
    private(set) var pendingEvents = 0
    private var pendingEventBytes = 0
    /// Bytes waiting in `head` and `pending`.
    private(set) var byteCount = 0
    /// Replies not yet written whole: what a stopping daemon still waits for (events are no acknowledgements).
    private(set) var unsentReplies = 0
    /// Replies joined into `head`: written once `head` is.
    private var headReplies = 0
    /// Events dropped since the last `resync` was queued.
    private var dropped = 0

    var isEmpty: Bool { byteCount == 0 }

    mutating func append(reply bytes: [UInt8]) {
        pending.append(Message(bytes: bytes, isEvent: false))
        byteCount += bytes.count
        unsentReplies += 1
    }

    /// Queues an event; when `limit` events or `byteLimit` bytes of events wait already, drops them and
    /// queues `resync(dropped)` instead. Returns true when it overflowed.
    @discardableResult
    mutating func append(event bytes: [UInt8], limit: Int, byteLimit: Int, resync: (Int) -> [UInt8]) -> Bool {
        if pendingEvents >= limit || (pendingEvents > 0 && pendingEventBytes + bytes.count > byteLimit) {
            var kept: [Message] = []
            for message in pending[pendingStart...] {
                if message.isEvent {
                    byteCount -= message.bytes.count
                    if !isResync(message.bytes) { dropped += 1 }
                } else {
                    kept.append(message)
                }
            }
            dropped += 1
            pending = kept
            pendingStart = 0
            let notice = resync(dropped)
            pending.append(Message(bytes: notice, isEvent: true))
            byteCount += notice.count
            pendingEvents = 1
            pendingEventBytes = notice.count
            return true
        }
        pending.append(Message(bytes: bytes, isEvent: true))
        byteCount += bytes.count
        pendingEvents += 1
        pendingEventBytes += bytes.count
        return false
    }

    /// `head` went out whole: so did the replies in it.
    private mutating func headWritten() {
        unsentReplies -= headReplies
        headReplies = 0
    }

    private func isResync(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array(#"{"event":"resync""#.utf8))
    }

    /// Writes as much as the socket takes. Returns false when the socket is broken.
    mutating func flush(to fd: Int32) -> Bool {
        while byteCount > 0 {
            if headOffset == head.count {
                headWritten()
                head.removeAll(keepingCapacity: true)
                headOffset = 0
                while pendingStart < pending.count && (head.isEmpty || head.count + pending[pendingStart].bytes.count <= 64 << 10) {
                    let message = pending[pendingStart]
                    head.append(contentsOf: message.bytes)
                    if message.isEvent {
                        pendingEvents -= 1
                        pendingEventBytes -= message.bytes.count
                        if isResync(message.bytes) { dropped = 0 }
                    } else {
                        headReplies += 1
                    }
                    pendingStart += 1
                }
                if pendingStart == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    pendingStart = 0
                }
            }
            let sent = head.withUnsafeBytes { UnixSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[headOffset...])) }
            guard let sent else { return false }
            if sent == 0 { return true }
            headOffset += sent
            byteCount -= sent
        }
        headWritten()
        if head.capacity > 1 << 20 { head = [] } else { head.removeAll(keepingCapacity: true) }
        headOffset = 0
        return true
    }
}
