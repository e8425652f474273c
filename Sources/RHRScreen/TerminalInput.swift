/// A key as the dashboard sees it, decoded from whatever the terminal sent.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    case character(Character)
    /// Ctrl plus a letter, lower-case: Ctrl-C is `.control("c")`.
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case escape, tab, backTab, enter, backspace, delete
    /// F1…F12.
    case function(Int)

    public var description: String {
        switch self {
        case .character(let c): return String(c)
        case .control(let c): return "Ctrl-\(c.uppercased())"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .enter: return "Enter"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .function(let n): return "F\(n)"
        }
    }

    /// The key's name in plain ASCII, for terminals without UTF-8.
    public var asciiDescription: String {
        switch self {
        case .up: return "Up"
        case .down: return "Down"
        case .left: return "Left"
        case .right: return "Right"
        default: return description
        }
    }
}

/// Signals the terminal layer turns into input, so the loop can exit cleanly and restore the terminal.
public enum TerminalSignal: Sendable, Hashable {
    /// SIGINT (Ctrl-C when the terminal sends it as a signal).
    case interrupt
    /// SIGTERM.
    case terminate
    /// SIGHUP: the terminal went away.
    case hangup
}

/// One thing that happened at the terminal.
public enum TerminalInput: Sendable, Hashable {
    case key(Key)
    case resize(TerminalSize)
    case signal(TerminalSignal)
    /// One of the extra file descriptors the caller asked to watch is readable (a daemon socket).
    case readable(Int32)
    case mouse(MouseEvent)
}

/// A mouse button or wheel event at a cell (0-based, from the top left), as the terminal reported it.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The left button went down.
        case press
        /// The wheel turned away from the user (up: the content moves up, to earlier rows), or towards them.
        case wheelUp, wheelDown
    }

    public var kind: Kind
    public var x, y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
