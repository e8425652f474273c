import Foundation
import RHRCore
import RHRScreen
import Testing

/// What the dashboard shows of R14 and R2: the header counts passed-over records, the detail pane marks duplicates
/// and names the spellings folded into a writer.
@Suite("Passed-over records, duplicates and spellings on screen")
struct PassedOverAndDuplicateViewTests {
    @Test("the header counts the records passed over beside the stores' currency")
    func headerCount() {
        var data = Fixture.standard()
        data.passedOver = 3
        let lines = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 160, height: 40)))
        #expect(lines[1].contains("Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00  ·  3 passed over"), "\(lines[1])")
        #expect(!Fixture.screen(Fixture.state(size: TerminalSize(width: 160, height: 40)))[1].contains("passed over"))
    }

    @Test("the detail pane marks each of one window's values as a duplicate and names the writer's other spellings")
    func detailPane() {
        var data = Fixture.standard()
        for k in data.samples.indices where data.samples[k].day == Fixture.lastDay && data.samples[k].sample.writer == Fixture.watch {
            data.samples[k].sample.isDuplicate = true
            var other = data.samples[k]
            other.sample.value = 61
            data.samples.append(other)
        }
        data.writerSpellings = [Fixture.watch.key: ["Jane's Apple Watch", "Jane’s\u{a0}Apple Watch"]]
        let text = Fixture.screen(Fixture.state(data, size: TerminalSize(width: 200, height: 60))).joined(separator: "\n")
        #expect(text.components(separatedBy: "duplicate: its writer gave this window another value too").count == 3, "\(text)")
        // In words, never a Swift escape: "Jane’s\u{A0}Apple Watch" is a no-break space, named.
        #expect(text.contains("also written “Jane's Apple Watch” with a straight apostrophe, “Jane’s\u{a0}Apple Watch” with a "
                              + "no-break space"), "\(text)")
        #expect(!text.contains("\\u{"))
    }
}
