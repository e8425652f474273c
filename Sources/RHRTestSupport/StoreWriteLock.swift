// Another process holding a store's write lock, as a long `rhr import` does, until the test lets it go.
import Foundation

/// `sqlite3` in a write transaction on a store (`BEGIN IMMEDIATE`), from another process, until `release()`: what a
/// long import looks like to the daemon and to every other writer.
public final class StoreWriteLock {
    private let process: RunningProcess
    private let releaseFile: String
    private let store: String

    /// Returns once the lock is held.
    public init(store: String) throws {
        guard let sqlite3 = Subprocess.which("sqlite3") else { throw TestFailure("sqlite3 is needed; scripts/setup installs it") }
        self.store = store
        releaseFile = store + ".release-lock"
        func quoted(_ path: String) -> String { "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // `.timeout`: the holder waits out the probe below, which holds the lock for an instant, rather than fail.
        process = try Subprocess.start("/bin/sh", ["-c", "(echo '.timeout 5000'; echo 'BEGIN IMMEDIATE;'; "
            + "while [ ! -e \(quoted(releaseFile)) ]; do sleep 0.05; done; echo 'COMMIT;') | \(sqlite3) \(quoted(store))"])
        // Held once another connection cannot take it.
        guard eventually(timeout: 20, { (try? SQLiteFile.execute("BEGIN IMMEDIATE; ROLLBACK;", at: store)) == nil }) else {
            release()
            throw TestFailure("\(store): the write lock was never taken")
        }
    }

    /// Commits and lets the lock go; returns once the holder has ended.
    public func release() {
        _ = FileManager.default.createFile(atPath: releaseFile, contents: nil)
        if !process.waitForExit(timeout: 10) { process.kill() }
        try? FileManager.default.removeItem(atPath: releaseFile)
    }

    deinit { if process.isRunning { release() } }
}
