import Foundation
import RHRDaemonClient

/// The real `rhr` that `swift build` made, run in a private home: its own data directory (so the default store),
/// its own runtime directory (so the default socket), in UTC and a UTF-8 locale. What a test sees is only what
/// it set up. The in-process command tests use the same `environment`.
public struct RHRSandbox: Sendable {
    public let directory: TemporaryDirectory

    public init(directory: TemporaryDirectory? = nil) throws {
        self.directory = try directory ?? TemporaryDirectory(prefix: "rhr-cli")
    }

    public var home: String { directory.path }
    public var dataHome: String { home + "/data" }
    /// The default store under this `XDG_DATA_HOME`.
    public var storePath: String { dataHome + "/rhr/rhr.sqlite" }
    /// The default socket under this `XDG_RUNTIME_DIR`.
    public var socketPath: String { home + "/rhr/rhr.sock" }

    public var environment: [String: String] {
        ["HOME": home, "XDG_DATA_HOME": dataHome, "XDG_RUNTIME_DIR": home, "TZ": "UTC", "LANG": "C.UTF-8",
         "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    }

    /// Runs `rhr ARGS` to its end in the home directory, `input` on its stdin; `extra` adds to or overrides
    /// the environment; `closed` names the standard streams it starts without (`>&-`).
    public func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
                    closed: Set<Int32> = []) throws -> SubprocessResult {
        try Subprocess.run(try SourceTree.builtProduct("rhr"), arguments, environment: environment.merging(extra) { $1 },
                           directory: home, input: input, closed: closed)
    }

    /// Starts `rhr ARGS`, its stderr going to the file `log` in the home directory.
    public func start(_ arguments: [String], log name: String = "daemon.log") throws -> RunningProcess {
        try Subprocess.start(try SourceTree.builtProduct("rhr"), arguments, environment: environment, directory: home,
                             stderrFile: directory.file(name))
    }

    /// Starts `rhr ARGS`, its stderr where `stderr` says (a pipe nobody reads, nothing at all).
    public func start(_ arguments: [String], stderr: Subprocess.Stream) throws -> RunningProcess {
        try Subprocess.start(try SourceTree.builtProduct("rhr"), arguments, environment: environment, directory: home,
                             stderr: stderr)
    }

    /// Starts `rhr daemon ARGS` and waits until it answers on the default socket; its stderr goes to `daemon.log`
    /// unless `stderr` says otherwise.
    public func startDaemon(_ arguments: [String] = [], stderr: Subprocess.Stream? = nil) throws -> RunningProcess {
        let process = try stderr.map { try start(["daemon"] + arguments, stderr: $0) } ?? start(["daemon"] + arguments)
        let answering = eventually { DaemonClient.isListening(socketPath: socketPath) || !process.isRunning }
        guard answering && process.isRunning else { throw TestFailure("the daemon did not start: \(log())") }
        return process
    }

    /// What a process started here wrote to its log.
    public func log(_ name: String = "daemon.log") -> String {
        (try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? ""
    }

    /// Writes `text` to `name` in the home directory; returns its path.
    public func write(_ name: String, _ text: String) throws -> String { try directory.write(name, text) }
}
