import Foundation
import RHRCore
import RHRDashboard
import RHRFormats
import RHRLive
import RHRScreen
import RHRTestSupport
import Testing

/// A forgotten import's values stay in the history (docs/design.md R12): the detail pane says each went because its
/// import was forgotten, and what decides the day now.
@Suite("The detail pane after an import is forgotten")
struct ForgottenHistoryTests {
    @Test func theDetailPaneSaysTheValueWentWithItsImport() throws {
        let dir = try TemporaryDirectory()
        let store = try dir.store()
        for file in ["apple-health/export-1.xml", "apple-health/export-2.xml"] {
            _ = try store.apply(try FileImporter.read(path: SourceTree.samples + "/" + file, options: ImportOptions(machineZone: utc)).batches)
        }
        let newer = try #require(try store.deliveries().last)
        #expect(newer.label.hasSuffix("export-2.xml"))
        let outcome = try store.forget([newer.id], force: false, at: ts("2026-03-30T12:00:00+00:00"))
        #expect(outcome.refusals.isEmpty)
        var state = DashboardState(data: try DashboardLoader.load(store, source: "test"), size: TerminalSize(width: 160, height: 60),
                                   today: day("2026-03-17"))
        // The data ends on 14 Mar again: the cursor starts there.
        #expect(state.cursor == day("2026-03-14"))
        for key in [Key.tab, .tab] + Array(repeating: Key.down, count: 40) { _ = DashboardUpdate.update(&state, .key(key)) }
        var buffer = ScreenBuffer(size: state.size, fill: " ")
        DashboardRenderer.render(state, into: &buffer)
        let text = buffer.lines.joined(separator: "\n")
        // The newer export's 58 went with it; the older export's draft of the morning, 61, decides the day again.
        #expect(text.contains("Jane’s Apple Watch: 58 → 61, forgotten with import \(newer.id) (export-2.xml), 30 Mar 12:00 +00:00"),
                "\(text)")
    }
}
