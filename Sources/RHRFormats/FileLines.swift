import RHRJSON

/// A file read a line at a time, in 1 MiB chunks, never whole: what the line-based readers (sync batches, Health Auto
/// Export CSV) stream their files with. `progress` gets the bytes read of the file's size.
enum FileLines {
    static let chunkSize = 1 << 20

    static func read(_ file: ReadOnlyFile, maxLineLength: Int, progress: ImportProgress?,
                     _ take: (JSONLineFramer.Item) throws(InputError) -> Void) throws(InputError) {
        var framer = JSONLineFramer(maxLineLength: maxLineLength)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var bytesDone: Int64 = 0
        while true {
            let n = try file.read(into: buffer)
            if n == 0 { break }
            framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            while let item = framer.next() { try take(item) }
            bytesDone += Int64(n)
            // A pipe's size is not known (0), and stays so.
            progress?(bytesDone, file.size > 0 ? max(file.size, bytesDone) : 0)
        }
        if let last = framer.finish() { try take(last) }
    }
}
