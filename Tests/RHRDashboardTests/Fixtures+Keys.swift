import RHRCore
import RHRDashboard
import RHRScreen

extension Fixture {
    /// Sends keys one by one; returns the last effect.
    @discardableResult
    static func press(_ state: inout DashboardState, _ keys: Key...) -> DashboardEffect? {
        var effect: DashboardEffect?
        for key in keys { effect = DashboardUpdate.update(&state, .key(key)) }
        return effect
    }

    /// The state `state(_:size:today:unicode:)` makes, after `keys`.
    static func state(_ data: DashboardData = standard(), size: TerminalSize = TerminalSize(width: 80, height: 24),
                      today: LocalDay = lastDay, unicode: Bool = true, pressing keys: Key...) -> DashboardState {
        var state = state(data, size: size, today: today, unicode: unicode)
        for key in keys { DashboardUpdate.update(&state, .key(key)) }
        return state
    }

    static func typing(_ text: String) -> [Key] { text.map { .character($0) } }

    /// Row `y`'s text.
    static func row(_ state: DashboardState, _ y: Int) -> String { screen(state)[y] }

    /// The row whose text contains `needle`, if any.
    static func rowIndex(_ lines: [String], containing needle: String) -> Int? {
        lines.firstIndex { $0.contains(needle) }
    }

    /// The character at column `x` of a line (one column per character in these fixtures).
    static func character(_ line: String, _ x: Int) -> Character {
        let chars = Array(line)
        return x < chars.count ? chars[x] : " "
    }
}
