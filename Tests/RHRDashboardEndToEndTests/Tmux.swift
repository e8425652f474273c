import Foundation
import RHRTestSupport

/// A detached tmux session on a private server (its own socket), running one command. The server is killed
/// with `kill()` or, at the latest, when the value goes away.
final class Tmux {
    /// The server's socket, in a private directory removed with it (where a test may keep its files too).
    let socket: String
    let directory: TemporaryDirectory
    let session = "rhr"
    /// The session's current window and pane. Not the bare name: tmux looks a bare name up as a window name
    /// first, and a window running `rhr` is named `rhr` too (the daemon's, when the dashboard has a second).
    var target: String { session + ":" }
    let tmux: String

    /// Starts `command` (run by `sh -c`) in a `width`×`height` pane that stays after the command ends; the
    /// server's socket goes in `directory` (a new one unless given).
    init(width: Int, height: Int, directory: TemporaryDirectory? = nil, command: String) throws {
        guard let tmux = Subprocess.which("tmux") else {
            throw TestFailure("tmux is not installed; scripts/setup installs it")
        }
        self.tmux = tmux
        self.directory = try directory ?? TemporaryDirectory(prefix: "rhr-tmux")
        socket = self.directory.path + "/tmux.sock"
        // This starts the server, which keeps what it inherits: nothing but /dev/null (`Subprocess.status`).
        let status = try Subprocess.status(tmux, ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                                                  "-x", "\(width)", "-y", "\(height)", command,
                                                  ";", "set-option", "-t", session, "remain-on-exit", "on"])
        guard status == 0 else { throw TestFailure("tmux new-session exited with \(status)") }
    }

    /// The screen's text; with `history`, also what scrolled off the top; with `escapes`, with the
    /// attributes and colours as escape sequences.
    func capture(history: Bool = false, escapes: Bool = false) -> String {
        (try? output(["capture-pane", "-p", "-t", target] + (history ? ["-S", "-"] : []) + (escapes ? ["-e"] : []))) ?? ""
    }

    /// Polls the screen (with `history`, also what scrolled off it) until `text` is on it, for up to
    /// `seconds`; returns that screen.
    @discardableResult
    func waitFor(_ text: String, history: Bool = false, seconds: Double = 20) throws -> String {
        try waitUntil(seconds: seconds, history: history, "\"\(text)\"") { $0.contains(text) }
    }

    /// Polls the screen until every one of `texts` is on it at once. A frame reaches tmux in pieces, so one text on
    /// the screen does not mean the rest of its frame is: a test that expects several waits for them all.
    @discardableResult
    func waitForAll(_ texts: String..., history: Bool = false, seconds: Double = 20) throws -> String {
        try waitUntil(seconds: seconds, history: history, texts.map { "\"\($0)\"" }.joined(separator: " and ")) { screen in
            texts.allSatisfy { screen.contains($0) }
        }
    }

    /// Polls the screen until `condition` holds, for up to `seconds`.
    @discardableResult
    func waitUntil(seconds: Double = 20, history: Bool = false, _ what: String,
                   _ condition: (String) -> Bool) throws -> String {
        var screen = ""
        // Every 20 ms: each look starts a tmux client.
        guard eventually(timeout: seconds, every: 0.02, { screen = capture(history: history); return condition(screen) }) else {
            throw TestFailure("no \(what) on the screen within \(Int(seconds)) s; the screen was:\n\(screen)")
        }
        return screen
    }

    /// Sends keys in tmux's notation: "a", "Escape", "C-c", "PageDown".
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", target] + keys)
    }

    /// Starts `command` in a new window of the session, which becomes the one `capture` and `send` see; it
    /// stays after the command ends, as the first one does.
    func newWindow(command: String) throws {
        try run(["set-window-option", "-g", "remain-on-exit", "on", ";", "new-window", "-t", target, command])
    }

    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Kills the server and waits for what ran in its panes to end: rhr saves its view and removes its temporary
    /// files on the hang-up, and must be done before the test's directory goes (else it writes into a directory
    /// already removed, and leaves that behind).
    func kill() {
        let processes = paneProcesses()
        _ = try? run(["kill-server"])
        _ = eventually(timeout: 10, every: 0.01) { !processes.contains(where: Tmux.isRunning) }
    }

    /// The processes of the session's panes and all their descendants (rhr runs under a shell or two).
    private func paneProcesses() -> Set<pid_t> {
        guard let text = try? output(["list-panes", "-s", "-t", session, "-F", "#{pane_pid}"]) else { return [] }
        var found = Set(text.split(separator: "\n").compactMap { pid_t($0) })
        let parents = Tmux.parents()
        var grew = true
        while grew {
            let children = parents.filter { found.contains($0.value) }.map(\.key)
            grew = !found.isSuperset(of: children)
            found.formUnion(children)
        }
        return found
    }

    /// Every process's parent, from /proc.
    private static func parents() -> [pid_t: pid_t] {
        var result: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let fields = stat(pid) else { continue }
            if fields.count > 1, let parent = pid_t(fields[1]) { result[pid] = parent }
        }
        return result
    }

    /// Alive and not a zombie (a zombie no parent reaps stays in /proc, but runs nothing).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let fields = stat(pid) else { return false }
        return fields.first != "Z"
    }

    /// The fields of /proc/PID/stat after the command's name: the state, then the parent, and so on.
    private static func stat(_ pid: pid_t) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    deinit { kill() }

    private func run(_ arguments: [String]) throws {
        _ = try output(arguments)
    }

    private func output(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(tmux, ["-S", socket, "-f", "/dev/null"] + arguments)
        guard result.status == 0 else {
            throw TestFailure("tmux \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        return result.stdout
    }
}
