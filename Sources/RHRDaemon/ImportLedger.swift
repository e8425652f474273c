import RHRJSON
import Foundation
import RHRFormats

/// The folder watch's memory of what it imported, one JSON line per file, in a file beside the store
/// (`rhr.sqlite-imports`, mode 0600): it lives as long as the store does, so a restart does not import
/// a file again. Entries record the store's revision; when the store is older than its ledger (it was
/// deleted and made anew), the ledger is for another store and starts over.
///
/// `@unchecked Sendable`: after `init` (which runs before the folder watch starts), `hashes` and `recent` are
/// used under `lock` only.
final class ImportLedger: @unchecked Sendable {
    let path: String
    private let lock = NSLock()
    private var hashes: Set<String> = []
    private(set) var recent: [WatchImport] = []
    static let recentCount = 10

    static func path(forStore storePath: String) -> String { storePath + "-imports" }

    init(path: String, storeRevision: Int64, log: ((String) -> Void)?) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        var entries: [WatchImport] = []
        for line in data.split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)), let entry = WatchImport(json: value) else { continue }
            entries.append(entry)
        }
        if let newest = entries.map(\.revision).max(), newest > storeRevision {
            log?("\(path): written for a store at revision \(newest), but the store is at \(storeRevision): it was made anew, so files will be imported again")
            truncate(path, 0)
            return
        }
        for entry in entries { hashes.insert(entry.sha256) }
        recent = Array(entries.suffix(ImportLedger.recentCount))
    }

    func contains(_ sha256: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return hashes.contains(sha256)
    }

    /// Appends the entry and forces it to disk.
    func record(_ entry: WatchImport) throws(DaemonError) {
        lock.lock()
        defer { lock.unlock() }
        var line = JSONWriter.bytes(.object(entry.json))
        line.append(0x0A)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError("\(path): cannot record the import: \(errnoText())") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count, fsync(fd) == 0 else { throw DaemonError("\(path): cannot record the import: \(errnoText())") }
        hashes.insert(entry.sha256)
        recent.append(entry)
        if recent.count > ImportLedger.recentCount { recent.removeFirst(recent.count - ImportLedger.recentCount) }
    }
}
