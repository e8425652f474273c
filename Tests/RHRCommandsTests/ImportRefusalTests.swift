// Tests of what `rhr import` says of a file that is no export: an rhr store, JSON of another kind.
import Foundation
import RHRCore
import RHRTestSupport
import Testing
@testable import RHRCommands

/// A file rhr does not import is named for what it is (docs/design.md section 2): an rhr store is one, with the way to
/// use it; a JSON document that is neither an export nor a batch is "not a file rhr reads", with the kinds rhr knows,
/// and never a syntax error it does not have. Nothing is imported, and no store is made.
@Suite("Import refuses what is no export, naming it")
struct ImportRefusalTests {
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR() }

    static let knownKinds = "rhr reads an Apple Health export (zip or XML), a Health Connect export (zip or .db), "
        + "Health Auto Export JSON or CSV, HC Webhook JSON, or sync batches (JSON lines)"

    @Test func anRHRStoreIsNamedAsOneWithTheWayToUseIt() throws {
        let other = rhr.sandbox.home + "/other.sqlite"
        #expect(rhr.run(["import", "--store", other, InProcessRHR.sample("batches/healthkit-iphone.jsonl")]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let refused = rhr.run(["import", other])
        #expect(refused == SubprocessResult(status: 1, stdout: "", stderr: "rhr import: \(other): is an rhr store, not an export; "
            + "to use it: --store \(other) (rhr --store \(other) shows it)\n"), "\(refused.stderr)")
        // Its own store given to itself: the same words, and neither file changed or made.
        let itself = rhr.run(["import", "--store", other, other])
        #expect(itself.stderr.hasPrefix("rhr import: \(other): is an rhr store, not an export; "), "\(itself.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    @Test(arguments: [
        #"{"hello":"world"}"#,
        // An Oura API pull, pretty-printed over several lines (which a JSON-lines reader would call cut short).
        """
        {
          "data": [
            {"id": "8f9a", "day": "2024-01-02", "lowest_heart_rate": 48, "average_heart_rate": 55.1}
          ],
          "next_token": null
        }
        """,
        "[{\"day\":\"2024-01-02\",\"restingHeartRate\":55}]",
    ])
    func aJSONDocumentOfAnotherKindIsNotAFileRHRReads(_ json: String) throws {
        let path = try rhr.sandbox.write("pull.json", json + "\n")
        let refused = rhr.run(["import", path])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("rhr import: \(path): not a file rhr reads: "), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix(Self.knownKinds + "\n"), "\(refused.stderr)")
        for false_ in ["read as", "sync batch file", "line 1", "expected"] {
            #expect(!refused.stderr.contains(false_), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.storePath))
    }

    @Test func theMembersOfAnObjectAreNamedSoTheFileCanBeRecognised() throws {
        let path = try rhr.sandbox.write("oura.json", #"{"data":[],"next_token":null}"#)
        #expect(rhr.run(["import", path]).stderr == "rhr import: \(path): not a file rhr reads: JSON whose members (data, "
            + "next_token) are none of Health Auto Export's, HC Webhook's or a sync batch's; \(Self.knownKinds)\n")
    }

    /// What is a batch stays one: a line with a batch's members reads as a batch, and its mistakes are named as such.
    @Test func aBatchWithAMistakeIsStillReadAsABatch() throws {
        let missing = try rhr.sandbox.write("b.jsonl", #"{"stream":"iphone","asOf":"2026-03-14T08:00:00+01:00"}"# + "\n")
        #expect(rhr.run(["import", missing]).stderr
            == "rhr import: \(missing): read as a sync batch file (JSON lines): line 1, store: missing\n")
        let broken = try rhr.sandbox.write("c.jsonl", "{\"store\":\n")
        #expect(rhr.run(["import", broken]).stderr.hasPrefix("rhr import: \(broken): read as a sync batch file (JSON lines): line 1"))
    }
}
