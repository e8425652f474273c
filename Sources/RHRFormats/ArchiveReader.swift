import CArchive
import Foundation

/// Reads the members of a zip (ZIP64 included) through libarchive, one after another, streaming.
/// Not thread-safe: one reader, one thread.
public final class ArchiveReader: ByteReading {
    public struct Entry: Sendable, Hashable {
        public var name: String
        /// The member's modification time when the archive says it (a zip's DOS time is read in the
        /// machine's zone unless an extended-timestamp field gives it in UTC).
        public var modified: Date? = nil
        /// Its uncompressed size when the archive says it up front (a streamed zip may not).
        public var size: Int64? = nil
        /// Where a member that is a symbolic link points (`zip -y` stores links as links); nil for others.
        public var symlinkTarget: String? = nil

        /// A directory entry: it holds nothing to read.
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    public let path: String
    private let handle: OpaquePointer

    /// `seekable`: read the members as the zip's central directory lists them, seeking from one to the next
    /// (a regular file only); else streamed from the first byte, as a reader of the whole member does.
    public init(path: String, seekable: Bool = false) throws(InputError) {
        guard let a = archive_read_new() else { throw InputError(path: path, message: "libarchive could not start") }
        if seekable {
            archive_read_support_format_zip_seekable(a)
        } else {
            archive_read_support_format_zip(a)
        }
        archive_read_support_filter_none(a)
        guard archive_read_open_filename(a, path, 1 << 20) == ARCHIVE_OK else {
            let message = ArchiveReader.errorText(a)
            archive_read_free(a)
            throw InputError(path: path, message: ArchiveReader.damaged(message))
        }
        self.path = path
        self.handle = a
    }

    deinit { archive_read_free(handle) }

    /// Bytes of the archive file consumed so far: the position errors name.
    public var compressedOffset: Int64 { archive_filter_bytes(handle, -1) }

    /// The next member, or nil after the last one.
    public func nextEntry() throws(InputError) -> Entry? {
        var entry: OpaquePointer?
        let status = archive_read_next_header(handle, &entry)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw failure()
        }
        let name = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        let modified = archive_entry_mtime_is_set(entry) != 0
            ? Date(timeIntervalSince1970: Double(archive_entry_mtime(entry))) : nil
        let size = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
        // AE_IFLNK is a cast macro Swift cannot import.
        let link = archive_entry_filetype(entry) & 0o170000 == 0o120000
            ? archive_entry_symlink(entry).map { String(cString: $0) } ?? "" : nil
        return Entry(name: name, modified: modified, size: size, symlinkTarget: link)
    }

    /// Reads the current member's data; 0 at its end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let n = archive_read_data(handle, base, buffer.count)
        if n < 0 { throw failure() }
        return n
    }

    private func failure() -> InputError {
        InputError(path: path, offset: compressedOffset, message: ArchiveReader.damaged(ArchiveReader.errorText(handle)))
    }

    /// What to do about a zip libarchive cannot read: such a zip was almost always cut short on its way from the
    /// phone. libarchive's reason is kept, without its error number: "ZIP decompression failed (-5)".
    static func damaged(_ reason: String) -> String {
        var reason = reason
        if reason.hasSuffix(")"), let open = reason.range(of: " (", options: .backwards),
           Int(reason[open.upperBound..<reason.index(before: reason.endIndex)]) != nil {
            reason = String(reason[..<open.lowerBound])
        }
        return "the zip is truncated or damaged (\(reason)); copy it again from the phone"
    }

    private static func errorText(_ a: OpaquePointer) -> String {
        archive_error_string(a).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    /// "its members are a, b, c, d, e, …" or "it has no members": for an error about a zip that lacks what was sought.
    static func memberListing(_ names: [String]) -> String {
        guard !names.isEmpty else { return "it has no members" }
        return "its members are " + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
    }

    /// Whether a file starts like a zip archive.
    public static func looksLikeZip(_ head: [UInt8]) -> Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && (head[2] == 3 || head[2] == 5 || head[2] == 7)
    }
}
