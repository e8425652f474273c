import Foundation

/// What a program run to its end left behind: how it ended and what it wrote. (The in-process command tests
/// compare `RHRMain.run` by the same three values.)
public struct SubprocessResult: Sendable, Equatable {
    /// The exit status, or 128 + the signal that ended it, as a shell reports it.
    public var status: Int32
    public var stdout, stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// How a child process ended.
public enum Termination: Sendable, Equatable {
    case exited(Int32)
    case signalled(Int32)

    /// From a `waitpid` status (`WIFEXITED` and friends, which Swift does not import).
    init(waitStatus: Int32) {
        self = waitStatus & 0x7f == 0 ? .exited((waitStatus >> 8) & 0xff) : .signalled(waitStatus & 0x7f)
    }

    /// As a shell reports it: the exit status, or 128 + the signal.
    public var status: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }
}

/// Starts programs with `posix_spawn`, for the tests and the bench. Not Foundation's `Process`: a program that
/// leaves a daemon behind (a tmux server) would hand it the pipe `Process` watches, and `waitUntilExit` would
/// never return; and a test thread's blocked signals would be inherited by everything the child starts. Here
/// the child gets only its three standard streams (nothing else this process has open), every signal
/// unblocked and at its default.
public enum Subprocess {
    /// Runs `path` to its end with `input` on its stdin (else /dev/null) and returns what it wrote to stdout and
    /// stderr. `environment` nil inherits this process's; `directory` nil keeps the current one.
    /// `closed` names the standard streams (1, 2) the child starts without, as `>&-` and `2>&-` leave them.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                           directory: String? = nil, input: String? = nil, closed: Set<Int32> = []) throws -> SubprocessResult {
        let stdout = try PipeEnds(), stderr = try PipeEnds()
        let stdin = try input.map { _ in try PipeEnds() }
        let pid = try spawn(path, arguments, environment: environment, directory: directory,
                            streams: [stdin.map { .descriptor($0.read) } ?? .null,
                                      closed.contains(1) ? .closed : .descriptor(stdout.write),
                                      closed.contains(2) ? .closed : .descriptor(stderr.write)])
        // The child holds its own copies now; closing ours lets the reads below end when the child's do.
        stdout.closeWrite()
        stderr.closeWrite()
        stdin?.closeRead()
        let (out, err) = collect(stdout: stdout.read, stderr: stderr.read, input: input.map { Array($0.utf8) },
                                 inputDescriptor: stdin?.write)
        return SubprocessResult(status: wait(pid).status, stdout: String(decoding: out, as: UTF8.self),
                                stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `path` to its end with its standard streams on /dev/null; returns its status. For programs that
    /// start a daemon (a tmux server), which must not keep any pipe of this process alive.
    public static func status(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                              directory: String? = nil) throws -> Int32 {
        wait(try spawn(path, arguments, environment: environment, directory: directory, streams: [.null, .null, .null]))
            .status
    }

    /// Starts `path` and returns at once; stdin and stdout on /dev/null, stderr appended to `stderrFile` (else
    /// /dev/null).
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                             directory: String? = nil, stderrFile: String? = nil) throws -> RunningProcess {
        try start(path, arguments, environment: environment, directory: directory, stderr: stderrFile.map { .file($0) } ?? .null)
    }

    /// Starts `path` and returns at once; stdin and stdout on /dev/null, stderr where `stderr` says.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                             directory: String? = nil, stderr: Stream) throws -> RunningProcess {
        RunningProcess(pid: try spawn(path, arguments, environment: environment, directory: directory,
                                      streams: [.null, .null, stderr]))
    }

    /// The first executable `name` on `$PATH`.
    public static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    // MARK: - Spawning

    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        case null
        /// Appended to, created 0600 when missing.
        case file(String)
        /// A descriptor of this process (a pipe's end).
        case descriptor(Int32)
        /// Not open at all (`>&-`): a write fails with EBADF.
        case closed
        /// A pipe whose reader is gone (a `tee` that ended, a closed terminal's pipe): a write fails with EPIPE, or
        /// raises SIGPIPE where the child did not ignore it.
        case pipeWithoutReader
    }

    static func spawn(_ path: String, _ arguments: [String], environment: [String: String]?, directory: String?,
                      streams: [Stream]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let chdir = GlibcExtras.addChdir else { throw TestFailure("this C library cannot start a program in a directory") }
            _ = chdir(&actions, directory)
        }
        // Pipes whose read end is closed at once; their write ends are the child's only.
        var readerless: [PipeEnds] = []
        for (fd, stream) in zip(Int32(0)..., streams) {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let file): posix_spawn_file_actions_addopen(&actions, fd, file, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let own): posix_spawn_file_actions_adddup2(&actions, own, fd)
            case .closed: posix_spawn_file_actions_addclose(&actions, fd)
            case .pipeWithoutReader:
                let pipe = try PipeEnds()
                pipe.closeRead()
                readerless.append(pipe)
                posix_spawn_file_actions_adddup2(&actions, pipe.write, fd)
            }
        }
        defer { readerless.forEach { $0.closeWrite() } }
        // Nothing else: a pipe another test reads to its end must not live on in a daemon the child starts.
        _ = GlibcExtras.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // A sanitized child (scripts/test-tsan) keeps the sanitizer's options whatever environment a test gives it.
        let sanitizer = ProcessInfo.processInfo.environment["TSAN_OPTIONS"].map { ["TSAN_OPTIONS": $0] } ?? [:]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map {
            $0.merging(sanitizer) { own, _ in own }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let status = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard status == 0 else { throw TestFailure("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits for a child to end, whatever signals interrupt the wait.
    static func wait(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Termination(waitStatus: status)
    }

    // MARK: - Reading and writing the child's streams

    /// Both ends of a pipe, each closed on `exec` (the child gets only the copies `dup2` makes).
    final class PipeEnds {
        private(set) var read: Int32
        private(set) var write: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            // pipe2 makes both ends close-on-exec at once, so no program another thread starts meanwhile inherits them.
            let made = GlibcExtras.pipe2.map { $0(&fds, O_CLOEXEC) }
                ?? (pipe(&fds) == 0 && fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0 ? 0 : -1)
            guard made == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
            (read, write) = (fds[0], fds[1])
        }

        func closeRead() { if read >= 0 { close(read); read = -1 } }
        func closeWrite() { if write >= 0 { close(write); write = -1 } }
        deinit { closeRead(); closeWrite() }
    }

    /// Reads both output pipes to their ends while writing `input`, in one thread: a child that fills one pipe
    /// while this side waits on the other would otherwise stall both.
    static func collect(stdout: Int32, stderr: Int32, input: [UInt8]?, inputDescriptor: Int32?) -> ([UInt8], [UInt8]) {
        var output: [Int32: [UInt8]] = [stdout: [], stderr: []]
        var reading: Set<Int32> = [stdout, stderr]
        var writer = inputDescriptor
        var pending = input?[...] ?? []
        if let writer {
            _ = ignoreBrokenPipes
            _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !reading.isEmpty || writer != nil {
            if let w = writer, pending.isEmpty {
                close(w)
                writer = nil
                continue
            }
            var fds = reading.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let writer { fds.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            for p in fds where p.revents != 0 {
                if p.fd == writer {
                    let n = pending.withUnsafeBytes { Glibc.write(p.fd, $0.baseAddress, min($0.count, 1 << 16)) }
                    if n > 0 {
                        pending = pending.dropFirst(n)
                    } else if n < 0 && errno != EAGAIN && errno != EINTR {
                        pending = []   // the child stopped reading: the rest of the input is not wanted
                    }
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { Glibc.read(p.fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    output[p.fd, default: []].append(contentsOf: buffer[0..<n])
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    reading.remove(p.fd)
                }
            }
        }
        return (output[stdout] ?? [], output[stderr] ?? [])
    }

    /// A child that stops reading its input must fail the write, not end this process with SIGPIPE.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
}

/// What glibc has and the Glibc module does not import (`pipe2`, 2.29's chdir and 2.34's closefrom spawn
/// actions), looked up at run time.
enum GlibcExtras {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let pipe2: Pipe2? = symbol("pipe2")
    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<F>(_ name: String) -> F? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: F.self) }
    }
}
