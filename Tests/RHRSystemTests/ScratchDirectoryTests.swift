import Foundation
import RHRSystem
import RHRTestSupport
import Testing

/// Scratch directories of an rhr killed outright are removed by the next one; a live one's never are
/// (docs/design.md section 8).
@Suite("Scratch directories: what an rhr killed outright left behind")
struct ScratchDirectoryTests {
    let root: TemporaryDirectory
    init() throws { root = try TemporaryDirectory(prefix: "rhr-scratch-root") }

    /// A directory as a killed rhr leaves it: its copy, and an `.owner` it wrote that nobody locks any more.
    func abandoned(_ name: String, owner: String? = "4242\n") throws -> String {
        let directory = root.file(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Data("health data".utf8).write(to: URL(fileURLWithPath: directory + "/health_connect_export.db"))
        if let owner { try Data(owner.utf8).write(to: URL(fileURLWithPath: directory + "/.owner")) }
        return directory
    }

    @Test func anAbandonedDirectoryGoesAndALiveOneStays() throws {
        let live = try ScratchDirectory(root: root.path, purpose: "demo", files: ["rhr.sqlite"])
        let gone = try abandoned("rhr-health-connect-4242-AbCdEf")
        let unlocked = try abandoned("rhr-health-connect-4243-AbCdEf", owner: "")
        let older = try abandoned("rhr-pipe-4244-AbCdEf", owner: nil)
        let notOurs = try abandoned("other-4245", owner: "4245\n")
        try FileManager.default.createSymbolicLink(atPath: root.file("rhr-link-4246-AbCdEf"), withDestinationPath: gone)

        TemporaryFiles.removeAbandoned(in: root.path)

        #expect(!FileManager.default.fileExists(atPath: gone))
        // The live directory's owner holds its lock, even against a sweep from its own process.
        #expect(FileManager.default.fileExists(atPath: live.path + "/.owner"))
        // An `.owner` not written yet (its maker may be between open and lock), none at all, another name, a link.
        for kept in [unlocked, older, notOurs] { #expect(FileManager.default.fileExists(atPath: kept), "\(kept)") }
        #expect(root.entries().contains("rhr-link-4246-AbCdEf"))
        live.remove()
        #expect(!FileManager.default.fileExists(atPath: live.path))
    }

    @Test func makingAScratchDirectorySweepsItsRootFirst() throws {
        let gone = try abandoned("rhr-health-connect-4242-XyZxYz")
        let scratch = try ScratchDirectory(root: root.path, purpose: "pipe", files: ["spool"])
        defer { scratch.remove() }
        #expect(!FileManager.default.fileExists(atPath: gone))
        #expect(root.entries() == [URL(fileURLWithPath: scratch.path).lastPathComponent])
        let owner = try String(contentsOfFile: scratch.path + "/.owner", encoding: .utf8)
        #expect(owner == "\(getpid())\n")
    }
}
