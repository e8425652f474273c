import Foundation

/// Messages from the store thread, the folder watch and parsers to the event loop. Posting appends under a
/// lock and writes a byte to a pipe the loop polls, so the loop wakes without polling on a timer.
///
/// `@unchecked Sendable`: `messages` and `closed` are used under `lock` only; the descriptors never change.
final class Inbox: @unchecked Sendable {
    enum Message: Sendable {
        /// A long request line, parsed off the loop.
        case decoded(connection: Int, RequestDecoder.Decoded)
        /// A store request's reply, and what it changed.
        case answered(connection: Int, StoreAnswer)
        /// The folder watch imported (or skipped) a file.
        case imported(WatchImport, externalRevision: Int64?)
        /// The store's revision moved without the daemon.
        case externalChange(revision: Int64)
    }

    static let messageByte: UInt8 = 0x6D   // "m"
    static let stopByte: UInt8 = 0x54      // "T": stop() and the SIGTERM/SIGINT handler

    let readFD: Int32
    let writeFD: Int32
    private let lock = NSLock()
    // Guarded by `lock`.
    private var messages: [Message] = []
    private var closed = false

    init() throws(DaemonError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw DaemonError("cannot create the daemon's wake-up pipe: \(errnoText())")
        }
        UnixSocket.makeNonBlocking(ends[0])
        UnixSocket.makeNonBlocking(ends[1])
        readFD = ends[0]
        writeFD = ends[1]
    }

    /// Queues a message for the loop; dropped once the loop has stopped (a folder import finishing late).
    func post(_ message: Message) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        let wasEmpty = messages.isEmpty
        messages.append(message)
        // One byte per batch of messages: the loop takes them all at once.
        if wasEmpty { writeByte(Inbox.messageByte) }
    }

    func wake(_ byte: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        if !closed { writeByte(byte) }
    }

    /// Never after `close()`: the descriptor's number may belong to another file by then.
    private func writeByte(_ byte: UInt8) {
        var byte = byte
        _ = write(writeFD, &byte, 1)
    }

    /// Drains the pipe, then takes the messages: the pipe's bytes and everything posted until now.
    func take() -> (bytes: [UInt8], messages: [Message]) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(readFD, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        lock.lock()
        defer { lock.unlock() }
        let taken = messages
        messages.removeAll(keepingCapacity: true)
        return (bytes, taken)
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        ShutdownSignals.uninstall(wakeFD: writeFD)
        Foundation.close(readFD)
        Foundation.close(writeFD)
    }
}
