import Foundation
import RHRTestSupport
import Testing

/// Inputs that are read once, from their first byte to their last: a FIFO, `<(cat export.zip)`. The kind is told
/// from the first bytes read; a zip or a database is spooled to a private, bounded temporary file that is removed
/// afterwards (docs/design.md sections 2 and 8).
@Suite("pipes and FIFOs as inputs")
struct PipeInputTests {
    /// rhr's `TMPDIR` is empty before, and must be empty after.
    let sandbox: SandboxWithOwnTMPDIR
    init() throws { sandbox = try SandboxWithOwnTMPDIR() }

    /// Runs a bash command line in the sandbox, with `RHR` naming the built rhr; the whole of it is ended after
    /// 60 s (a reader that opens a FIFO twice would wait for ever).
    func bash(_ script: String, environment extra: [String: String] = [:]) throws -> SubprocessResult {
        let bash = try #require(Subprocess.which("bash")), timeout = try #require(Subprocess.which("timeout"))
        let env = sandbox.environment.merging(["RHR": try SourceTree.builtProduct("rhr")].merging(extra) { $1 }) { $1 }
        return try Subprocess.run(timeout, ["-s", "KILL", "60", bash, "-c", script], environment: env, directory: sandbox.rhr.home)
    }

    static let samples: [(file: String, kind: String)] = [
        ("apple-health/export-1.xml", "Apple Health export (XML)"),
        ("apple-health/export.zip", "Apple Health export (zip)"),
        ("health-connect/Health Connect.zip", "Health Connect export (zip)"),
        ("batches/healthkit-iphone.jsonl", "sync batches (JSON lines)"),
        ("health-auto-export/HealthAutoExport-2026-03-08-2026-03-14.json", "Health Auto Export JSON"),
        ("phone-feeds/hc-webhook.json", "HC Webhook JSON"),
    ]

    @Test("every kind of input imports from <(cat FILE) as from the file, and nothing is left in TMPDIR",
          arguments: samples.map(\.file))
    func processSubstitution(_ sample: String) throws {
        let kind = try #require(Self.samples.first { $0.file == sample }?.kind)
        let file = SourceTree.samples + "/" + sample
        let piped = try bash("\"$RHR\" import <(cat '\(file)')")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("/dev/fd/"), "\(piped.stdout)")
        #expect(piped.stdout.contains(": \(kind): "), "\(piped.stdout)")
        let fromFile = try RHRSandbox().run(["import", file])
        #expect(fromFile.status == 0)
        // The same records read and the same counts: the line after the file's name.
        let tail = { (line: String) in line.split(separator: ":", maxSplits: 2).dropFirst().joined(separator: ":") }
        #expect(tail(piped.stdout) == tail(fromFile.stdout))
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("a FIFO is read once, as it is written: rhr waits for the writer and does not open it twice")
    func fifo() throws {
        let fifo = sandbox.rhr.directory.file("export.xml")
        try #require(mkfifo(fifo, 0o600) == 0)
        let file = SourceTree.samples + "/apple-health/export-1.xml"
        let result = try bash("bash -c 'sleep 0.2; cat \"\(file)\" > \"\(fifo)\"' & \"$RHR\" import '\(fifo)'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(fifo): Apple Health export (XML): "), "\(result.stdout)")
    }

    @Test("a zip from a pipe is spooled no further than RHR_TEMP_LIMIT, and the spool is removed")
    func spoolIsBounded() throws {
        let file = SourceTree.samples + "/apple-health/export.zip"
        let result = try bash("\"$RHR\" import <(cat '\(file)')", environment: ["RHR_TEMP_LIMIT": "4K"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(": the input from the pipe is larger than 4 KiB, the limit for its temporary copy; "
            + "RHR_TEMP_LIMIT raises it"), "\(result.stderr)")
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("an empty pipe is an empty file")
    func emptyPipe() throws {
        let result = try bash("\"$RHR\" import <(true)")
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix(": the file is empty\n"), "\(result.stderr)")
    }
}
