// The report's pages: the demo's SVG against a committed one, the PDF's text, a PNG's size, the same bytes each time.
import Foundation
import RHRCore
import RHRDashboard
import RHRFormats
@testable import RHRReport
import RHRLive
import RHRStore
import RHRTestSupport
import Testing

/// Stores built the way `rhr demo` and `rhr import` build them (the real readers, the real store), read the way the
/// dashboard and `rhr report` read them.
enum ReportStores {
    static let demoFrom = LocalDay("2026-03-08")!
    static let demoTo = LocalDay("2026-03-21")!

    /// A store of `files` (paths below `Samples/`), its days placed in UTC.
    static func store(_ files: [String], in directory: TemporaryDirectory) throws -> HealthDatabase {
        let store = try directory.store()
        for file in files {
            _ = try store.apply(try FileImporter.read(path: SourceTree.samples + "/" + file).batches)
        }
        return store
    }

    /// The demo's store: the sample batches `rhr demo` imports.
    static func demo(in directory: TemporaryDirectory) throws -> HealthDatabase {
        let names = try FileManager.default.contentsOfDirectory(atPath: SourceTree.samples + "/batches").sorted()
        return try store(names.map { "batches/" + $0 }, in: directory)
    }

    static func report(_ store: HealthDatabase, _ request: TrendReport.Request = TrendReport.Request()) throws -> TrendReport {
        let data = try DashboardLoader.load(store, source: "test", from: request.from?.adding(days: -TrendReport.lookBackDays),
                                            to: request.to)
        return TrendReport(DashboardIndex(data), request)
    }

    static func demoReport(in directory: TemporaryDirectory) throws -> TrendReport {
        try report(demo(in: directory), TrendReport.Request(from: demoFrom, to: demoTo))
    }

    /// `pdftotext`'s words of a PDF, each run of white space one space.
    static func text(ofPDF bytes: [UInt8], in directory: TemporaryDirectory) throws -> String {
        let path = try directory.write("report.pdf", bytes)
        let tool = try #require(Subprocess.which("pdftotext"), "pdftotext (poppler-utils, scripts/setup) is missing")
        let result = try Subprocess.run(tool, [path, "-"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A PNG's width and height, from its header.
    static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }
}

@Suite("Report: the trend drawn on pages, from what the dashboard shows")
struct ReportTests {
    static let golden = PathText.parent(#filePath) + "/Golden/demo-2026-03-08-to-2026-03-21.svg"

    @Test("The demo store's SVG for 8–21 Mar 2026 is the committed one (RHR_UPDATE_GOLDEN=1 writes it anew)")
    func demoSVGIsTheGoldenOne() throws {
        let directory = try TemporaryDirectory()
        let rendered = try ReportRenderer.render(try ReportStores.demoReport(in: directory), format: .svg, page: .a4)
        if ProcessInfo.processInfo.environment["RHR_UPDATE_GOLDEN"] == "1" {
            try Data(rendered.files[0]).write(to: URL(fileURLWithPath: Self.golden))
        }
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.golden)))
        #expect(rendered.pages == 1)
        #expect(rendered.files[0] == expected, """
            the demo's SVG differs from \(Self.golden): look at both (a browser shows them), then, if the new one is \
            right, run RHR_UPDATE_GOLDEN=1 swift test --filter demoSVGIsTheGoldenOne
            """)
    }

    @Test("The same store gives the same SVG, PDF and PNG bytes, whatever the process drew before")
    func sameBytesEveryTime() throws {
        let directory = try TemporaryDirectory()
        let report = try ReportStores.demoReport(in: directory)
        let svg = try ReportRenderer.render(report, format: .svg, page: .a4).files
        let pdf = try ReportRenderer.render(report, format: .pdf, page: .a4).files
        let png = try ReportRenderer.render(report, format: .png, page: .a4).files
        // Other drawings in between: cairo counts its surfaces over the whole process.
        _ = try ReportRenderer.render(report, format: .png, page: .letter)
        var other = report.request
        other.view.showMean = true
        _ = try ReportRenderer.render(try ReportStores.report(try directory.store(), other), format: .svg, page: .letter)
        #expect(try ReportRenderer.render(report, format: .svg, page: .a4).files == svg)
        #expect(try ReportRenderer.render(report, format: .pdf, page: .a4).files == pdf)
        #expect(try ReportRenderer.render(report, format: .png, page: .a4).files == png)
        let text = String(decoding: pdf[0], as: UTF8.self)
        #expect(text.contains("/CreationDate (20260321000000Z)"), "the newest read's day, not the time it was made")
    }

    @Test("The PDF's text holds every writer, its store and derivation, every flag and why, when each store was read")
    func pdfTextHoldsWritersDerivationsAndFlags() throws {
        let directory = try TemporaryDirectory()
        let report = try ReportStores.demoReport(in: directory)
        let text = try ReportStores.text(ofPDF: try ReportRenderer.render(report, format: .pdf, page: .a4).files[0],
                                         in: directory)
        let words = { (s: String) in s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(report.series.count == 5)
        for series in report.series {
            #expect(text.contains("\(series.number) \(series.shortName)"), "\(series.shortName)")
            #expect(text.contains(words(series.derivation.summary)), "\(series.shortName)'s derivation")
            #expect(text.contains(words(series.derivation.sources[0].title)), "\(series.shortName)'s source")
            #expect(text.contains(series.daysWords), "\(series.shortName)'s days")
        }
        #expect(text.contains("HealthKit estimate"))
        #expect(text.contains("written by Oura (Health Connect)"))
        for (flag, writer, days) in [(DayFlag.provisional, "Jane’s Apple Watch", "2 days (20 Mar 2026, 21 Mar 2026)"),
                                     (.offsetAssumed, "Oura", "1 day (21 Mar 2026)"),
                                     (.outOfRange, "Sleep Tracker", "1 day (19 Mar 2026)")] {
            #expect(text.contains("\(flag.word): \(TrendReport.why(flag))"), "\(flag)")
            #expect(text.contains("\(writer): \(days)"), "\(flag)")
        }
        #expect(!text.contains(DayFlag.implausibleDate.word), "no value of the demo is implausibly dated")
        #expect(text.contains("Health Connect as of 21 Mar 2026 07:10 +00:00 · HealthKit as of 21 Mar 2026 21:30 +00:00"))
        #expect(text.contains("One value per day: latest"))
        #expect(text.contains(TrendReport.wellness))
        #expect(text.contains("READ_HEALTH_DATA_HISTORY"), "the dashboard's notes on the data (R10)")
    }

    @Test("A PNG is a page at 150 dots an inch: 1240 × 1754 for A4, 1275 × 1650 for Letter")
    func pngIsAPage() throws {
        let directory = try TemporaryDirectory()
        let report = try ReportStores.demoReport(in: directory)
        let a4 = try ReportRenderer.render(report, format: .png, page: .a4)
        let letter = try ReportRenderer.render(report, format: .png, page: .letter)
        #expect(a4.files.count == 1 && letter.files.count == 1)
        #expect(ReportStores.pngSize(a4.files[0]).map { [$0.width, $0.height] } == [1240, 1754])
        #expect(ReportStores.pngSize(letter.files[0]).map { [$0.width, $0.height] } == [1275, 1650])
        // Drawn on, not blank: a page of text and lines compresses to tens of KB, a white one to a few hundred bytes.
        #expect(a4.files[0].count > 50_000)
    }

    @Test("A store of heart rate without a resting writer says so in words and draws no chart (R9)")
    func heartRateOnlySaysSo() throws {
        let directory = try TemporaryDirectory()
        let store = try ReportStores.store(["health-connect/heart-rate-only.zip"], in: directory)
        let report = try ReportStores.report(store)
        #expect(report.period == nil && report.series.isEmpty)
        let text = try ReportStores.text(ofPDF: try ReportRenderer.render(report, format: .pdf, page: .a4).files[0],
                                         in: directory)
        #expect(text.contains("No resting heart rate to draw."))
        let contents = try store.contents().first { $0.hasHeartRateWithoutResting }
        #expect(text.contains(DataDiagnosis.explanation(try #require(contents))))
        #expect(!text.contains("bpm") && !text.contains("Writers"), "no chart, no axis, no writers")
        #expect(text.contains("Health Connect as of"))
    }

    @Test("An empty store: a page saying there is nothing to draw")
    func emptyStore() throws {
        let directory = try TemporaryDirectory()
        let report = try ReportStores.report(try directory.store())
        let text = try ReportStores.text(ofPDF: try ReportRenderer.render(report, format: .pdf, page: .letter).files[0],
                                         in: directory)
        #expect(text.contains("Nothing to draw: the store holds no data."))
        #expect(text.contains("page 1 of 1"))
    }

    @Test("A year is one chart; a longer period a chart per stretch of equal length, none longer than a year",
          arguments: [(365, [365]), (366, [366]), (367, [184, 183]), (5 * 365, [365, 365, 365, 365, 365]), (1, [1])])
    func stretches(days: Int, lengths: [Int]) {
        let from = LocalDay("2021-12-07")!
        let stretches = ReportPages.stretches(from: from, to: from.adding(days: days - 1))
        #expect(stretches.map { $0.from.distance(to: $0.to) + 1 } == lengths)
        #expect(stretches.first?.from == from && stretches.last?.to == from.adding(days: days - 1))
        #expect(zip(stretches, stretches.dropFirst()).allSatisfy { $0.to.adding(days: 1) == $1.from }, "no gap, no overlap")
    }

    @Test("Names in any script are drawn and extractable: Cyrillic, CJK with an emoji, right to left")
    func namesInAnyScript() throws {
        let directory = try TemporaryDirectory()
        let pixel = try String(contentsOfFile: SourceTree.samples + "/batches/healthconnect-pixel.jsonl", encoding: .utf8)
            .replacingOccurrences(of: "\"appName\":\"Oura\"", with: "\"appName\":\"心拍計 ❤️\"")
            .replacingOccurrences(of: "\"appName\":\"Manual Log\"", with: "\"appName\":\"Ручной журнал\"")
            .replacingOccurrences(of: "\"appName\":\"Sleep Tracker\"", with: "\"appName\":\"מד דופק\"")
        let store = try directory.store()
        _ = try store.apply(try FileImporter.read(path: try directory.write("names.jsonl", pixel)).batches)
        let rendered = try ReportRenderer.render(try ReportStores.report(store), format: .pdf, page: .a4)
        let text = try ReportStores.text(ofPDF: rendered.files[0], in: directory)
        #expect(text.contains("Ручной журнал") && text.contains("心拍計"))
        // pdftotext gives a right-to-left run in the order it is drawn, right to left.
        #expect(text.contains("מד דופק") || text.contains(String("מד דופק".reversed())))
        let pdffonts = try #require(Subprocess.which("pdffonts"))
        let fonts = try Subprocess.run(pdffonts, [try directory.write("n.pdf", rendered.files[0])])
        #expect(fonts.stdout.contains("NotoSansCJK"), "CJK from fonts-noto-cjk: \(fonts.stdout)")
    }

    @Test("Cairo's process-wide ids are numbered from 1 in the order they appear; glyph ids are left alone")
    func svgIdentifiers() {
        let svg = ##"<g id="surface17"><use xlink:href="#glyph0-3"/><g clip-path="url(#clip4)"/></g>"##
            + ##"<use xlink:href="#surface17"/><g id="surface9">"##
        let expected = ##"<g id="surface1"><use xlink:href="#glyph0-3"/><g clip-path="url(#clip1)"/></g>"##
            + ##"<use xlink:href="#surface1"/><g id="surface2">"##
        #expect(String(decoding: SVGIdentifiers.renumbered(Array(svg.utf8)), as: UTF8.self) == expected)
    }

    @Test("A report's files are readable by their owner only; a PNG report of several pages is a file a page")
    func filesArePrivate() throws {
        let directory = try TemporaryDirectory()
        let rendered = RenderedReport(files: [[1], [2], [3]], pages: 3, format: .png)
        let paths = try ReportFiles.write(rendered, to: directory.file("trend.png"))
        #expect(paths == ["trend.png", "trend-2.png", "trend-3.png"].map(directory.file))
        #expect(paths.allSatisfy { FileMode.permissions($0) == 0o600 })
        #expect(directory.entries().sorted() == ["trend-2.png", "trend-3.png", "trend.png"], "no temporary file left")
        #expect(ReportFiles.paths(for: "a.b/trend.pdf", pages: 3, format: .pdf) == ["a.b/trend.pdf"])
    }
}
