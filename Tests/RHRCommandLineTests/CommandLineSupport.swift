import Foundation
import RHRTestSupport

/// The real rhr in a sandbox whose `TMPDIR` is a directory of its own: empty before, so what it holds after a
/// run is what rhr left behind there.
struct SandboxWithOwnTMPDIR {
    let rhr: RHRSandbox
    let tmp: TemporaryDirectory

    init() throws {
        rhr = try RHRSandbox()
        tmp = try TemporaryDirectory(prefix: "rhr-tmp")
    }

    /// The sandbox's environment with `TMPDIR` set.
    var environment: [String: String] { rhr.environment.merging(["TMPDIR": tmp.path]) { $1 } }
}
