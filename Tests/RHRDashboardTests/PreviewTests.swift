import Testing
import RHRCore
import RHRDashboard
import RHRTerminal
import Foundation

@Test func preview() {
    let s = Fixture.state(size: TerminalSize(width: 200, height: 60))
    print(Fixture.screen(s).map { $0 + "|" }.joined(separator: "\n"))
}
