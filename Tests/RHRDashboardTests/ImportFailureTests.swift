import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

/// `rhr FILE` whose import fails: the dashboard says so, naming the file and the position, and what is still there;
/// never the first-run screen.
@Suite("Render: files on the command line that could not be imported")
struct ImportFailureTests {
    static let broken = ImportFailure(file: "broken.json", message: "broken.json: read as a Health Auto Export file (JSON): "
        + "line 2: byte 146: data.metrics[0].data[1]: expected a value, found ']'")
    static let truncated = ImportFailure(file: "export.xml", message: "export.xml: read as an Apple Health export (XML): "
        + "byte 3000: truncated: the file ends inside a tag that starts at byte 2957")

    @Test("The only file failed: its error with the file and the position, and that nothing is there; not onboarding")
    func onlyFileFailed() {
        var state = Fixture.state(DashboardData(source: "a temporary store of 1 file"))
        state.importFailures = [Self.broken]
        let lines = Fixture.render(state).lines
        #expect(Array(lines.prefix(12)) == [
            " rhr   no data yet                                                              ",
            " store: a temporary store of 1 file                                             ",
            "                                                                                ",
            "  broken.json could not be imported.                                            ",
            "                                                                                ",
            "  broken.json: read as a Health Auto Export file (JSON): line 2: byte 146:      ",
            "  data.metrics[0].data[1]: expected a value, found ']'                          ",
            "                                                                                ",
            "  Nothing was imported, so there is nothing to show: the temporary store rhr    ",
            "  made for the files on its command line is empty. rhr import FILE reports the  ",
            "  same; rhr demo shows the bundled samples.                                     ",
            "                                                                                ",
        ])
        #expect(!lines.joined().contains("No resting heart rate here yet"))
    }

    @Test("Two files, both failed: each error, in the order given")
    func bothFailed() {
        var state = Fixture.state(DashboardData(source: "a temporary store of 2 files"))
        state.importFailures = [Self.broken, Self.truncated]
        let lines = Fixture.render(state).lines
        #expect(lines[3] == "  2 files could not be imported.                                                ")
        #expect(lines[5].hasPrefix("  broken.json: read as a Health Auto Export file (JSON): line 2: byte 146:"))
        #expect(lines[8].hasPrefix("  export.xml: read as an Apple Health export (XML): byte 3000: truncated: the"))
        #expect(lines[11].hasPrefix("  Nothing was imported, so there is nothing to show"))
    }

    @Test("One of two failed: the chart of the other, and a note at the top naming the one that failed")
    func oneOfTwoFailed() {
        var state = Fixture.state(size: TerminalSize(width: 100, height: 30))
        state.importFailures = [Self.broken]
        let lines = Fixture.render(state).lines
        // The position first: what the file was read as is in help and in the body.
        #expect(lines[2] == " · Not imported: broken.json: line 2: byte 146: data.metrics[0].data[1]: expected a value, found ']'")
        #expect(lines[3].hasPrefix(" Resting heart rate, bpm"))
    }

    @Test("Help lists the whole error among the notes")
    func helpHasTheWholeError() {
        // Tall enough for the whole help on one page.
        var state = Fixture.state(size: TerminalSize(width: 100, height: 120))
        state.importFailures = [Self.broken]
        state.overlay = .help
        let text = Fixture.render(state).lines.joined(separator: "\n")
        #expect(text.contains("Not imported: broken.json: read as a Health Auto Export file (JSON): line 2: byte 146:"))
        #expect(text.contains("expected a value, found ']'"))
    }
}
