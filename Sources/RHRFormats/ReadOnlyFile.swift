import Foundation

/// A file opened for reading with POSIX calls, with errors that say what went wrong in words.
struct ReadOnlyFile {
    let path: String
    let descriptor: Int32
    /// The size when opened, for progress.
    let size: Int64

    init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError.cannotOpen(path, code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            Foundation.close(fd)
            throw InputError(path: path, message: "cannot be read: \(message)")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            Foundation.close(fd)
            throw InputError.cannotOpen(path, code: EISDIR)
        }
        self.path = path
        self.descriptor = fd
        self.size = Int64(info.st_size)
    }

    /// Reads up to the buffer's size; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while true {
            let n = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw InputError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))")
        }
    }

    func close() { Foundation.close(descriptor) }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter): what tells the kind of a file.
    static func head(path: String, count: Int) throws(InputError) -> [UInt8] {
        let file = try ReadOnlyFile(path: path)
        defer { file.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<count]))
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[..<filled])
    }
}
