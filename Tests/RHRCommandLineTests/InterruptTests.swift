// Tests of Ctrl-C during an import, with the real binary, a terminal of its own and a FIFO the test feeds.
import Foundation
import RHRTestSupport
import Testing

/// Ctrl-C (SIGINT) during `rhr import` says so on a line of its own, ending the progress bar's open line, and exits with
/// 128 + the signal (130); the store keeps exactly what it held (docs/design.md section 8). The export comes
/// through a FIFO the test writes, so the signal lands while rhr is reading, whatever the machine's speed.
@Suite("Ctrl-C during an import", .serialized)
struct InterruptTests {
    let sandbox: SandboxWithOwnTMPDIR
    init() throws { sandbox = try SandboxWithOwnTMPDIR() }

    /// The start of an Apple Health export, then step-count records rhr passes by, as many as are asked for.
    static let exportHead = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Record*)>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2026-03-14 08:00:00 +0100"/>

        """.utf8)
    static let record = Array((0..<64).map { _ in
        #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jane’s iPhone" unit="count" "#
            + #"creationDate="2026-03-13 08:00:00 +0100" startDate="2026-03-13 07:00:00 +0100" endDate="2026-03-13 07:10:00 +0100" value="412"/>"#
            + "\n"
    }.joined().utf8)

    /// Starts `rhr import ARGS` (the last one a FIFO made here) with stderr on `stderr`, and feeds the FIFO an endless
    /// export until `until` holds (it is asked between writes); the FIFO stays open after.
    func importFeeding(_ arguments: [String], fifo: String, stderr: Subprocess.Stream,
                       until: () -> Bool) throws -> (RunningProcess, Int32) {
        try #require(mkfifo(fifo, 0o600) == 0)
        // Read and write, so the open neither waits for rhr nor fails; never blocking, so rhr's end cannot hold the test.
        let writer = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0)
        let process = try Subprocess.start(try SourceTree.builtProduct("rhr"), ["import"] + arguments + [fifo],
                                           environment: sandbox.environment, directory: sandbox.rhr.home, stderr: stderr)
        var pending = Self.exportHead[...]
        let fed = eventually(timeout: 30, every: 0.005) {
            while true {
                if pending.isEmpty { pending = Self.record[...] }
                let n = pending.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                pending = pending.dropFirst(n)
            }
            return until() || !process.isRunning
        }
        try #require(fed && process.isRunning, "rhr ended or never got there: \(String(describing: process.termination))")
        return (process, writer)
    }

    /// What the store holds, as `rhr export` writes it.
    func exported() throws -> String { try sandbox.rhr.run(["export"]).stdout }

    @Test("on a terminal: the progress line is ended, the note follows on its own line, rhr exits 130")
    func onATerminal() throws {
        #expect(try sandbox.rhr.run(["import", SourceTree.samples + "/batches/healthkit-iphone.jsonl"]).status == 0)
        let before = try exported()
        let terminal = try PseudoTerminal()
        let fifo = sandbox.rhr.directory.file("export.xml")
        let (process, writer) = try importFeeding([], fifo: fifo, stderr: .descriptor(terminal.follower)) {
            terminal.read().contains("export.xml  ")
        }
        defer { close(writer) }
        process.signal(SIGINT)
        #expect(process.waitForExit())
        #expect(process.termination == .exited(130))
        #expect(process.termination?.status == 130)
        let screen = (terminal.read(wait: 1)).replacingOccurrences(of: "\r\n", with: "\n")
        // The bar is redrawn in place ("\r", erase to the end); its last drawing is ended by a line end, then the note.
        let lastDrawing = screen.components(separatedBy: "\r\u{1B}[K").last ?? ""
        #expect(lastDrawing.hasPrefix("export.xml  ") && lastDrawing.contains(" MB read") && !lastDrawing.contains(" 0.0 MB"),
                "\(screen.debugDescription)")
        #expect(lastDrawing.hasSuffix("\nrhr import: interrupted: nothing was imported\n"), "\(screen.debugDescription)")
        #expect(try exported() == before)
        #expect(sandbox.tmp.entries().isEmpty, "left behind: \(sandbox.tmp.entries())")
    }

    @Test("off a terminal, after a file that was imported: the note alone, and that file stays imported")
    func afterAnImportedFile() throws {
        let log = sandbox.rhr.directory.file("import.log")
        let batches = SourceTree.samples + "/batches/healthkit-iphone.jsonl"
        let fifo = sandbox.rhr.directory.file("export.xml")
        let (process, writer) = try importFeeding([batches], fifo: fifo, stderr: .file(log)) {
            // The batches are in once the store holds them.
            (try? exported().split(separator: "\n").count) ?? 0 > 1
        }
        defer { close(writer) }
        process.signal(SIGINT)
        #expect(process.waitForExit())
        #expect(process.termination?.status == 130)
        #expect(sandbox.rhr.log("import.log") == "rhr import: interrupted: nothing more was imported\n")
        let alone = try RHRSandbox()
        #expect(try alone.run(["import", batches]).status == 0)
        #expect(try exported() == (try alone.run(["export"]).stdout))
    }

    /// 40,000 resting values in two batches: a store's write that takes a while.
    static func bigBatchFile() -> String {
        let formatter = ISO8601DateFormatter()
        let days = (0..<1000).map { String(formatter.string(from: Date(timeIntervalSince1970: 1_672_531_200 + Double($0) * 86_400)).prefix(10)) }
        var lines: [String] = []
        for part in 0..<2 {
            var upserts: [String] = []
            for writer in 0..<20 {
                for (day, text) in days.enumerated() {
                    upserts.append(#"{"type":"restingHeartRate","uuid":"U\#(part)-\#(writer)-\#(day)","start":"\#(text)T00:05:00+01:00","#
                        + #""end":"\#(text)T23:40:00+01:00","value":\#(50 + day % 20),"unit":"count/min","source":{"name":"Writer \#(part)-\#(writer)"}}"#)
                }
            }
            let previous = part == 0 ? "null" : "\"c0\""
            lines.append(#"{"store":"healthkit","stream":"big","asOf":"2026-01-01T08:00:00+01:00","cursor":{"previous":\#(previous),"#
                + #""next":"c\#(part)"},"fullResync":false,"upserted":[\#(upserts.joined(separator: ","))],"deleted":[]}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A file of sync batches is read as its batches are applied, inside its transaction (docs/design.md section 8): a
    /// signal while it is read ends rhr at once, and none of it is in the store; only its commit is waited for.
    @Test("during a file of batches read into the store: rhr exits 130 at once, and the store is as it was")
    func duringTheStoresWrite() throws {
        let big = try sandbox.rhr.write("big.jsonl", Self.bigBatchFile())
        let log = sandbox.rhr.directory.file("import.log")
        let process = try Subprocess.start(try SourceTree.builtProduct("rhr"), ["import", big], environment: sandbox.environment,
                                           directory: sandbox.rhr.home, stderr: .file(log))
        // The store is made once the file's first batch reads, and its batches are applied as they are read.
        try #require(eventually(timeout: 60, every: 0.001) { FileManager.default.fileExists(atPath: sandbox.rhr.storePath) })
        process.signal(SIGINT)
        #expect(process.waitForExit(timeout: 60))
        #expect(process.termination == .exited(130))
        // Either the signal came while the file was read (nothing of it is in the store), or during the commit (which
        // it waited for): never half of it.
        let rows = try exported().split(separator: "\n").count
        if rows == 1 {
            #expect(sandbox.rhr.log("import.log") == "rhr import: interrupted: nothing was imported\n")
        } else {
            #expect(rows == 40_001)
            #expect(sandbox.rhr.log("import.log") == "rhr import: interrupted: \(big) was imported; nothing after it\n")
        }
    }
}

/// A pseudo-terminal: what a child writes to its follower end (its stderr, here) is read from the leader end.
final class PseudoTerminal {
    let leader: Int32
    let follower: Int32
    private var text = ""

    /// Swift's Glibc leaves out the pseudo-terminal calls: they are looked up in the C library.
    private typealias Unlock = @convention(c) (Int32) -> Int32
    private typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    init() throws {
        leader = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        guard leader >= 0, let unlock = dlsym(nil, "unlockpt").map({ unsafeBitCast($0, to: Unlock.self) }),
              let ptsname = dlsym(nil, "ptsname_r").map({ unsafeBitCast($0, to: Name.self) }),
              unlock(leader) == 0, ptsname(leader, &name, name.count) == 0 else {
            throw TestFailure("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        follower = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard follower >= 0 else { throw TestFailure("cannot open the pseudo-terminal's follower end") }
        _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(follower)
        close(leader)
    }

    /// Everything written so far; with `wait`, after waiting up to that many seconds for more to stop coming.
    func read(wait: Double = 0) -> String {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var quiet = 0.0
        repeat {
            let n = Glibc.read(leader, &buffer, buffer.count)
            if n > 0 {
                text += String(decoding: buffer[..<n], as: UTF8.self)
                quiet = 0
            } else if wait > 0 {
                usleep(20_000)
                quiet += 0.02
            }
        } while wait > 0 && quiet < min(wait, 0.2)
        return text
    }
}
