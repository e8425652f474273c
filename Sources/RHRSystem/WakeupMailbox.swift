import Foundation
import Synchronization

/// Messages from other threads to a loop that sleeps in `poll(2)`: posting appends under a lock and writes a
/// byte to a pipe whose read end the loop polls, so the loop wakes at once without polling on a timer. The
/// daemon's event loop (`Inbox`) and the dashboard's background loads use it.
///
/// One byte per batch: the loop takes every message at once. Besides messages, a bare wake-up (`interrupt()`,
/// or any byte a signal handler writes to `interruptDescriptor`) tells the loop to look up, e.g. to stop; the
/// hang-up byte (SIGHUP's) tells it something else (`Delivery.hungUp`).
public final class WakeupMailbox<Message: Sendable>: Sendable {
    /// What `take()` hands over.
    public struct Delivery: Sendable {
        public var messages: [Message]
        /// A bare wake-up arrived since the last `take()`.
        public var interrupted: Bool
        /// The hang-up byte arrived since the last `take()`.
        public var hungUp = false
    }

    private struct State {
        var messages: [Message] = []
        var closed = false
    }

    /// Readable when something was posted or the loop was interrupted; for the loop's `poll`.
    public let fileDescriptor: Int32
    /// The pipe's write end, for a signal handler (`write(2)` is async-signal-safe, a lock is not). Only
    /// valid until `close()`.
    public let interruptDescriptor: Int32
    private let state = Mutex(State())

    /// The byte `post` writes; any other byte is an interruption.
    static var messageByte: UInt8 { 0x6D }   // "m"
    /// The byte `interrupt()` writes.
    static var interruptByte: UInt8 { 0x54 }   // "T"
    /// The byte SIGHUP's handler writes (`ShutdownSignals`).
    static var hangUpByte: UInt8 { 0x48 }   // "H"

    /// Opens the pipe (non-blocking, closed on exec); `purpose` names it in the error.
    public init(purpose: String) throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SystemError("cannot create the \(purpose)'s wake-up pipe: \(errnoText())")
        }
        ends.forEach(FileDescriptors.makeNonBlocking)
        fileDescriptor = ends[0]
        interruptDescriptor = ends[1]
    }

    deinit {
        close()
    }

    /// Queues a message for the loop; dropped once the mailbox is closed (a folder import finishing late).
    public func post(_ message: Message) {
        state.withLock { state in
            guard !state.closed else { return }
            state.messages.append(message)
            if state.messages.count == 1 { writeByte(Self.messageByte) }
        }
    }

    /// Wakes the loop without a message; `take()` then says it was interrupted.
    public func interrupt() {
        state.withLock { state in
            if !state.closed { writeByte(Self.interruptByte) }
        }
    }

    /// Under the lock, and never after `close()`: the descriptor's number may belong to another file by then.
    private func writeByte(_ byte: UInt8) {
        var byte = byte
        _ = write(interruptDescriptor, &byte, 1)
    }

    /// Drains the pipe, then takes the messages: everything posted until now.
    public func take() -> Delivery {
        var interrupted = false, hungUp = false
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(fileDescriptor, &buffer, buffer.count)
            if n <= 0 { break }
            if buffer[0..<n].contains(where: { $0 != Self.messageByte && $0 != Self.hangUpByte }) { interrupted = true }
            if buffer[0..<n].contains(Self.hangUpByte) { hungUp = true }
        }
        let messages = state.withLock { state in
            defer { state.messages.removeAll(keepingCapacity: true) }
            return state.messages
        }
        return Delivery(messages: messages, interrupted: interrupted, hungUp: hungUp)
    }

    /// Closes the pipe; later posts are dropped. Safe to call twice.
    public func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            Foundation.close(fileDescriptor)
            Foundation.close(interruptDescriptor)
        }
    }
}
