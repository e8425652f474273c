import CSQLite
import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRStore

/// How a store is opened: many processes creating one new store at once, files that are not rhr's refused
/// before anything touches them, and stores opened for reading only (docs/design.md section 8).
@Suite("Store opening")
struct StoreOpeningTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// The mode, whole content and neighbours of a file (`-wal`, `-journal`): equal before and after means nothing
    /// was touched.
    struct Untouched: Equatable {
        var file: FileFingerprint
        var neighbours: [String]
    }

    func fingerprint(_ path: String) throws -> Untouched {
        let name = PathText.lastComponent(path)
        return Untouched(file: FileFingerprint(path), neighbours: directory.entries().filter { $0 != name && $0.hasPrefix(name) })
    }

    @Test("threads creating one new store at once all open it, round after round")
    func concurrentFirstOpen() throws {
        let failures = Recorder<String>()
        for round in 0..<40 {
            let path = directory.file("new-\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let store = try HealthDatabase(path: path, machineZone: utc)
                    _ = try store.revision()
                } catch {
                    failures.append("round \(round): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all.prefix(3))")
    }

    @Test("a text file given as the store is refused and left exactly as it was")
    func textFileUntouched() throws {
        let path = try directory.write("notes.txt", "buy milk\n")
        chmod(path, 0o644)
        let before = try fingerprint(path)
        #expect { try HealthDatabase(path: path, machineZone: utc) } throws: { error in
            (error as? StoreError)?.message == "\(path): not an rhr store (not a SQLite database); nothing was changed"
        }
        #expect { try HealthDatabase.reading(path: path, machineZone: utc) } throws: { error in
            (error as? StoreError)?.message == "\(path): not an rhr store (not a SQLite database); nothing was changed"
        }
        #expect(try fingerprint(path) == before)
    }

    @Test("another program's SQLite database is refused before it is switched to WAL or made private")
    func foreignDatabaseUntouched() throws {
        let path = directory.file("other.sqlite")
        try SQLiteFile.execute("CREATE TABLE steps(n INTEGER); INSERT INTO steps VALUES (1)", at: path)
        chmod(path, 0o644)
        let before = try fingerprint(path)
        for open in [{ _ = try HealthDatabase(path: path, machineZone: utc) },
                     { _ = try HealthDatabase.reading(path: path, machineZone: utc) }] {
            #expect(throws: StoreError(.database, "\(path): not an rhr store (it holds other tables); nothing was changed"),
                    performing: open)
            #expect(try fingerprint(path) == before)
        }
        // Still in rollback-journal mode: bytes 18 and 19 of the header are 1 (2 would be WAL).
        let header = try #require(try FileHandle(forReadingAtPath: path)?.read(upToCount: 20))
        #expect(Array(header[18...19]) == [1, 1])
    }

    @Test("opened for reading, a path without a store is no store, and an empty file no store rhr made: nothing is created")
    func readingCreatesNothing() throws {
        let path = directory.file("typo.sqlite")
        #expect(try HealthDatabase.reading(path: path, machineZone: utc) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        let empty = try directory.write("empty.sqlite", "")
        #expect(throws: StoreError(.database, "\(empty): not an rhr store (an empty file); nothing was changed; rhr makes a new "
            + "store only where there is no file")) { try HealthDatabase.reading(path: empty, machineZone: utc) }
        #expect(directory.entries() == ["empty.sqlite"])
    }

    @Test("a store opened for reading reads what a writer stored, and cannot write")
    func readingSeesTheStore() throws {
        let path = directory.storePath
        let writer = try HealthDatabase(path: path, machineZone: utc)
        _ = try writer.apply(export("2026-11-29 08:00:00 +0100", [hk("2026-11-28 00:10:00 +0100", "2026-11-28 23:00:00 +0100", 58)]))
        let reader = try #require(try HealthDatabase.reading(path: path, machineZone: utc))
        #expect(try reader.days(aggregation: .latest).map(\.bpm) == [58])
        #expect(throws: StoreError.self) {
            try reader.apply(export("2026-11-30 08:00:00 +0100", []))
        }
        // A write after the reader opened is seen by its next read: it is not a frozen copy. (The newer export
        // no longer holds the 28th: a snapshot, R4.)
        _ = try writer.apply(export("2026-11-30 08:00:00 +0100", [hk("2026-11-29 00:10:00 +0100", "2026-11-29 23:00:00 +0100", 60)]))
        #expect(try reader.days(aggregation: .latest).map(\.bpm) == [60])
    }
}
