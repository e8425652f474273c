import Foundation
import RHRTestSupport
import Testing

/// What NO_COLOR and the ASCII switch each give, in the real `rhr` under tmux (TERM=dumb, the summary,
/// is `DashboardHabitsEndToEndTests`): NO_COLOR takes the colour and keeps the glyphs; `glyphs = ascii` in the
/// config takes the glyphs and keeps the colour.
@Suite("End to end: NO_COLOR and the ASCII switch", .serialized)
struct TerminalModesEndToEndTests {
    /// The SGR colour codes on the screen (30–37, 40–47, 90–107, 38 and 48; 39 and 49 only reset).
    static func colours(_ tmux: Tmux) -> [[Int]] {
        tmux.capture(escapes: true).split(separator: "\u{1B}").compactMap { sequence -> [Int]? in
            guard sequence.hasPrefix("["), let end = sequence.firstIndex(of: "m") else { return nil }
            return sequence[sequence.index(after: sequence.startIndex)..<end].split(separator: ";").compactMap { Int($0) }
        }.filter { codes in codes.contains { (30...37).contains($0) || (40...47).contains($0) || (90...107).contains($0)
            || $0 == 38 || $0 == 48 } }
    }

    @Test("NO_COLOR in a UTF-8 locale: the Unicode glyphs and braille lines, and no colour")
    func noColorKeepsGlyphs() throws {
        let tmux = try dashboardOnRestingStore(environment: "NO_COLOR=1")
        defer { tmux.kill() }
        let screen = try tmux.waitForAll("Health Connect: 1 ● Oura  HealthKit: 2 ◆ Jane’s Apple Watch", "▸Thu 12 Mar 2026")
        #expect(screen.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }, "braille lines")
        #expect(Self.colours(tmux).isEmpty, "colour on screen despite NO_COLOR: \(Self.colours(tmux).prefix(3))")
    }

    @Test("glyphs = ascii in the config: ASCII only, in colour")
    func asciiSwitchKeepsColour() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        try StoreFixture.resting(at: dir.storePath)
        try FileManager.default.createDirectory(atPath: dir.path + "/config/rhr", withIntermediateDirectories: true)
        _ = try dir.write("config/rhr/config", "glyphs = ascii\n")
        // NO_COLOR empty: the tests' own environment may carry NO_COLOR=1 (swift test sets it), which would take the colour.
        let tmux = try Tmux.rhr("--store '\(dir.storePath)'", environment: "NO_COLOR=", directory: dir)
        defer { tmux.kill() }
        let screen = try tmux.waitForAll("Health Connect: 1 Oura  HealthKit: 2 Jane's Apple Watch", ">Thu 12 Mar 2026")
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(!Self.colours(tmux).isEmpty, "the colours stay")
    }

    @Test("TERM=dumb in 50 columns: the summary fits them, long lines wrapped at a word and indented, not cut by the terminal")
    func dumbTerminalFitsWidth() throws {
        let dir = try TemporaryDirectory(prefix: "rhr-e2e")
        try StoreFixture.resting(at: dir.storePath)
        let rhr = try Binary.rhr()
        let tmux = try Tmux(width: 50, height: 60, directory: dir, command:
            "sh -c \"exec env TZ=UTC LANG=C.UTF-8 TERM=dumb \(Binary.settings(in: dir)) '\(rhr)' --store '\(dir.storePath)'\"; echo \"rhr exited $?\"")
        defer { tmux.kill() }
        let screen = try tmux.waitFor("rhr exited 0", history: true)
        let lines = screen.split(separator: "\n").map { String($0) }
        let i = try #require(lines.firstIndex { $0.hasPrefix("HK Jane’s Apple Watch: ") })
        #expect(lines[i] == "HK Jane’s Apple Watch: HealthKit estimate by" && lines[i + 1].hasPrefix("  Jane’s Apple Watch; all-day rest estimate,"))
        #expect(lines.contains("Wellness information, not medical advice."))
    }
}
