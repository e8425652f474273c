/// Something read front to back in pieces of any size: a file (`ReadOnlyFile`), a zip member (`ArchiveReader`).
protocol ByteReading {
    /// Reads up to the buffer's size; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
}

extension ByteReading {
    /// Reads until `count` bytes or the end: a file's or a member's first bytes, which tell what it is.
    func readPrefix(_ count: Int) throws(InputError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<count]))
            if n == 0 { break }
            filled += n
        }
        return Array(buffer[..<filled])
    }
}
