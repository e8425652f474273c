import Foundation
import Synchronization

/// Where the bytes of an export come from: the XML file itself, or its member inside a zip.
protocol AppleHealthByteSource: AnyObject {
    /// Reads up to `count` bytes into `buffer`; 0 only at the end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int
    /// Input consumed so far, in the units of `total` (for a zip: compressed bytes of the archive).
    var consumed: Int64 { get }
    /// The size of the input, for the progress bar.
    var total: Int64 { get }
}

/// One block of input with room in front of it for the bytes the scanner carries over from the block
/// before (an incomplete tag), so that the scanner always sees one contiguous region.
///
/// `@unchecked Sendable`: the block is raw memory owned by one thread at a time, the producer while it fills
/// it and the scanner after `AppleHealthBlockHandOff` passed it on; the compiler cannot follow ownership that
/// moves through a queue, but the hand-off's lock orders every fill before every read.
final class AppleHealthBlock: @unchecked Sendable {
    let memory: UnsafeMutableRawPointer
    let headroom: Int
    let capacity: Int
    var count = 0
    var atEnd = false
    /// `consumed` of the source after this block was filled.
    var consumed: Int64 = 0
    var error: InputError?

    init(headroom: Int, capacity: Int) {
        self.headroom = headroom
        self.capacity = capacity
        memory = UnsafeMutableRawPointer.allocate(byteCount: headroom + capacity, alignment: 64)
    }

    deinit { memory.deallocate() }

    var data: UnsafeMutableRawPointer { memory + headroom }

    /// Fills the block from `source` until it is full or the source ends.
    func fill(from source: AppleHealthByteSource) {
        count = 0
        atEnd = false
        error = nil
        do {
            while count < capacity {
                let n = try source.read(into: data + count, count: capacity - count)
                if n == 0 { atEnd = true; break }
                count += n
            }
        } catch {
            self.error = error
        }
        consumed = source.consumed
    }
}

/// A bounded hand-off of blocks between a producer thread (reading or inflating) and the scanning thread:
/// a fixed pool of blocks circulates, so memory stays constant whatever the size of the export. Each list
/// has a semaphore counting its blocks, so a taker waits until there is one.
final class AppleHealthBlockHandOff: Sendable {
    private struct Lists {
        var free: [AppleHealthBlock]
        var full: [AppleHealthBlock] = []
        var cancelled = false
    }
    private let lists: Mutex<Lists>
    // Both start at 0 and are signalled up: libdispatch refuses to free a semaphore below its initial value.
    private let freeCount = DispatchSemaphore(value: 0)
    private let fullCount = DispatchSemaphore(value: 0)

    init(blocks: [AppleHealthBlock]) {
        lists = Mutex(Lists(free: blocks))
        for _ in blocks { freeCount.signal() }
    }

    /// A block to fill, or nil once the scanner has given up.
    func takeFree() -> AppleHealthBlock? {
        freeCount.wait()
        return lists.withLock { $0.cancelled ? nil : $0.free.removeLast() }
    }

    func putFull(_ block: AppleHealthBlock) {
        lists.withLock { $0.full.append(block) }
        fullCount.signal()
    }

    func takeFull() -> AppleHealthBlock {
        fullCount.wait()
        return lists.withLock { $0.full.removeFirst() }
    }

    func putFree(_ block: AppleHealthBlock) {
        lists.withLock { $0.free.append(block) }
        freeCount.signal()
    }

    /// Wakes a producer waiting for a free block; from now on it gets none.
    func cancel() {
        lists.withLock { $0.cancelled = true }
        freeCount.signal()
    }
}

/// Reads a source on its own thread into the hand-off, so that reading or inflating overlaps with scanning.
///
/// `@unchecked Sendable`: `source` (a file or an archive being inflated: not thread-safe) is used by the
/// producer thread only, from `start` until `done` is signalled, and by the scanning thread only before and
/// after; the compiler cannot see that hand-over in time.
final class AppleHealthProducer: @unchecked Sendable {
    private let source: AppleHealthByteSource
    private let handOff: AppleHealthBlockHandOff
    private let done = DispatchSemaphore(value: 0)

    init(source: AppleHealthByteSource, handOff: AppleHealthBlockHandOff) {
        self.source = source
        self.handOff = handOff
    }

    func start() {
        let thread = Thread { [self] in
            while let block = handOff.takeFree() {
                block.fill(from: source)
                handOff.putFull(block)
                if block.atEnd || block.error != nil { break }
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Stops the producer (when the scanner ended early) and waits until it no longer touches the source.
    func finish() {
        handOff.cancel()
        done.wait()
    }
}
