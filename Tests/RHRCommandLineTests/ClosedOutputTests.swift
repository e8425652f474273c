import Foundation
import RHRTestSupport
import Testing

/// Output that cannot be written (`>&-`, a pipe whose reader is gone) is an ordinary failure: exit 1 and nothing more,
/// never a crash.
@Suite("closed output")
struct ClosedOutputTests {
    static func sandboxWithAStore() throws -> RHRSandbox {
        let rhr = try RHRSandbox()
        try rhr.imported(["import", SourceTree.samples + "/apple-health/export-1.xml"])
        return rhr
    }

    @Test(arguments: [["status"], ["summary"], ["export"], ["export", "--format", "json"], ["token", "list"], ["--version"],
                      ["--help"]])
    func aClosedStdoutExitsOneWithNothingMore(arguments: [String]) throws {
        let rhr = try ClosedOutputTests.sandboxWithAStore()
        let result = try rhr.run(arguments, closed: [1])
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "")
    }

    @Test func aClosedStderrLeavesAGoodRunAtZero() throws {
        let rhr = try ClosedOutputTests.sandboxWithAStore()
        let result = try rhr.run(["status"], closed: [2])
        #expect(result.status == 0)
        #expect(result.stdout.contains("store: "))
    }

    @Test func aFailureWithBothStreamsClosedStillExitsOne() throws {
        let rhr = try RHRSandbox()
        let result = try rhr.run(["import", rhr.home + "/missing.xml"], closed: [1, 2])
        #expect(result.status == 1)
    }
}
