import Foundation
import RHRJSON
import Synchronization

/// A file opened for reading with POSIX calls, with errors that say what went wrong in words.
///
/// A path that `FileImporter` opened already as a `OnceReadInput` (a pipe, a FIFO, `<(…)`, which can be read
/// only once) is not opened again: its first bytes, kept when its kind was told, are handed out first, then the
/// rest of the same descriptor.
struct ReadOnlyFile: ByteReading {
    let path: String
    let descriptor: Int32
    /// The size when opened, for progress; 0 for a pipe, whose size nobody knows.
    let size: Int64
    /// The bytes of a once-read input read before this file was opened.
    private let replay: Replay?

    init(path: String) throws(InputError) {
        if let input = OnceReadInput.registered(path) {
            let (fd, head) = try input.claim()
            self.path = path
            self.descriptor = fd
            self.size = 0
            self.replay = Replay(head)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError.cannotOpen(path, code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            Foundation.close(fd)
            throw InputError.cannotRead(path, code: code)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            Foundation.close(fd)
            throw InputError.cannotOpen(path, code: EISDIR)
        }
        self.path = path
        self.descriptor = fd
        self.size = Int64(info.st_size)
        self.replay = nil
    }

    /// Reads up to the buffer's size; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let replay, let n = replay.take(into: buffer) { return n }
        while true {
            let n = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw InputError.cannotRead(path, code: errno)
        }
    }

    func close() { Foundation.close(descriptor) }

    /// Goes on reading at `offset`; false for an input that cannot be read twice (a pipe, whose first bytes were
    /// handed out again already).
    func seek(to offset: Int64) -> Bool {
        replay == nil && lseek(descriptor, off_t(offset), SEEK_SET) >= 0
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter): what tells the kind of a file.
    static func head(path: String, count: Int) throws(InputError) -> [UInt8] {
        if let input = OnceReadInput.registered(path) { return try input.head(count) }
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        return try file.readPrefix(count)
    }

    /// Bytes handed out before the descriptor's own; shared by the copies of one `ReadOnlyFile` value.
    private final class Replay {
        private var bytes: [UInt8]
        private var used = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// Copies what is left of the bytes into `buffer`; nil once they are all handed out.
        func take(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
            guard used < bytes.count else { return nil }
            let n = min(buffer.count, bytes.count - used)
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[used..<(used + n)])) }
            used += n
            return n
        }
    }
}

/// An input that can be read only once, from its first byte to its last: a pipe, a FIFO, `rhr import <(…)`.
/// `FileImporter` opens it once (a FIFO's open waits for its writer, as `cat`'s does), reads its first bytes to tell
/// its kind, and registers it under its path while a reader streams it: `ReadOnlyFile` then hands out those bytes
/// and the rest of the same descriptor, and no reader opens the path a second time.
final class OnceReadInput: Sendable {
    let path: String
    private struct State {
        var descriptor: Int32
        var head: [UInt8] = []
        var claimed = false
    }
    private let state: Mutex<State>

    /// Opens `path` when it is not a regular file (nor a directory); nil for those, which are read as files.
    static func open(_ path: String) throws(InputError) -> OnceReadInput? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG && type != S_IFDIR else { return nil }
        var fd: Int32
        repeat { fd = Foundation.open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw InputError.cannotOpen(path, code: errno) }
        return OnceReadInput(path: path, descriptor: fd)
    }

    /// Standard input (a pipe, a FIFO, a device), named `name` in messages; its descriptor is a copy of 0.
    static func standardInput(named name: String) throws(InputError) -> OnceReadInput {
        let fd = dup(STDIN_FILENO)
        guard fd >= 0 else { throw InputError(path: name, message: "cannot be read: \(String(cString: strerror(errno)))") }
        return OnceReadInput(path: name, descriptor: fd)
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.state = Mutex(State(descriptor: descriptor))
    }

    deinit { state.withLock { _ = Foundation.close($0.descriptor) } }

    /// The first `count` bytes (fewer when the input is shorter), read once and kept.
    func head(_ count: Int) throws(InputError) -> [UInt8] {
        let result: Result<[UInt8], InputError> = state.withLock { state in
            if state.head.count < count && !state.claimed {
                let file = ReadOnlyFile(unowned: path, descriptor: state.descriptor)
                do throws(InputError) { state.head += try file.readPrefix(count - state.head.count) } catch { return .failure(error) }
            }
            return .success(Array(state.head.prefix(count)))
        }
        return try result.get()
    }

    /// The descriptor (a copy, which its reader closes) and the bytes read from it so far, for the one reader.
    fileprivate func claim() throws(InputError) -> (Int32, [UInt8]) {
        let claimed: (Int32, [UInt8])? = state.withLock { state in
            guard !state.claimed else { return nil }
            state.claimed = true
            return (dup(state.descriptor), state.head)
        }
        guard let claimed, claimed.0 >= 0 else {
            throw InputError(path: path, message: "a pipe can be read only once, and this one was read already")
        }
        return claimed
    }

    /// The rest of the input after its head, for copying it whole.
    func remaining(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let fd = state.withLock { $0.descriptor }
        return try ReadOnlyFile(unowned: path, descriptor: fd).read(into: buffer)
    }

    // MARK: - While a reader streams it

    private static let byPath = Mutex<[String: OnceReadInput]>([:])

    /// Makes the input what `ReadOnlyFile` gives for its path, while `body` runs.
    func whileRegistered<T>(_ body: () throws(InputError) -> T) throws(InputError) -> T {
        OnceReadInput.byPath.withLock { $0[path] = self }
        defer { OnceReadInput.byPath.withLock { _ = $0.removeValue(forKey: path) } }
        return try body()
    }

    static func registered(_ path: String) -> OnceReadInput? {
        byPath.withLock { $0[path] }
    }
}

extension ReadOnlyFile {
    /// A descriptor someone else owns and closes, read with the same calls and errors.
    fileprivate init(unowned path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        self.size = 0
        self.replay = nil
    }
}

/// What `JSONStreamScanner` streams a file with.
extension ReadOnlyFile: JSONByteSource {
    func readJSON(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int {
        do { return try read(into: buffer) } catch { throw JSONSourceError(error.message) }
    }

    func seekJSON(to offset: Int64) -> Bool { seek(to: offset) }
}
