// What a quit signal says on stderr before it ends an import, and the stretch in which it waits.
import CTemporaryFiles

/// The words a quit signal (SIGINT, SIGTERM, SIGHUP) leaves on stderr before it ends the process, on a line of its own
/// (after a progress bar's open line), and the stretch in which it waits: while a store is being written the signal is
/// kept, and it ends the process once the write is done, so that what the note says is so (`rhr import`:
/// "interrupted: nothing was imported"). A second signal meanwhile ends it at once. The handlers are
/// `TemporaryFiles.removeOnSignals`'s (docs/design.md section 8); the state is C's, where a handler can read it.
public enum QuitNote {
    /// The note to write from now on; nil for none.
    public static func set(_ note: String?) {
        if let note { rhr_quit_note_set(note) } else { rhr_quit_note_set(nil) }
    }

    /// Whether a line is open on stderr (a progress bar drawn in place).
    public static func lineOpen(_ open: Bool) { rhr_quit_note_line_open(open ? 1 : 0) }

    /// Runs `body` with quit signals kept until it is done; one that came meanwhile then ends the process.
    public static func holding<T>(if keeping: Bool = true, _ body: () throws -> T) rethrows -> T {
        if keeping { hold() }
        defer { if keeping { release() } }
        return try body()
    }

    /// `holding`'s two ends, for a stretch that begins inside another call: a file of sync batches is read while its
    /// transaction is open, so a signal then ends rhr at once (nothing of it is in the store), and only the commit after
    /// its last batch is waited for.
    public static func hold() { rhr_quit_hold() }

    public static func release() { rhr_quit_release() }
}
