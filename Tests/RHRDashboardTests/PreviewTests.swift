import Testing
import RHRCore
import RHRDashboard
import RHRTerminal
import Foundation

@Test func preview() {
    for (w, h) in [(80, 24), (120, 40)] {
        let s = Fixture.state(size: TerminalSize(width: w, height: h))
        print(Fixture.screen(s).joined(separator: "\n"))
        print(String(repeating: "=", count: w))
    }
}
