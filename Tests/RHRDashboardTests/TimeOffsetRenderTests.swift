import Foundation
import RHRCore
import RHRDashboard
import RHRScreen
import RHRTestSupport
import Testing

/// Every time the dashboard shows is local with its offset: the header, the detail pane (a sample's own
/// times in its offset, when it was read in the machine's), the help, a stopped daemon's time.
@Suite("Render: every time shown carries its offset")
struct TimeOffsetRenderTests {
    @Test("header, detail pane and help, live and stopped")
    func everywhere() {
        var state = Fixture.state(size: TerminalSize(width: 160, height: 60))
        DashboardUpdate.update(&state, .liveFeedStarted(revision: 3, socket: "/run/rhr.sock"))
        DashboardUpdate.update(&state, .liveFeedEnded(at: Timestamp.parse("2026-03-12T14:02:00+01:00")!))
        var text = Fixture.screen(state).joined(separator: "\n")
        #expect(Fixture.screen(state)[1] == " Health Connect as of 12 Mar 08:00 +01:00  ·  HealthKit as of 12 Mar 21:00 +01:00"
            + String(repeating: " ", count: 20) + "live: daemon stopped; showing the store as of 14:02 +01:00 ")
        #expect(text.contains("provisional, read 12 Mar 21:00 +01:00"))
        #expect(bareTimes(text).isEmpty, "\(bareTimes(text)) in\n\(text)")
        DashboardUpdate.update(&state, .key(.character("?")))
        text = Fixture.screen(state).joined(separator: "\n")
        #expect(bareTimes(text).isEmpty, "\(bareTimes(text))")
    }
}
