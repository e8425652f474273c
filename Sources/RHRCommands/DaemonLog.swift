import Foundation
import RHRCore
import RHRSystem

/// Where `rhr daemon` says what it does: stderr (the journal under systemd), and with `--log FILE` that file too
/// (appended, created 0600, each line dated with the local time and its offset; reopened on SIGHUP, so logrotate can
/// move it away).
///
/// Saying never holds the daemon up and never ends it: lines are queued and written by a thread of their own, so a
/// terminal that stopped reading (Ctrl-S, a paused pager) stalls no request; a stderr that cannot be written any more
/// (the `tee` ended, the terminal or SSH session closed: EPIPE, EIO, EBADF) is given up, said once in the file, and
/// the lines go on to the file, else to the system log (the journal, where one listens on /dev/log), else nowhere.
/// The daemon's acknowledgements never wait on the log.
final class DaemonLog: @unchecked Sendable {
    private let output: Output
    private let prefix: String
    private let path: String?
    private let zone: TimeZone
    /// Guards everything below, and wakes the writer.
    private let condition = NSCondition()
    private var queue: [String] = []
    private var dropped = 0
    private var fileFD: Int32 = -1
    private var reopenAsked = false
    private var finishing = false
    private var writerDone = false
    private var stderrGiven = false
    private var usingSyslog = false

    /// Lines that may wait for the writer; past that they are counted and the count is said when it catches up.
    static let queueLimit = 10_000

    /// Opens `path` (when given) before the daemon starts, so a log file it cannot write is a refused start.
    init(output: Output, prefix: String, path: String?, zone: TimeZone) throws(CommandFailure) {
        self.output = output
        self.prefix = prefix
        self.path = path
        self.zone = zone
        if let path {
            fileFD = try DaemonLog.open(path)
            if let mode = DaemonLog.openToOthers(fileFD) {
                output.error("\(prefix): --log \(path): the file is readable by others (mode \(mode)); rhr leaves the mode "
                    + "of a file it did not make as it is: chmod 600 \(path)")
            }
        }
        let thread = Thread { [self] in writeLines() }
        thread.name = "rhr-log"
        thread.start()
    }

    /// Queues a line; returns at once.
    func say(_ message: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !finishing else { return }
        if queue.count >= DaemonLog.queueLimit {
            dropped += 1
            return
        }
        queue.append(message)
        condition.signal()
    }

    /// SIGHUP: the file is opened again by its name (a new one when logrotate moved it away).
    func reopen() {
        condition.lock()
        reopenAsked = true
        condition.signal()
        condition.unlock()
    }

    /// Writes what is queued, for up to `timeout` seconds, then closes the file; later lines are dropped.
    func finish(timeout: Double = 2) {
        condition.lock()
        finishing = true
        condition.signal()
        let deadline = Date().addingTimeInterval(timeout)
        while !writerDone && condition.wait(until: deadline) {}
        condition.unlock()
    }

    // MARK: - The writer's thread

    private func writeLines() {
        condition.lock()
        while true {
            while queue.isEmpty && !reopenAsked && !finishing { condition.wait() }
            let lines = queue, lost = dropped, reopening = reopenAsked, done = finishing
            queue.removeAll(keepingCapacity: true)
            dropped = 0
            reopenAsked = false
            condition.unlock()
            if reopening { reopenFile() }
            if lost > 0 { write("\(Wording.count(lost, "log line")) dropped: the log was written more slowly than the daemon said things") }
            lines.forEach(write)
            condition.lock()
            if done && queue.isEmpty { break }
        }
        if fileFD >= 0 { close(fileFD) }
        fileFD = -1
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }

    private func write(_ message: String) {
        let line = "\(prefix): \(message)"
        if !stderrGiven && !output.writeError(line + "\n") {
            stderrGiven = true
            let why = "stderr can no longer be written (its reader is gone or it was closed); the daemon goes on, "
            if fileFD >= 0 {
                writeFile("\(prefix): " + why + "logging to this file only")
            } else {
                usingSyslog = true
                openlog("rhr", LOG_PID, LOG_DAEMON)
                syslog(prefix + ": " + why + "logging to the system log")
            }
        }
        if fileFD >= 0 { writeFile(line) }
        if usingSyslog && stderrGiven { syslog(line) }
    }

    private func writeFile(_ line: String) {
        let now = MachineClock.now(in: zone)
        // A full disk loses the line, not the daemon.
        _ = StandardStream.write(now.iso8601 + " " + line + "\n", to: fileFD, patience: 1)
    }

    private func syslog(_ line: String) {
        withVaList([line]) { vsyslog(LOG_INFO, "%s", $0) }
    }

    private func reopenFile() {
        guard let path else {
            write("SIGHUP: going on (rhr daemon stops on SIGTERM or SIGINT)")
            return
        }
        do {
            let fd = try DaemonLog.open(path)
            if fileFD >= 0 { close(fileFD) }
            fileFD = fd
            write("SIGHUP: log file reopened; going on (rhr daemon stops on SIGTERM or SIGINT)")
        } catch {
            write("SIGHUP: cannot reopen the log file: \(error.message); going on with the one open")
        }
    }

    private static func open(_ path: String) throws(CommandFailure) -> Int32 {
        let fd: Int32
        do {
            fd = try PrivateFiles.openForAppending(path)
        } catch {
            throw CommandFailure("--log \(path): cannot open the log file: \(error.reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
            close(fd)
            throw CommandFailure("--log \(path): a directory, not a file")
        }
        return fd
    }

    /// The mode of a regular log file others may read ("644"), nil for a private one or a pipe or terminal.
    private static func openToOthers(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 != 0 else { return nil }
        return String(info.st_mode & 0o777, radix: 8)
    }
}
