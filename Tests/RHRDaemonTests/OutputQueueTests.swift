import Foundation
@testable import RHRDaemon
import Testing

/// The bounded per-client output queue: replies always go out, events give way to one `resync`.
@Suite("output queue")
struct OutputQueueTests {
    func event(_ n: Int, size: Int = 0) -> [UInt8] {
        Array(#"{"event":"changed","revision":\#(n),"pad":"\#(String(repeating: "x", count: size))"}"#.utf8) + [0x0A]
    }

    func resync(_ dropped: Int) -> [UInt8] { Array(#"{"event":"resync","dropped":\#(dropped)}"#.utf8) + [0x0A] }

    /// Everything the queue writes, read from the other end of a socket pair.
    func drained(_ queue: inout OutputQueue) -> [String] {
        var ends: [Int32] = [-1, -1]
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
        defer { close(ends[0]); close(ends[1]) }
        let flushed = queue.flush(to: ends[0])
        #expect(flushed)
        #expect(queue.isEmpty)
        shutdown(ends[0], Int32(SHUT_WR))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(ends[1], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func eventsOverTheCountGiveWayToOneResyncAndRepliesStay() {
        var queue = OutputQueue()
        queue.append(reply: Array("{\"ok\":true,\"id\":1}\n".utf8))
        for n in 1...3 {
            let overflowed = queue.append(event: event(n), limit: 3, byteLimit: 1 << 20, resync: resync)
            #expect(!overflowed)
        }
        queue.append(reply: Array("{\"ok\":true,\"id\":2}\n".utf8))
        let overflowed = queue.append(event: event(4), limit: 3, byteLimit: 1 << 20, resync: resync)
        #expect(overflowed)
        let fifth = queue.append(event: event(5), limit: 3, byteLimit: 1 << 20, resync: resync)
        #expect(!fifth)
        let written1 = drained(&queue)
        #expect(written1 == [
            #"{"ok":true,"id":1}"#, #"{"ok":true,"id":2}"#, #"{"event":"resync","dropped":4}"#,
            #"{"event":"changed","revision":5,"pad":""}"#,
        ])
    }

    @Test func aSecondOverflowBeforeTheResyncWentOutCountsEveryDroppedEvent() {
        var queue = OutputQueue()
        for n in 1...5 { queue.append(event: event(n), limit: 2, byteLimit: 1 << 20, resync: resync) }
        // 1, 2 queued; 3 overflows (drops 1, 2, 3: resync 3); 4 queued; 5 overflows (drops 4, 5 and the resync).
        let written2 = drained(&queue)
        #expect(written2 == [#"{"event":"resync","dropped":5}"#])
        // Once a resync went out, counting starts again.
        for n in 6...8 { queue.append(event: event(n), limit: 2, byteLimit: 1 << 20, resync: resync) }
        let written3 = drained(&queue)
        #expect(written3 == [#"{"event":"resync","dropped":3}"#])
    }

    @Test func eventsOverTheByteLimitOverflowToo() {
        var queue = OutputQueue()
        let queued = queue.append(event: event(1, size: 600), limit: 100, byteLimit: 1000, resync: resync)
        #expect(!queued)
        let second = queue.append(event: event(2, size: 600), limit: 100, byteLimit: 1000, resync: resync)
        #expect(second)
        #expect(queue.byteCount == 31, "only the resync line")
        let written4 = drained(&queue)
        #expect(written4 == [#"{"event":"resync","dropped":2}"#])
    }
}
