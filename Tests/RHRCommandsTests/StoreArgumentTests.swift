import Foundation
@testable import RHRCommands
import RHRTestSupport
import Testing

/// What `--store` may name, and what the commands that only read do where there is no store (docs/design.md
/// section 8: refuse before touching; reading never creates).
@Suite("--store: refused before touched, never created by a read")
struct StoreArgumentTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    /// Mode and content: equal before and after means nothing was touched.
    func fingerprint(_ path: String) -> FileFingerprint { FileFingerprint(path) }

    static let readingCommands: [[String]] = [["status"], ["export"], ["summary"], []]

    @Test("a text file given as --store is refused by every command and keeps its mode and content")
    func textFileIsNotAStore() throws {
        let notes = try rhr.sandbox.write("notes.txt", "buy milk\n")
        chmod(notes, 0o644)
        let before = fingerprint(notes)
        for command in Self.readingCommands + [["import", InProcessRHR.sample("batches/healthkit-iphone.jsonl")]] {
            let result = rhr.run(command + ["--store", notes])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("\(notes): not an rhr store (not a SQLite database); nothing was changed"),
                    "\(command): \(result.stderr)")
            #expect(fingerprint(notes) == before, "\(command)")
        }
        #expect(rhr.sandbox.directory.entries() == ["notes.txt"])
    }

    @Test("a mistyped --store is no store: reading commands say so and how to make one, and create nothing")
    func mistypedStore() throws {
        let typo = rhr.sandbox.directory.file("data/rhr/rhr.sqlit")
        for command in Self.readingCommands {
            let result = rhr.run(command + ["--store", typo])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("\(typo): no store there; rhr import --store \(typo) FILE makes one"),
                    "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command)")
        }
        #expect(rhr.sandbox.directory.entries().isEmpty, "no file and no directory was made")
    }

    @Test("before the first import, reading commands show an empty store and make no file or directory")
    func firstRun() throws {
        let status = rhr.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("store: \(rhr.sandbox.storePath) (none yet: rhr import FILE makes it)\n"), "\(status.stdout)")
        let summary = rhr.run(["summary"])
        #expect(summary.status == 0 && summary.stdout.hasPrefix("No data yet."), "\(summary)")
        #expect(rhr.run([]) == summary)
        let export = rhr.run(["export"])
        #expect(export.status == 0 && export.stdout == ExportCommand.header + "\n")
        #expect(rhr.sandbox.directory.entries().isEmpty, "\(rhr.sandbox.directory.entries())")
        // The first import makes it.
        #expect(rhr.run(["import", InProcessRHR.sample("batches/healthkit-iphone.jsonl")]).status == 0)
        #expect(FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }
}
