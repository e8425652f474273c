// Which terminfo entry drives the terminal when the machine does not know `TERM`, and the words that say so.
/// A terminal type this machine's terminfo lacks (`TERM=alacritty`, `xterm-kitty`, `wezterm` over ssh) still gets
/// the dashboard: rhr drives it as the nearest entry that exists and says which on stderr, with how to install the
/// real one (docs/design.md section 6). Pure: whether an entry exists is asked of the caller.
public enum TerminalType {
    /// What to drive the terminal as: `TERM` itself, a stand-in (with the note that says so), or nothing, with why.
    public enum Choice: Equatable, Sendable {
        case own(String)
        case standIn(String, note: String)
        case none(reason: String)
    }

    /// The entry for `term`, given which entries the machine has (`exists`). `TERM=dumb` (and an empty `TERM`, which
    /// says nothing of the terminal) cannot address the cursor: none. `ncurses` itself needs no more than `cup`,
    /// which the caller checks once the entry is loaded.
    public static func choose(_ term: String, exists: (String) -> Bool) -> Choice {
        if term == "dumb" {
            return .none(reason: "TERM=dumb: the terminal cannot move its cursor, so rhr prints the summary instead of the dashboard")
        }
        if term.isEmpty {
            return .none(reason: "TERM is not set: rhr cannot tell what the terminal can do, so it prints the summary "
                         + "instead of the dashboard")
        }
        if exists(term) { return .own(term) }
        let tried = fallbacks(for: term)
        guard let used = tried.first(where: exists) else {
            return .none(reason: "this machine's terminfo has no entry for TERM=\(term), nor for \(list(tried)), so rhr prints "
                         + "the summary instead of the dashboard. " + installAdvice(term))
        }
        return .standIn(used, note: "this machine's terminfo has no entry for TERM=\(term): the dashboard is drawn as "
                        + "\(used), which may lack some of its keys or colours. " + installAdvice(term))
    }

    /// The entries tried after `term`, nearest first: the same family's (`screen-256color` for `screen.foo`, the
    /// part before the first `-` or `.`), tmux's nearest kin `screen`, then the xterm entries nearly every terminal
    /// emulator follows, and `vt100`, which every terminfo has.
    public static func fallbacks(for term: String) -> [String] {
        let family = String(term.prefix { $0 != "-" && $0 != "." })
        var names = [family + "-256color", family]
        if family == "tmux" { names += ["screen-256color", "screen"] }
        names += ["xterm-256color", "xterm", "vt100"]
        var seen: Set<String> = [term]
        return names.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Debian packages that carry a terminal's own entry (Debian 12's package contents): named where known.
    static let debianPackages = ["alacritty": "ncurses-term", "alacritty-direct": "ncurses-term",
                                 "xterm-kitty": "kitty-terminfo", "foot": "foot-terminfo", "foot-direct": "foot-terminfo"]

    /// How to get `term`'s own entry: its Debian package where one is known, else where to look; and, everywhere,
    /// copying it from a machine that has it (`infocmp` there, `tic` here, which installs into ~/.terminfo).
    static func installAdvice(_ term: String) -> String {
        let copy = "copy it from a machine that has it: infocmp -x \(term) > \(term).terminfo there, then "
            + "tic -x \(term).terminfo here"
        if let package = debianPackages[term] {
            return "To install its own entry: on Debian or Ubuntu, apt install \(package); or \(copy)."
        }
        return "To install its own entry, \(copy) (on Debian or Ubuntu the package ncurses-term holds many more entries)."
    }

    /// "a, b or c".
    static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
