import Foundation

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
final class AppleHealthBlock: @unchecked Sendable {
    // Owned by one thread at a time: the producer while it fills the block, the scanner after the hand-off.
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
/// a fixed pool of blocks circulates, so memory stays constant whatever the size of the export.
final class AppleHealthBlockHandOff: @unchecked Sendable {
    // Every field is guarded by `condition`.
    private let condition = NSCondition()
    private var free: [AppleHealthBlock]
    private var full: [AppleHealthBlock] = []
    private var cancelled = false

    init(blocks: [AppleHealthBlock]) { free = blocks }

    /// A block to fill, or nil once the scanner has given up.
    func takeFree() -> AppleHealthBlock? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !cancelled { condition.wait() }
        return cancelled ? nil : free.removeLast()
    }

    func putFull(_ block: AppleHealthBlock) {
        condition.lock()
        full.append(block)
        condition.broadcast()
        condition.unlock()
    }

    func takeFull() -> AppleHealthBlock {
        condition.lock()
        defer { condition.unlock() }
        while full.isEmpty { condition.wait() }
        return full.removeFirst()
    }

    func putFree(_ block: AppleHealthBlock) {
        condition.lock()
        free.append(block)
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Reads a source on its own thread into the hand-off, so that reading or inflating overlaps with scanning.
final class AppleHealthProducer: @unchecked Sendable {
    // `source` is used by the producer thread only, from `start` until `done` is signalled.
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
