import Foundation
@testable import RHRCommands
import RHRCore
import RHRScreen
import RHRStore
import RHRTestSupport
import Testing

/// The plain summary fits the terminal it is printed on: COLUMNS, else the terminal's own width; into a
/// pipe it keeps its width. Nothing is left out to fit: long lines wrap, a table too wide for the screen is printed
/// in parts, each with its dates.
@Suite("rhr summary fits the terminal's width")
struct SummaryWidthTests {
    let rhr: InProcessRHR
    init() throws {
        rhr = try InProcessRHR()
        let imported = rhr.run(["import"] + ["batches/healthkit-iphone.jsonl", "batches/healthconnect-pixel.jsonl"].map(InProcessRHR.sample))
        #expect(imported.status == 0)
    }

    func report(width: Int?) throws -> String {
        let store = try #require(try HealthDatabase.reading(path: rhr.sandbox.storePath, machineZone: utc))
        return try SummaryCommand.report(store: store, aggregation: .latest, days: 14, today: day("2026-03-21"), width: width)
    }

    @Test("at 60 columns every line fits, and every value of the table is still there")
    func fitsSixty() throws {
        let wide = try report(width: nil), narrow = try report(width: 60)
        let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(wide.split(separator: "\n").contains { DisplayWidth.of(String($0)) > 60 }, "the table is wider than 60 today")
        #expect(lines.allSatisfy { DisplayWidth.of(String($0)) <= 60 }, "\(lines.filter { DisplayWidth.of(String($0)) > 60 })")
        // Each day's row of the whole table: its values are in the parts, in order.
        for row in wide.split(separator: "\n").filter({ $0.hasPrefix("2026-03-") }) {
            let date = row.prefix(10)
            let parts = lines.filter { $0.hasPrefix(date) }.flatMap { $0.dropFirst(10).split(separator: " ") }
            #expect(parts == row.dropFirst(10).split(separator: " "), "\(date)")
        }
        // The parts say which writers they hold, by the same headings.
        #expect(lines.filter { $0.hasPrefix("date") }.count == 2)
    }

    @Test("the words wrap too: no line of a narrow summary is cut")
    func wordsWrap() throws {
        let narrow = try report(width: 40)
        #expect(narrow.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 40 })
        #expect(narrow.replacingOccurrences(of: "\n  ", with: " ").contains("Wellness information, not medical advice."))
    }

    @Test("into a pipe the summary keeps today's width, whatever COLUMNS says; on a terminal COLUMNS sets it")
    func pipeKeepsWidth() throws {
        let piped = rhr.run(["summary"], environment: ["COLUMNS": "40"])
        #expect(piped.stdout == rhr.run(["summary"]).stdout)
        #expect(SummaryCommand.width(environment: ["COLUMNS": "40"], stdoutIsTerminal: false) == nil)
        #expect(SummaryCommand.width(environment: ["COLUMNS": "40"], stdoutIsTerminal: true) == 40)
    }
}

/// Every time the summary and the dashboard show is local with its offset: "21 Mar 21:30 +00:00".
@Suite("Times shown carry their offset")
struct TimesWithOffsetTests {
    @Test("the summary: currency, provisional reads, revisions")
    func summary() throws {
        let rhr = try InProcessRHR()
        #expect(rhr.run(["import"] + ["batches/healthkit-iphone.jsonl", "batches/healthconnect-pixel.jsonl"].map(InProcessRHR.sample)).status == 0)
        let text = rhr.run(["summary"]).stdout
        #expect(text.hasPrefix("HealthKit as of 21 Mar 21:30 +00:00 · Health Connect as of 21 Mar 07:10 +00:00\n"))
        #expect(text.contains("draft 62 → 59 (healthkit-iphone.jsonl, 21 Mar 21:30 +00:00)"))
        #expect(bareTimes(text).isEmpty, "\(bareTimes(text))")
    }
}
