import Foundation
import RHRSystem

/// A private copy of a Health Connect database that SQLite opens: the database member of an export zip, or a bare
/// database together with the `-wal` (or `-journal`) beside it, so SQLite applies that log to the copy and never
/// touches the user's files. The copy is 0600 in a fresh 0700 `ScratchDirectory`, no larger than the import's
/// `temporaryCopyLimit`, and removed when the import is done, fails half way, or is ended by a signal.
struct HealthConnectScratchCopy {
    let scratch: ScratchDirectory
    /// The member's name inside the zip; nil for a bare database.
    let member: String?
    /// The member's modification time in the zip, when it says: the moment the export was written.
    let memberModified: Date?

    static let name = "health_connect_export.db"

    /// The copied database.
    var file: String { scratch.file(HealthConnectScratchCopy.name) }

    /// Finds the first member with SQLite's header (its name follows nothing) and copies it out.
    /// `root` is where the private directory is made (the system's temporary directory by default).
    static func extract(zip path: String, root: String, options: ImportOptions,
                        progress: ImportProgress?) throws(InputError) -> HealthConnectScratchCopy {
        let total = fileSize(path)
        let archive = try ArchiveReader(path: path)
        var names: [String] = []
        while let entry = try archive.nextEntry() {
            names.append(entry.name)
            if entry.isDirectory || entry.symlinkTarget != nil { continue }
            let head = try archive.readPrefix(16)
            guard InputKind.isSQLite(head) else { continue }
            let what = "\(entry.name): the database"
            // A size the zip states up front is refused before anything is written.
            if let size = entry.size, size > options.temporaryCopyLimit {
                throw BoundedCopy.tooLarge(what, limit: options.temporaryCopyLimit, inputPath: path)
            }
            let copy = HealthConnectScratchCopy(scratch: try scratchDirectory(root: root, for: path), member: entry.name,
                                                memberModified: entry.modified)
            // The directory goes with `copy` on any error below.
            try copy.write(name, input: path) { (out) throws(InputError) in
                var bounded = BoundedCopy(descriptor: out, limit: options.temporaryCopyLimit, inputPath: path, what: what,
                                          isCancelled: options.isCancelled)
                try bounded.copy(prefix: head, from: { (buffer) throws(InputError) in try archive.read(into: buffer) }) {
                    progress?(min(archive.compressedOffset, total), total)
                }
            }
            progress?(total, total)
            return copy
        }
        throw InputError(path: path, message: "a zip archive without a SQLite database, so not a Health Connect export: "
            + ArchiveReader.memberListing(names))
    }

    /// Copies a bare database and the log beside it (`path-wal` or `path-journal`, `log`) into a private
    /// directory, where SQLite, opening the copy, replays the log's committed changes (or rolls back an
    /// unfinished one) as it would have in the original.
    static func copy(database path: String, log: String, root: String, options: ImportOptions) throws(InputError) -> HealthConnectScratchCopy {
        let copy = HealthConnectScratchCopy(scratch: try scratchDirectory(root: root, for: path), member: nil, memberModified: nil)
        var total: Int64 = 0
        for (source, target) in [(path, name), (path + log, name + log)] {
            let input = try ReadOnlyFile(path: source)
            defer { input.close() }
            try copy.write(target, input: path) { (out) throws(InputError) in
                var bounded = BoundedCopy(descriptor: out, limit: options.temporaryCopyLimit - total, inputPath: path,
                                          what: "the database with its \(log) file", isCancelled: options.isCancelled)
                try bounded.copy(from: { (buffer) throws(InputError) in try input.read(into: buffer) })
                total += bounded.written
            }
        }
        return copy
    }

    /// Creates `name` in the scratch directory and hands its descriptor to `body`; on any error the whole
    /// directory is removed. Errors name `input`, the file the user gave.
    private func write(_ name: String, input: String, _ body: (Int32) throws(InputError) -> Void) throws(InputError) {
        do throws(InputError) {
            let fd: Int32
            do { fd = try scratch.create(name) } catch { throw InputError.transient(input, error.description) }
            defer { close(fd) }
            try body(fd)
        } catch {
            remove()
            throw error
        }
    }

    private static func scratchDirectory(root: String, for path: String) throws(InputError) -> ScratchDirectory {
        do {
            return try ScratchDirectory(root: root, purpose: "health-connect", files: [name])
        } catch {
            throw InputError.transient(path, error.description)
        }
    }

    /// Removes the copy and its directory (and anything SQLite put beside it).
    func remove() {
        scratch.remove()
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
