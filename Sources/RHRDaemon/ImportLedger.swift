import Foundation
import RHRDaemonClient
import RHRFormats
import RHRJSON
import RHRSystem
import Synchronization

/// The folder watch's memory of what it imported, one JSON line per file, in a file beside the store
/// (`rhr.sqlite-imports`, mode 0600): it lives as long as the store does, so a restart does not import
/// a file again. Entries record the store's revision; when the store is older than its ledger (it was
/// deleted and made anew), the ledger is for another store and starts over.
final class ImportLedger: Sendable {
    let path: String
    private struct Memory {
        var hashes: Set<String> = []
        var recent: [WatchImport] = []
    }
    private let memory: Mutex<Memory>
    static let recentCount = 10

    static func path(forStore storePath: String) -> String { storePath + "-imports" }

    init(path: String, storeRevision: Int64, log: ((String) -> Void)?) {
        self.path = path
        memory = Mutex(ImportLedger.load(path: path, storeRevision: storeRevision, log: log))
    }

    private static func load(path: String, storeRevision: Int64, log: ((String) -> Void)?) -> Memory {
        guard let data = FileManager.default.contents(atPath: path) else { return Memory() }
        var entries: [WatchImport] = []
        for line in data.split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)), let object = value.object,
                  let entry = try? WatchImport(members: JSONMembers(object)) else { continue }
            entries.append(entry)
        }
        if let newest = entries.map(\.revision).max(), newest > storeRevision {
            log?("\(path): written for a store at revision \(newest), but the store is at \(storeRevision): it was made anew, so files will be imported again")
            truncate(path, 0)
            return Memory()
        }
        return Memory(hashes: Set(entries.map(\.sha256)), recent: Array(entries.suffix(ImportLedger.recentCount)))
    }

    /// The latest entries, oldest first.
    var recent: [WatchImport] { memory.withLock { $0.recent } }

    func contains(_ sha256: String) -> Bool {
        memory.withLock { $0.hashes.contains(sha256) }
    }

    /// Appends the entry and forces it to disk.
    func record(_ entry: WatchImport) throws(DaemonError) {
        try memory.withLock { memory throws(DaemonError) in
            var line = JSONWriter.bytes(.object(entry.json))
            line.append(0x0A)
            let fd: Int32
            do throws(PrivateFiles.Failure) {
                fd = try PrivateFiles.openForAppending(path)
            } catch {
                throw DaemonError("\(path): cannot record the import: \(error.reason)")
            }
            defer { close(fd) }
            let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == line.count, fsync(fd) == 0 else { throw DaemonError("\(path): cannot record the import: \(errnoText())") }
            memory.hashes.insert(entry.sha256)
            memory.recent.append(entry)
            if memory.recent.count > ImportLedger.recentCount { memory.recent.removeFirst(memory.recent.count - ImportLedger.recentCount) }
        }
    }
}
