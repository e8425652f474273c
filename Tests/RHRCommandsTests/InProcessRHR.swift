import Foundation
@testable import RHRCommands
import RHRTestSupport
import Synchronization
import Testing

/// What a command wrote to its stdout and stderr, kept in memory.
final class CapturedOutput: Sendable {
    private let streams = Mutex<(stdout: String, stderr: String)>(("", ""))

    var stdout: String { streams.withLock { $0.stdout } }
    var stderr: String { streams.withLock { $0.stderr } }

    /// An `Output` writing here; stdout is never a terminal (that would start the dashboard), stderr may claim
    /// to be one (that draws the progress bar).
    func output(stderrIsTerminal: Bool = false) -> Output {
        Output(stdoutIsTerminal: false, stderrIsTerminal: stderrIsTerminal,
               stdout: { text in self.streams.withLock { $0.stdout += text } },
               stderr: { text in self.streams.withLock { $0.stderr += text } })
    }
}

/// `rhr` called in this process through `RHRMain.run`, in a sandbox's private environment (home, data and
/// runtime directories, UTC): the same words and environment the spawned tests give the binary.
struct InProcessRHR {
    let sandbox: RHRSandbox

    init() throws { sandbox = try RHRSandbox() }

    /// Runs `rhr ARGS`; `extra` adds to or overrides the environment.
    func run(_ arguments: [String], environment extra: [String: String] = [:], stderrIsTerminal: Bool = false) -> SubprocessResult {
        let captured = CapturedOutput()
        let status = RHRMain.run(arguments, environment: sandbox.environment.merging(extra) { $1 },
                                 output: captured.output(stderrIsTerminal: stderrIsTerminal))
        return SubprocessResult(status: status, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// This sandbox once `rhr import PATHS` has imported every file.
    func importing(_ paths: [String]) throws -> InProcessRHR {
        let result = run(["import"] + paths)
        try #require(result.status == 0, "\(result.stderr)")
        return self
    }

    /// The rows `rhr export ARGS` prints, its heading left out.
    func exportRows(_ arguments: [String] = []) -> [String] {
        run(["export"] + arguments).stdout.split(separator: "\n").dropFirst().map(String.init)
    }

    /// The sample files of `Samples/` by their path below it.
    static func sample(_ path: String) -> String { SourceTree.samples + "/" + path }
}
