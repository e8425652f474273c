import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import Testing

/// Every time the dashboard shows is local with its offset (issue 26): the header, the detail pane (a sample's own
/// times in its offset, when it was read in the machine's), the help, a stopped daemon's time.
@Suite("Render: every time shown carries its offset")
struct TimeOffsetRenderTests {
    /// Times not followed by an offset; a window's first time ("00:03–23:48 +01:00") is followed by its dash.
    static func bare(_ text: String) -> [String] {
        let withOffsets = text.replacing(/\d\d:\d\d [+-]\d\d:\d\d/, with: "T")
        return withOffsets.matches(of: /\d\d:\d\d(?!–)/).map { String(withOffsets[$0.range]) }
    }

    @Test("header, detail pane and help, live and stopped")
    func everywhere() {
        var state = Fixture.state(size: TerminalSize(width: 160, height: 60))
        DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/run/rhr.sock"))
        DashboardUpdate.update(&state, .liveFeedEnded(at: Timestamp.parse("2026-03-12T14:02:00+01:00")!))
        var text = Fixture.screen(state).joined(separator: "\n")
        #expect(text.contains("HealthKit as of 12 Mar 21:00 +01:00") || text.contains("(+01:00)"))
        #expect(text.contains("provisional, read 12 Mar 21:00 +01:00"))
        #expect(Self.bare(text).isEmpty, "\(Self.bare(text)) in\n\(text)")
        DashboardUpdate.update(&state, .key(.character("?")))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(Self.bare(text).isEmpty, "\(Self.bare(text))")
    }
}
