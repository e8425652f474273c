import Dispatch
import Foundation
import RHRCore
@testable import RHRDashboard
import RHRScreen
import Testing

/// A writer's name of any length (an HC Webhook `data_origin`, a Health Connect `app_name`, a HealthKit source
/// name: none has a limit) costs a frame no more than a short one: layout measures a name once and cuts it in one
/// pass.
@Suite("Long writer names")
struct LongNameTests {
    static let megabyte = String(repeating: "x", count: 1 << 20)

    /// Runs `work` on another thread and waits `seconds` for it: a layout that measures a long name again and
    /// again would never end, and the test would hang with it instead of failing.
    static func within<T: Sendable>(_ seconds: Double, _ what: String, _ work: @escaping @Sendable () -> T,
                                    sourceLocation: SourceLocation = #_sourceLocation) -> T? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        DispatchQueue.global().async {
            result = work()
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else {
            Issue.record("\(what) took over \(seconds) s", sourceLocation: sourceLocation)
            return nil
        }
        return result
    }

    @Test func aLegendWithAMegabyteNameIsLaidOutAtOnceWithTheNameCut() throws {
        let writers = [ChartLegend.Writer(store: .healthKit, name: "Jane’s Apple Watch", visible: true, slot: 0),
                       ChartLegend.Writer(store: .healthKit, name: LongNameTests.megabyte, visible: true, slot: 1),
                       ChartLegend.Writer(store: .healthConnect, name: "Oura", visible: true, slot: 2),
                       ChartLegend.Writer(store: .healthConnect, name: "Withings", visible: false, slot: 3)]
        let legend = try #require(LongNameTests.within(2, "the legend") {
            ChartLegend(writers: writers, markers: [], in: Rect(x: 0, y: 0, width: 100, height: 2), glyphs: Glyphs(unicode: true))
        })
        let texts = legend.entries.map { $0.spans.map(\.text).joined() }
        // One row for the writers: every name cut to the widest that keeps them there (14 columns), the long one
        // as any other.
        #expect(legend.entries.map(\.row) == [0, 0, 0, 0])
        #expect(texts[0] == "HealthKit: 1 ● Jane’s Apple …")
        #expect(texts[1] == "2 ◆ " + String(repeating: "x", count: 13) + "…")
        #expect(texts[2] == "Health Connect: 3 ■ Oura")
        #expect(texts[3] == "4 ▲ Withings (hidden)")
        #expect(legend.entries.last.map { $0.x + $0.width } == 99)
    }

    /// A name wider than the legend's line is cut to the line, ending in "…", rather than drawn off its edge.
    @Test func aNameWiderThanTheLineIsCutToIt() throws {
        let writers = [ChartLegend.Writer(store: .healthConnect, name: LongNameTests.megabyte, visible: true, slot: 0)]
        let legend = try #require(LongNameTests.within(2, "the legend") {
            ChartLegend(writers: writers, markers: [[Span("▪ marker")]], in: Rect(x: 0, y: 0, width: 60, height: 3),
                        glyphs: Glyphs(unicode: true))
        })
        let first = try #require(legend.entries.first)
        #expect(first.spans.map(\.text).joined() == "Health Connect: 1 ● " + String(repeating: "x", count: 38) + "…")
        #expect(first.x + first.width == 60)
    }

    /// A name that starts with a variation selector or a combining mark (found by the text-gate fuzz target): joined
    /// to the space before it, it would take a column more than it was measured at and run past the edge.
    @Test(arguments: ["\u{FE0F}", "\u{301}"])
    func aNameStartingWithAJoiningCharacterStaysWithinTheLine(lead: String) throws {
        let name = lead + String(repeating: "x", count: 200)
        for visible in [true, false] {
            let legend = ChartLegend(writers: [ChartLegend.Writer(store: .healthKit, name: name, visible: visible, slot: 0)],
                                     markers: [], in: Rect(x: 0, y: 0, width: 80, height: 1), glyphs: Glyphs(unicode: true))
            let entry = try #require(legend.entries.first)
            #expect(entry.x + entry.width == 80, "visible: \(visible)")
            var buffer = ScreenBuffer(size: TerminalSize(width: 80, height: 1))
            StyledLine(entry.spans).draw(in: &buffer, x: entry.x, y: 0, clip: buffer.bounds)
            #expect(buffer.line(0).hasSuffix(visible ? "x…" : "x… (hidden)"), "visible: \(visible)")
        }
    }

    @Test func truncatingAMegabyteNameReadsOnlyWhatFits() throws {
        let cut = try #require(LongNameTests.within(1, "truncating") {
            (0..<1000).map { _ in TextFit.truncate(LongNameTests.megabyte, 20) }.last
        })
        #expect(cut == String(repeating: "x", count: 19) + "…")
        #expect(TextFit.pad(LongNameTests.megabyte, 6) == "xxxxx…")
        #expect(TextFit.truncate("🕛🕐🕑🕒", 8) == "🕛🕐🕑🕒")
        #expect(TextFit.truncate("🕛🕐🕑🕒", 7) == "🕛🕐🕑…")
    }

    /// Four writers, one of them named with a megabyte (cut by the gate to 256 bytes): the whole screen draws at
    /// once, the legend and the columns end its name in "…", and the detail pane says how long it was.
    @Test func aDashboardWithAMegabyteNameDrawsAtOnceAndTheDetailPaneGivesItsLength() throws {
        var data = Fixture.standard()
        let long = Writer(store: .healthKit, name: "Tracker " + LongNameTests.megabyte)
        for i in 0..<60 {
            data.samples.append(Fixture.healthKit(long, Fixture.lastDay.adding(days: -i), 60 + Double(i % 4), device: nil))
        }
        let state = Fixture.state(data, size: TerminalSize(width: 200, height: 60))
        let lines = try #require(LongNameTests.within(2, "the first frame") { Fixture.screen(state) })
        let legend = try #require(lines.first { $0.contains("Health Connect: 1 ● Oura") })
        #expect(legend.contains("  3 ■ Tracker xxxxxxxx"))
        #expect(legend.contains("x…  4 ▲ Withings"), "\(legend)")
        // The columns' headings: the others whole, the long one cut to what a heading may ask for.
        #expect(lines.contains { $0.contains("3 ■ Tracker xxxx") && $0.contains("x… 4 ▲ Withings") }, "the columns' headings")
        #expect(lines.allSatisfy { !$0.contains("¤") })
        let detail = lines.joined(separator: "\n")
        #expect(detail.contains("name cut: 1,048,584 bytes, the first 256 kept"), "\(detail)")
    }
}

@Suite("Control characters in names on screen")
struct ControlCharacterNameTests {
    /// A name with ESC, OSC or NUL in it is drawn with them visible: never obeyed, and never dropped so that
    /// "Tester\0Watch" would look like a writer "TesterWatch".
    @Test func controlCharactersInANameAreDrawnVisibly() {
        var data = Fixture.standard()
        let odd = Writer(store: .healthKit, name: "T\u{0}W\u{1B}]0;x\u{7}")
        data.samples.append(Fixture.healthKit(odd, Fixture.lastDay, 61, device: nil))
        let lines = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 200, height: 60)))
        #expect(lines.contains { $0.contains("T<null>W<escape>]0;x<bell>") })
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy { !TextGate.isControl($0) } })
    }
}
