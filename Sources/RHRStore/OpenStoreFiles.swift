import Foundation
import Synchronization

/// The store files this process has SQLite connections on, by device and inode, so that rhr never opens and closes
/// such a file itself.
///
/// SQLite locks a database with POSIX advisory locks, and POSIX drops every lock a process holds on a file when the
/// process closes *any* descriptor of it. One `open`/`close` of the store (to read its header) beside a live
/// connection silently took that connection's locks: the next `rhr import` in another shell, closing, found itself
/// the last user, checkpointed, and removed the `-wal` and `-shm` the connection still had open. From then on the
/// connection read an index nobody wrote (a dashboard showed one revision for ever) or wrote into a log nobody
/// reads (docs/design.md section 8). SQLite keeps its own descriptors of one file together; this keeps rhr's own
/// look at the file out of the way while any is open.
enum OpenStoreFiles {
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private static let open = Mutex<[FileID: Int]>([:])

    /// A connection on `path` opened: until `closed(_:)`, nothing in this process opens the file outside SQLite.
    static func opened(_ path: String) -> FileID? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let id = FileID(info)
        open.withLock { $0[id, default: 0] += 1 }
        return id
    }

    static func closed(_ id: FileID) {
        open.withLock { files in
            files[id, default: 1] -= 1
            if files[id] == 0 { files[id] = nil }
        }
    }

    /// Runs `look` (which opens and closes the file) unless a connection of this process is open on the file `id`;
    /// nil then. No connection can open on it meanwhile: one that did could take a lock the close would drop.
    static func unlessOpen<T>(_ id: FileID, _ look: () throws(StoreError) -> T) throws(StoreError) -> T? {
        try open.withLock { (files: inout [FileID: Int]) throws(StoreError) -> T? in
            files[id] == nil ? try look() : nil
        }
    }
}
