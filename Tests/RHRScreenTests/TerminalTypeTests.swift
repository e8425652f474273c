// A TERM this machine's terminfo lacks: the nearest entry it has, and the words that say which and how to install.
import RHRScreen
import Testing

@Suite("Terminal type: an unknown TERM is drawn as the nearest entry there is; the summary only where none is")
struct TerminalTypeTests {
    /// The entries Debian's ncurses-base installs that the fallbacks can reach.
    static let base: Set<String> = ["xterm", "xterm-256color", "screen", "screen-256color", "tmux", "tmux-256color",
                                    "rxvt-unicode-256color", "vt100", "linux", "dumb"]

    @Test("A known TERM is its own entry; an unknown one the nearest that exists, said with how to install its own")
    func nearest() {
        #expect(TerminalType.choose("xterm-256color", exists: Self.base.contains) == .own("xterm-256color"))
        guard case .standIn(let kitty, let note) = TerminalType.choose("xterm-kitty", exists: Self.base.contains) else {
            Issue.record("xterm-kitty got no stand-in")
            return
        }
        #expect(kitty == "xterm-256color")
        #expect(note.contains("no entry for TERM=xterm-kitty") && note.contains("drawn as xterm-256color"))
        // Its own entry: the Debian package that carries it, and copying it with infocmp and tic.
        #expect(note.contains("apt install kitty-terminfo"))
        #expect(note.contains("infocmp -x xterm-kitty > xterm-kitty.terminfo there, then tic -x xterm-kitty.terminfo here"))
        if case .standIn(let used, let words) = TerminalType.choose("alacritty", exists: Self.base.contains) {
            #expect(used == "xterm-256color" && words.contains("apt install ncurses-term"))
        } else {
            Issue.record("alacritty got no stand-in")
        }
        // A terminal no package is known for: no package named as if it were.
        if case .standIn(_, let words) = TerminalType.choose("wezterm", exists: Self.base.contains) {
            #expect(!words.contains("apt install") && words.contains("tic -x wezterm.terminfo"))
        }
        // Family first: screen's and tmux's own kin before xterm.
        if case .standIn(let used, _) = TerminalType.choose("screen.xterm-new", exists: Self.base.contains) {
            #expect(used == "screen-256color")
        } else {
            Issue.record("screen.xterm-new got no stand-in")
        }
        #expect(TerminalType.fallbacks(for: "tmux-direct") == ["tmux-256color", "tmux", "screen-256color", "screen",
                                                                "xterm-256color", "xterm", "vt100"])
        #expect(TerminalType.fallbacks(for: "alacritty") == ["alacritty-256color", "xterm-256color", "xterm", "vt100"])
        #expect(!TerminalType.fallbacks(for: "xterm").contains("xterm"))
        // Only xterm left (a terminfo without xterm-256color): that one.
        if case .standIn(let used, _) = TerminalType.choose("foot", exists: { $0 == "xterm" }) { #expect(used == "xterm") }
    }

    @Test("The summary only for TERM=dumb, no TERM, or no entry near it, each with why")
    func summary() {
        guard case .none(let dumb) = TerminalType.choose("dumb", exists: { _ in true }) else {
            Issue.record("TERM=dumb drew a dashboard")
            return
        }
        #expect(dumb.hasPrefix("TERM=dumb: the terminal cannot move its cursor"))
        guard case .none(let unset) = TerminalType.choose("", exists: { _ in true }) else {
            Issue.record("no TERM drew a dashboard")
            return
        }
        #expect(unset.hasPrefix("TERM is not set"))
        guard case .none(let nothing) = TerminalType.choose("wezterm", exists: { _ in false }) else {
            Issue.record("a terminfo without xterm drew a dashboard")
            return
        }
        #expect(nothing.contains("no entry for TERM=wezterm, nor for wezterm-256color, xterm-256color, xterm or vt100"))
        #expect(nothing.contains("prints the summary instead of the dashboard"))
    }
}
