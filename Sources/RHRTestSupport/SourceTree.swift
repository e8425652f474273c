import Foundation
import RHRCore

/// The package's own files: its root, the bundled samples, and the programs `swift build` made from it.
public enum SourceTree {
    /// The package root, found from this file (Sources/RHRTestSupport/SourceTree.swift).
    public static let root = PathText.parent(PathText.parent(PathText.parent(#filePath)))

    /// `Samples/`, the files rhr is shown and tested on.
    public static let samples = root + "/Samples"

    /// The path of the product `name` (`rhr`) of the same build as the running program: SwiftPM puts every
    /// product of a build, the test bundle and `rhr-bench` included, in one directory, whatever the configuration
    /// (debug, release) or platform triple. Else the directory `swift build --show-bin-path` names.
    public static func builtProduct(_ name: String) throws -> String {
        var candidates: [String] = []
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(PathText.join(PathText.parent(me), name))
        }
        // Asking SwiftPM costs a second or so: only when the product is not beside the running program.
        if !candidates.contains(where: FileManager.default.isExecutableFile(atPath:)), let swift = Subprocess.which("swift"),
           let bin = try? Subprocess.run(swift, ["build", "--show-bin-path"], directory: root), bin.status == 0 {
            candidates.append(bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/" + name)
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestFailure("\(name) is not built (looked at \(candidates.joined(separator: ", "))): run `swift build` "
                + "before `swift test` (scripts/test does)")
        }
        return found
    }
}
