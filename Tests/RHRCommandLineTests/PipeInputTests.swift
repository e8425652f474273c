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

    func bash(_ script: String, environment extra: [String: String] = [:]) throws -> SubprocessResult {
        try sandbox.bash(script, environment: extra)
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

/// `rhr import -` reads standard input (docs/design.md section 2): its kind told from its content as a file's is, a pipe
/// streamed or spooled as any pipe is (bounded), a file on it read as that file, and every line naming it "standard
/// input".
@Suite("standard input as an input")
struct StandardInputTests {
    let sandbox: SandboxWithOwnTMPDIR
    init() throws { sandbox = try SandboxWithOwnTMPDIR() }

    func bash(_ script: String) throws -> SubprocessResult { try sandbox.bash(script) }

    @Test("every kind of input imports from cat FILE | rhr import - as from the file", arguments: PipeInputTests.samples.map(\.file))
    func piped(_ sample: String) throws {
        let kind = try #require(PipeInputTests.samples.first { $0.file == sample }?.kind)
        let file = SourceTree.samples + "/" + sample
        let piped = try bash("cat '\(file)' | \"$RHR\" import -")
        #expect(piped.status == 0, "\(piped.stderr)")
        let fromFile = try RHRSandbox().run(["import", file])
        #expect(piped.stdout == fromFile.stdout.replacingOccurrences(of: file + ":", with: "standard input:"), "\(piped.stdout)")
        #expect(piped.stdout.hasPrefix("standard input: \(kind): "), "\(piped.stdout)")
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("a file on standard input is read as that file, a zip and a database too")
    func fileOnStandardInput() throws {
        for (sample, kind) in [("apple-health/export.zip", "Apple Health export (zip)"),
                               ("health-connect/Health Connect.zip", "Health Connect export (zip)")] {
            let result = try bash("\"$RHR\" import - < '\(SourceTree.samples)/\(sample)'")
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("standard input: \(kind): "), "\(result.stdout)")
        }
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("what is wrong with standard input names it; a terminal or a second - is refused before anything is read")
    func refusals() throws {
        let json = try bash("echo '{\"hello\":\"world\"}' | \"$RHR\" import -")
        #expect(json.status == 1)
        #expect(json.stderr.hasPrefix("rhr import: standard input: not a file rhr reads: JSON whose members (hello)"), "\(json.stderr)")
        let batch = try bash("echo '{\"store\":\"healthkit\"}' | \"$RHR\" import -")
        #expect(batch.stderr == "rhr import: standard input: read as a sync batch file (JSON lines): line 1, stream: missing\n",
                "\(batch.stderr)")
        let store = sandbox.rhr.home + "/mine.sqlite"
        #expect(try sandbox.rhr.run(["import", "--store", store, SourceTree.samples + "/batches/healthkit-iphone.jsonl"]).status == 0)
        let piped = try bash("cat '\(store)' | \"$RHR\" import -")
        #expect(piped.stderr == "rhr import: standard input: is an rhr store, not an export; to use it, give its file with --store\n",
                "\(piped.stderr)")
        // A pseudo-terminal's master end is a terminal: nobody would type an export into one.
        let terminal = try bash("\"$RHR\" import - < /dev/ptmx")
        #expect(terminal == SubprocessResult(status: 1, stdout: "", stderr: "rhr import: standard input: is a terminal; pipe a "
            + "file into it (cat export.xml | rhr import -) or give the file's path\n"), "\(terminal.stderr)")
        let twice = try bash("true | \"$RHR\" import - -")
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("rhr import: standard input (-) can be read only once\n"), "\(twice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.rhr.storePath))
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }
}

extension SandboxWithOwnTMPDIR {
    /// Runs a bash command line in the sandbox, with `RHR` naming the built rhr; the whole of it is ended after
    /// 60 s (a reader that opens a FIFO twice would wait for ever).
    func bash(_ script: String, environment extra: [String: String] = [:]) throws -> SubprocessResult {
        let bash = try #require(Subprocess.which("bash")), timeout = try #require(Subprocess.which("timeout"))
        let env = environment.merging(["RHR": try SourceTree.builtProduct("rhr")].merging(extra) { $1 }) { $1 }
        return try Subprocess.run(timeout, ["-s", "KILL", "60", bash, "-c", script], environment: env, directory: rhr.home)
    }
}
