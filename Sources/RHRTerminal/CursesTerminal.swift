import RHRScreen
import CNCurses
import Glibc

/// The ncurses backend: the only code in rhr that calls curses. It starts and restores the terminal, decodes
/// keys, maps style roles to colours, and writes the runs `ScreenBuffer.diff(from:)` finds changed.
/// One owner, the main actor, makes every curses call.
@MainActor
public final class CursesTerminal: TerminalDevice {
    public let capabilities: TerminalCapabilities
    public private(set) var size: TerminalSize
    private var screen: OpaquePointer?
    private var previous: ScreenBuffer?
    private var palette: Palette
    /// The terminal went away (SIGHUP, or a hang-up seen on stdin first).
    private var hungUp = false

    /// The mouse is reported (a press and the wheel).
    private let mouse: Bool

    /// The terminfo entry to drive this terminal with (`TerminalType.choose`): `TERM`'s own, the nearest one this
    /// machine has when it lacks `TERM`'s, or none (`TERM=dumb`, no entry near it, or stdin or stdout not a
    /// terminal), with the words that say why. Writes nothing to the terminal: the caller says what it has to
    /// before `open` starts the full screen.
    public static func choose(environment: [String: String]) -> TerminalType.Choice {
        guard isatty(STDIN_FILENO) == 1 else {
            return .none(reason: "standard input is not a terminal, so rhr prints the summary instead of the dashboard")
        }
        guard isatty(STDOUT_FILENO) == 1 else {
            return .none(reason: "standard output is not a terminal, so rhr prints the summary instead of the dashboard")
        }
        return TerminalType.choose(environment["TERM"] ?? "") { rhr_terminfo_exists($0) != 0 }
    }

    /// Opens the terminal as terminfo entry `type` (`choose`), or returns nil when curses cannot drive it or it
    /// cannot move its cursor, so the caller can print plain text instead. `theme` mono means no colour; `mouse`
    /// asks for clicks and the wheel. Call `close()` on every way out.
    public static func open(type: String, environment: [String: String], theme: Theme = .standard, mouse: Bool = true,
                            glyphs: TerminalCapabilities.GlyphChoice? = nil) -> CursesTerminal? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        // Without this, wide glyphs come out as garbage.
        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(rhr_codeset()).map { String(cString: $0) } ?? ""
        var capabilities = TerminalCapabilities.detect(environment: environment, codeset: codeset, glyphs: glyphs)
        if theme == .mono { capabilities.color = false }
        TerminalSignals.saveTerminalModes()
        // newterm returns nil on an unknown type where initscr would exit the process.
        guard let screen = newterm(type, rhr_stdout(), rhr_stdin()) else { return nil }
        // A terminal without cursor addressing would get the whole screen on one line: plain text instead.
        guard rhr_terminfo_string("cup") != nil else {
            endwin()
            delscreen(screen)
            return nil
        }
        return CursesTerminal(screen: screen, capabilities: capabilities, theme: theme, mouse: mouse)
    }

    private init(screen: OpaquePointer, capabilities: TerminalCapabilities, theme: Theme, mouse: Bool) {
        self.screen = screen
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        keypad(rhr_stdscr(), true)
        nodelay(rhr_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        var palette = Palette.none
        if capabilities.color && has_colors() {
            start_color()
            use_default_colors()
            palette = Palette.start(colors: Int(rhr_colors()), theme: theme.colours ?? .sixteen)
        }
        self.palette = palette
        self.capabilities = TerminalCapabilities(unicode: capabilities.unicode, color: palette.pairs > 0,
                                                 braille: capabilities.braille, bandColour: palette.shadesBand)
        self.size = TerminalSize(width: Int(rhr_cols()), height: Int(rhr_lines()))
        self.mouse = mouse
        var restore = ["sgr0", "cnorm", "rmkx", "rmcup"].flatMap(TerminalSignals.terminfoBytes)
        if mouse {
            // Reported at once, not held back to tell clicks from double clicks.
            mouseinterval(0)
            mousemask(rhr_mouse_events(), nil)
            // A crash must switch mouse reporting off too, or the shell gets escape codes for every click.
            restore += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l".utf8)
        }
        TerminalSignals.install(restoreBytes: restore)
    }

    /// Ends curses and gives the terminal back as the shell had it. Safe to call twice.
    public func close() {
        guard let screen else { return }
        if mouse { mousemask(0, nil) }
        endwin()
        delscreen(screen)
        self.screen = nil
        TerminalSignals.uninstall(hungUp: hungUp)
    }

    public func draw(_ buffer: ScreenBuffer) {
        guard screen != nil else { return }
        let window = rhr_stdscr()
        if previous?.size != buffer.size {
            werase(window)
            previous = nil
        }
        for run in buffer.diff(from: previous) {
            var (attributes, pair) = palette.attributes(for: run.style)
            // The pair goes by the extended argument: true-colour pairs are numbered past a short.
            wattr_set(window, attributes, 0, &pair)
            let characters = run.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            characters.withUnsafeBufferPointer { text in
                _ = mvwaddnwstr(window, Int32(run.y), Int32(run.x), text.baseAddress, Int32(text.count))
            }
        }
        wattr_set(window, rhr_a_normal(), 0, nil)
        previous = buffer
        wnoutrefresh(window)
        doupdate()
    }

    /// The keyboard, and the pipe the signal handlers write to.
    public var inputDescriptors: [Int32] { [STDIN_FILENO, TerminalSignals.wakeDescriptor] }

    public func nextInput(timeoutMilliseconds: Int32, watching: [Int32]) -> TerminalInput? {
        var remaining = timeoutMilliseconds
        while true {
            if let signal = TerminalSignals.takePending() {
                if signal == .hangup { hungUp = true }
                return .signal(signal)
            }
            if let input = readKey() { return input }
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: TerminalSignals.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            fds += watching.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let started = Self.milliseconds()
            let ready = poll(&fds, nfds_t(fds.count), remaining)
            if remaining >= 0 {
                remaining = max(0, remaining - Int32(clamping: Self.milliseconds() - started))
            }
            if ready < 0 {
                // EINTR: a signal (quit, or SIGWINCH, which curses turns into KEY_RESIZE); look again.
                if errno == EINTR { continue }
                return nil
            }
            if ready == 0 { return nil }
            // A signal, perhaps taken by another thread: look at the flags and for KEY_RESIZE again.
            if fds[1].revents != 0 {
                TerminalSignals.drainWake()
                continue
            }
            // The terminal went away (Linux says POLLIN too, but reads give nothing): end as on SIGHUP.
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                hungUp = true
                return .signal(.hangup)
            }
            for fd in fds.dropFirst(2) where fd.revents != 0 { return .readable(fd.fd) }
        }
    }

    /// One key curses has decoded, if any is waiting.
    private func readKey() -> TerminalInput? {
        while true {
            var code: wint_t = 0
            let status = wget_wch(rhr_stdscr(), &code)
            if status == rhr_err() { return nil }
            if status == rhr_key_code_yes() {
                if Int32(code) == rhr_key_resize() {
                    size = TerminalSize(width: Int(rhr_cols()), height: Int(rhr_lines()))
                    return .resize(size)
                }
                if Int32(code) == rhr_key_mouse() {
                    if let event = Self.mouseEvent() { return .mouse(event) }
                    continue
                }
                if let key = Self.functionKey(Int32(code)) { return .key(key) }
                continue   // a function key rhr has no use for
            }
            if let key = Self.characterKey(UInt32(code)) { return .key(key) }
        }
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case rhr_key_f(1)...rhr_key_f(12): return .function(Int(code - rhr_key_f(0)))
        default: return nil
        }
    }

    /// The mouse event curses decoded: a left press or a turn of the wheel; nil for the rest (releases).
    private static func mouseEvent() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let kind: MouseEvent.Kind
        if state & rhr_button1_pressed() != 0 {
            kind = .press
        } else if state & rhr_wheel_up() != 0 {
            kind = .wheelUp
        } else if state & rhr_wheel_down() != 0 {
            kind = .wheelDown
        } else {
            return nil
        }
        return MouseEvent(kind, x: Int(event.x), y: Int(event.y))
    }

    static func characterKey(_ value: UInt32) -> Key? {
        switch value {
        case 27: return .escape
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        default:
            guard value >= 32, let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    private static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// Colour pairs for the style roles, from the theme's colours (`ThemeColours`) as far as the terminal has them.
/// Calm colours, none of them red or green (R11).
struct Palette {
    /// How many pairs were set up; 0 means no colour.
    var pairs: Int32
    /// Roles the theme leaves to the terminal's foreground, dimmed (the sixteen colours have no grey).
    var dimmed: Set<Int32> = []
    /// The theme has a background for the usual range.
    var shadesBand = false

    static let none = Palette(pairs: 0)

    /// Foreground roles, in pair order: 0 plain (the default pair when on the default background), 1 muted,
    /// 2 accent, 3 context, 4… the series.
    static let roles = 4 + Int32(Tint.seriesCount)

    static func role(_ tint: Tint) -> Int32 {
        switch tint {
        case .plain, .band: return 0
        case .muted: return 1
        case .accent: return 2
        case .context: return 3
        case .series(let n): return 4 + Int32(((n % Tint.seriesCount) + Tint.seriesCount) % Tint.seriesCount)
        }
    }

    /// The pair for a foreground role on the default background, or (from `roles` on) on the band's.
    static func pair(for tint: Tint, onBand: Bool = false) -> Int32 {
        onBand ? roles + role(tint) : role(tint)
    }

    /// The colour number curses is given for `colour` on a terminal of `colors` colours: -1 the terminal's own; a
    /// bright colour (8–15) its plain form with eight; true colour itself where the terminal takes direct colour.
    static func number(_ colour: ThemeColours.Colour, colors: Int) -> Int32 {
        switch colour {
        case .terminal: return -1
        case .indexed(let n): return Int32(n < colors ? n : n < 16 ? n - 8 : -1)
        case .rgb(let r, let g, let b):
            return Int32(colors >= 0x1000000 ? r << 16 | g << 8 | b : ThemeColours.nearestIndexed(r, g, b))
        }
    }

    @MainActor
    static func start(colors: Int, theme: ThemeColours) -> Palette {
        // A fixed theme needs 256 colours; with fewer, the terminal's own (sixteen, or eight).
        let theme = colors >= 256 ? theme : .sixteen
        func number(_ colour: ThemeColours.Colour?) -> Int32 { Palette.number(colour ?? .terminal, colors: colors) }
        var foreground: [Int32] = [-1, number(theme.muted), number(theme.accent), number(theme.context)]
        foreground += (0..<Tint.seriesCount).map { number(theme.series[$0 % theme.series.count]) }
        let band = theme.band.map { number($0) } ?? -1
        for (role, colour) in foreground.enumerated() {
            if role > 0 { init_extended_pair(Int32(role), colour, -1) }
            init_extended_pair(roles + Int32(role), colour, band)
        }
        var dimmed: Set<Int32> = []
        if theme.muted == nil { dimmed.insert(1) }
        if theme.context == nil { dimmed.insert(3) }
        return Palette(pairs: 2 * roles, dimmed: dimmed, shadesBand: theme.band != nil)
    }

    func attributes(for style: Style) -> (attr_t, Int32) {
        var attributes = rhr_a_normal()
        if style.attributes.contains(.bold) { attributes |= rhr_a_bold() }
        if style.attributes.contains(.dim) { attributes |= rhr_a_dim() }
        if style.attributes.contains(.reverse) { attributes |= rhr_a_reverse() }
        if style.attributes.contains(.underline) { attributes |= rhr_a_underline() }
        let role = Palette.role(style.tint)
        if pairs == 0 {
            // Without colour, muted text is dim so it still steps back.
            if style.tint == .muted || style.tint == .context { attributes |= rhr_a_dim() }
            return (attributes, 0)
        }
        let onBand = style.background == .band && shadesBand
        // A role the theme leaves to the terminal's foreground steps back by being dim.
        if dimmed.contains(role) { return (attributes | rhr_a_dim(), Palette.pair(for: .plain, onBand: onBand)) }
        return (attributes, Palette.pair(for: style.tint, onBand: onBand))
    }
}
