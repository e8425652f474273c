import Foundation
import RHRTestSupport
import Testing

/// `--store` with a relative path, run from the directory it is relative to: the real binary, so a trap in the
/// path handling shows as what it is, a signal (`rhr status --store a` once ended with SIGILL).
@Suite("rhr --store with relative paths")
struct StorePathTests {
    let rhr: RHRSandbox

    init() throws { rhr = try RHRSandbox() }

    @Test(arguments: [["status", "--store", "a"], ["status", "--store", "x/y"], ["status", "--store", "é"],
                      ["--store", "a"], ["summary", "--store", "b/c/d"]])
    func aRelativeStoreIsTakenRelativeToTheCurrentDirectory(arguments: [String]) throws {
        let result = try rhr.run(arguments)
        // A reading command makes no store: it refuses, in one line that names the store as given, relative.
        let prefix = "rhr" + (arguments[0] == "--store" ? "" : " " + arguments[0]) + ": "
        let store = try #require(arguments.last)
        #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr == "\(prefix)\(store): no store there; rhr import --store \(store) FILE makes one\n")
    }

    @Test func anImportIntoARelativeStoreMakesItsPrivateDirectoriesThere() throws {
        let batches = SourceTree.samples + "/batches/healthconnect-pixel.jsonl"
        let result = try rhr.run(["import", "--store", "x/y/rhr.sqlite", batches])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: rhr.directory.file("x/y/rhr.sqlite")))
        for made in ["x", "x/y"] {
            #expect(FileMode.permissions(rhr.directory.file(made)) == 0o700, "\(made)")
        }
        let here = try rhr.run(["import", "--store", "a", batches])
        #expect(here.status == 0, "\(here.stderr)")
        #expect(FileManager.default.fileExists(atPath: rhr.directory.file("a")))
    }
}
