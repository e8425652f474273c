import Foundation
import RHRCore
import RHRSystem

/// Writes input into a temporary file, never past a limit (docs/design.md section 8: temporary copies are
/// bounded), and stops when the import is cancelled. Errors name the input the user gave, never the copy.
struct BoundedCopy {
    let descriptor: Int32
    let limit: Int64
    /// The file the user named.
    let inputPath: String
    /// What is copied, for the refusal: "health_connect_export.db: the database".
    let what: String
    let isCancelled: (@Sendable () -> Bool)?
    private(set) var written: Int64 = 0

    init(descriptor: Int32, limit: Int64, inputPath: String, what: String, isCancelled: (@Sendable () -> Bool)?) {
        self.descriptor = descriptor
        self.limit = limit
        self.inputPath = inputPath
        self.what = what
        self.isCancelled = isCancelled
    }

    /// The refusal for input larger than the limit, before or while it is copied.
    static func tooLarge(_ what: String, limit: Int64, inputPath: String) -> InputError {
        InputError(path: inputPath, message: "\(what) is larger than \(ByteSize.words(limit)), the limit for its "
            + "temporary copy; \(TemporaryCopyLimit.variable) raises it (such as \(TemporaryCopyLimit.variable)=16G)")
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        guard Int64(bytes.count) <= limit - written else {
            throw BoundedCopy.tooLarge(what, limit: limit, inputPath: inputPath)
        }
        if isCancelled?() == true { throw InputError.transient(inputPath, "the import was stopped") }
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError.transient(inputPath, "cannot write the temporary copy of \(what): \(String(cString: strerror(errno)))")
            }
            done += n
        }
        written += Int64(bytes.count)
    }

    /// Copies `prefix` (bytes already read to recognise the input), then what `read` gives until it gives 0
    /// bytes; `progress` is called every 4 MiB or so.
    mutating func copy(prefix: [UInt8] = [], from read: (UnsafeMutableRawBufferPointer) throws(InputError) -> Int,
                       progress: (() -> Void)? = nil) throws(InputError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1 << 16, prefix.count), alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: prefix)
        try write(UnsafeRawBufferPointer(rebasing: buffer[0..<prefix.count]))
        var sinceReport = 0
        while true {
            let n = try read(buffer)
            if n == 0 { return }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            sinceReport += n
            if sinceReport >= 4 << 20 {
                sinceReport = 0
                progress?()
            }
        }
    }
}
