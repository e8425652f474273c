import Foundation

/// The database member of a Health Connect export zip, extracted to a private temporary file so SQLite can
/// open it: the file is 0600 inside a fresh 0700 directory, and both are removed when the import is done,
/// also when it fails half way.
struct HealthConnectScratchCopy {
    /// The private directory holding the copy.
    let directory: String
    /// The extracted database.
    let file: String
    /// The member's name inside the zip.
    let member: String
    /// The member's modification time in the zip, when it says: the moment the export was written.
    let memberModified: Date?

    /// Finds the member by its SQLite header (its name follows nothing) and copies it out.
    /// `root` is where the private directory is made (the system's temporary directory by default).
    static func extract(zip path: String, root: String, progress: ImportProgress?) throws(InputError) -> HealthConnectScratchCopy {
        let total = HealthConnectScratchCopy.fileSize(path)
        let archive = try ArchiveReader(path: path)
        var names: [String] = []
        var found: HealthConnectScratchCopy?
        do throws(InputError) {
            while let entry = try archive.nextEntry() {
                names.append(entry.name)
                if entry.name.hasSuffix("/") || found != nil { continue }
                let head = try archive.readPrefix(16)
                guard InputKind.isSQLite(head) else { continue }
                let directory = try makePrivateDirectory(root: root, errorPath: path)
                let copy = HealthConnectScratchCopy(directory: directory, file: directory + "/health_connect_export.db",
                                                    member: entry.name, memberModified: entry.modified)
                found = copy
                try copy.write(head: head, from: archive, zipPath: path, total: total, progress: progress)
            }
        } catch {
            found?.remove()
            throw error
        }
        guard let found else {
            throw InputError(path: path, message: "a zip archive without a SQLite database, so not a Health Connect export: "
                + ArchiveReader.memberListing(names))
        }
        progress?(total, total)
        return found
    }

    /// Removes the copy and its directory (and anything SQLite might have put beside it).
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(head: [UInt8], from archive: ArchiveReader, zipPath: String, total: Int64,
                       progress: ImportProgress?) throws(InputError) {
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InputError(path: zipPath, message: "cannot create a private temporary file: \(HealthConnectScratchCopy.errnoText())") }
        defer { close(fd) }
        // The umask can only narrow the mode; set it anyway so the copy is exactly owner read/write.
        guard fchmod(fd, 0o600) == 0 else {
            throw InputError(path: zipPath, message: "cannot make the temporary file private: \(HealthConnectScratchCopy.errnoText())")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: head)
        try writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<head.count]), zipPath: zipPath)
        var sinceReport = 0
        while true {
            let n = try archive.read(into: buffer)
            if n == 0 { break }
            try writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[0..<n]), zipPath: zipPath)
            sinceReport += n
            if sinceReport >= 4 << 20, let progress {
                sinceReport = 0
                progress(min(archive.compressedOffset, total), total)
            }
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, zipPath: String) throws(InputError) {
        var written = 0
        while written < bytes.count {
            let w = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if w < 0 {
                if errno == EINTR { continue }
                throw InputError(path: zipPath, message: "cannot write the temporary copy of the database: \(HealthConnectScratchCopy.errnoText())")
            }
            written += w
        }
    }

    /// A fresh directory only the owner can enter (`mkdtemp` makes it 0700).
    private static func makePrivateDirectory(root: String, errorPath: String) throws(InputError) -> String {
        var template = Array((root.hasSuffix("/") ? root : root + "/").utf8CString.dropLast())
        template += Array("rhr-health-connect-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else {
            throw InputError(path: errorPath, message: "cannot create a private temporary directory in \(root): \(errnoText())")
        }
        let directory = String(cString: made)
        guard chmod(directory, 0o700) == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw InputError(path: errorPath, message: "cannot make the temporary directory private: \(errnoText())")
        }
        return directory
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
