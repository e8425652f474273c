import Foundation
import RHRSystem
import RHRTestSupport
import Testing

/// Directories only their owner enters, files replaced whole (docs/design.md section 8).
@Suite("Private files: 0700 directories, files replaced whole")
struct PrivateFilesTests {
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory() }

    func mode(_ path: String) -> Int { FileMode.permissions(path) ?? 0 }

    @Test func missingParentsAreMadeOwnerOnly() throws {
        let deep = dir.file("a/b/c")
        try PrivateFiles.makeDirectories(deep)
        for path in [dir.file("a"), dir.file("a/b"), deep] { #expect(mode(path) == 0o700, "\(path)") }
        // Again: nothing to do, no error.
        try PrivateFiles.makeDirectories(deep)
        try Data().write(to: URL(fileURLWithPath: dir.file("file")))
        #expect(throws: PrivateFiles.Failure.self) { try PrivateFiles.makeDirectories(dir.file("file/below")) }
    }

    @Test func aFileIsReplacedWholeOrNotAtAll() throws {
        let path = dir.file("tokens")
        try PrivateFiles.replace(path, with: Array("one\n".utf8), temporary: path + ".new")
        try PrivateFiles.replace(path, with: Array("two\n".utf8), temporary: path + ".new")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
        #expect(mode(path) == 0o600)
        #expect(dir.entries() == ["tokens"])
        // A temporary file that cannot be made leaves the file as it was, and says where.
        let failure = #expect(throws: PrivateFiles.Failure.self) {
            try PrivateFiles.replace(path, with: Array("three\n".utf8), temporary: dir.file("missing/tokens.new"))
        }
        #expect(failure?.path == dir.file("missing/tokens.new"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two\n")
    }

    @Test("A file opened to append to is made 0600 and keeps what it had; a missing directory is named")
    func appendingKeepsWhatWasThere() throws {
        let path = dir.file("ledger")
        for line in ["one\n", "two\n"] {
            let fd = try PrivateFiles.openForAppending(path)
            _ = Array(line.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\ntwo\n")
        #expect(mode(path) == 0o600)
        let failure = #expect(throws: PrivateFiles.Failure.self) { try PrivateFiles.openForAppending(dir.file("missing/ledger")) }
        #expect(failure?.description == "\(dir.file("missing/ledger")): No such file or directory")
    }

    @Test("A lock file is made 0600; a symbolic link in its place is refused and its target never made")
    func aLockIsNeverTakenThroughALink() throws {
        let lock = dir.file("rhr.lock")
        close(try PrivateFiles.openLock(lock))
        #expect(mode(lock) == 0o600)
        try FileManager.default.createSymbolicLink(atPath: dir.file("linked.lock"), withDestinationPath: dir.file("target"))
        let failure = #expect(throws: PrivateFiles.Failure.self) { try PrivateFiles.openLock(dir.file("linked.lock")) }
        #expect(failure?.code == ELOOP)
        #expect(!FileManager.default.fileExists(atPath: dir.file("target")))
    }
}
