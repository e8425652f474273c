// `rhr report` in process: the file its extension names, private, and the usage errors before anything is read.
import Foundation
import RHRTestSupport
import Testing

@Suite("rhr report: the trend drawn into the file --output names")
struct ReportCommandTests {
    /// A private home whose store holds the demo's batches.
    let rhr: InProcessRHR
    init() throws { rhr = try InProcessRHR().importing(CommandsOnAStoreTests.batches) }

    @Test("Each extension gives its format, written readable by its owner only, and the line says what it holds",
          arguments: [("trend.pdf", [UInt8]("%PDF-".utf8)), ("trend.svg", [UInt8]("<?xml".utf8)),
                      ("TREND.PNG", [0x89, 0x50, 0x4E, 0x47])])
    func writesTheFormatItsExtensionNames(name: String, magic: [UInt8]) throws {
        let path = rhr.sandbox.directory.file(name)
        let result = rhr.run(["report", "--from", "2026-03-08", "--to", "2026-03-21", "--output", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(path) (1 page): 8 Mar – 21 Mar 2026, 5 writers, one value per day: latest\n")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: magic))
        #expect(FileMode.permissions(path) == 0o600)
    }

    @Test("The aggregation, the paper and the aids are the ones asked for")
    func optionsReachThePage() throws {
        let path = rhr.sandbox.directory.file("lowest.pdf")
        let result = rhr.run(["report", "--aggregate", "lowest", "--page", "letter", "--mean", "--band", "--output", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("one value per day: lowest\n"))
        let pdf = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(pdf.contains("/MediaBox [ 0 0 612 792 ]"), "Letter")
        let text = try Subprocess.run(try #require(Subprocess.which("pdftotext")), [path, "-"]).stdout
        #expect(text.contains("7-day mean") && text.contains("usual range of Oura"))
    }

    @Test("Usage errors before the store is read: no --output, another extension, another paper, days the wrong way")
    func usageErrors() {
        let cases: [([String], String)] = [
            (["report"], "rhr report: needs --output FILE, a .pdf, .svg or .png file"),
            (["report", "--output", "trend.txt"], "rhr report: --output must end in .pdf, .svg or .png, not trend.txt"),
            (["report", "--output", "trend"], "rhr report: --output must end in .pdf, .svg or .png, not trend"),
            (["report", "--page", "a5", "--output", "t.pdf"], "rhr report: --page must be a4 or letter, not a5"),
            (["report", "--from", "2026-03-21", "--to", "2026-03-08", "--output", "t.pdf"],
             "rhr report: --from 2026-03-21 is after --to 2026-03-08"),
            (["report", "trend.pdf"], "rhr report: takes no paths (got trend.pdf); name the file with --output FILE"),
        ]
        for (arguments, message) in cases {
            let result = rhr.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: rhr.sandbox.directory.file("t.pdf")))
    }

    @Test("A --store that names no store fails and writes nothing; a directory that is not there is said")
    func failures() {
        let missing = rhr.sandbox.directory.file("none.sqlite")
        let output = rhr.sandbox.directory.file("t.pdf")
        let noStore = rhr.run(["report", "--store", missing, "--output", output])
        #expect(noStore.status == 1 && noStore.stderr.contains("no store there"), "\(noStore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let nowhere = rhr.run(["report", "--output", rhr.sandbox.directory.file("no/such/dir/t.pdf")])
        #expect(nowhere.status == 1, "\(nowhere.stderr)")
        #expect(nowhere.stderr.hasPrefix("rhr report: \(rhr.sandbox.directory.file("no/such/dir/t.pdf")): cannot write the report: "),
                "\(nowhere.stderr)")
    }
}
