import Foundation
import RHRDaemon
import RHRDaemonClient
import RHRTestSupport
import Testing

/// The lock beside the tokens file is a private file like the others (docs/design.md section 8).
@Suite("Feed tokens' lock file: private, never through a link")
struct FeedTokenLockTests {
    @Test("A symbolic link where the tokens' lock goes is refused, naming it; the file it points to is never made")
    func aLinkAtTheLockIsRefused() throws {
        let directory = try TemporaryDirectory()
        let tokensPath = FeedTokens.path(forStore: directory.storePath)
        let elsewhere = directory.file("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: tokensPath + ".lock", withDestinationPath: elsewhere)
        let error = try #require(throws: DaemonError.self) { try FeedTokens(path: tokensPath).create(name: "phone") }
        #expect(error.message == "\(tokensPath).lock: cannot be opened: Too many levels of symbolic links")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        #expect(!FileManager.default.fileExists(atPath: tokensPath))
    }

    @Test("The lock is made owner-only")
    func theLockIsPrivate() throws {
        let directory = try TemporaryDirectory()
        let tokensPath = FeedTokens.path(forStore: directory.storePath)
        _ = try FeedTokens(path: tokensPath).create(name: "phone")
        #expect(FileMode.permissions(tokensPath + ".lock") == 0o600)
    }
}
