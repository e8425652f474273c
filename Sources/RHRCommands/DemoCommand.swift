import Foundation
import RHRCore

/// `rhr demo`: the bundled samples in a temporary store.
enum DemoCommand {
    static let command = Command(
        name: "demo", operands: .none, summary: "show rhr on the bundled samples (a temporary store)",
        // No daemon can serve the demo's store, made for the run and removed when it ends: no socket to follow.
        options: [], run: run,
        details: """
            The samples go into a temporary store, removed when the dashboard ends; no daemon serves it, so nothing
            here updates live. To follow your own data live: rhr import FILE (into your store), rhr daemon (with
            --http ADDR:PORT for phone feeds, docs/phone-feeds.md), then rhr.
            """)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let samples = try SamplesDirectory.locate(environment: invocation.environment)
        let options = try ImportCommand.importOptions(invocation)
        let temporary = try TemporaryStore()
        let store = try temporary.open(machineZone: invocation.machineZone)
        for path in try SamplesDirectory.demoFiles(in: samples) {
            _ = try ImportCommand.importFile(path, into: store, options: options, output: invocation.output)
        }
        return try DashboardCommand.show(storePath: temporary.path, source: "the bundled samples (a temporary store)",
                                         stateKey: "demo", invocation: invocation, temporary: true)
    }
}

/// Where the bundled `Samples/` are: `$RHR_SAMPLES`; else beside the binary, as `scripts/install` puts them
/// (`PREFIX/share/rhr/samples` for `PREFIX/bin/rhr`); else in the package the binary was built in.
enum SamplesDirectory {
    static func locate(environment: [String: String]) throws -> String {
        var candidates: [String] = []
        if let explicit = environment["RHR_SAMPLES"] { candidates.append(explicit) }
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = PathText.parent(binary)
        candidates.append(PathText.join(PathText.parent(dir), "share/rhr/samples"))
        // .build/<triple>/<config>/rhr → the package root is three levels up from the binary.
        for _ in 0..<4 {
            candidates.append(PathText.join(dir, "Samples"))
            dir = PathText.parent(dir)
        }
        // The source tree this binary was built from.
        candidates.append(PathText.join(PathText.parent(PathText.parent(PathText.parent(#filePath))), "Samples"))
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/batches") {
            return candidate
        }
        throw CommandFailure("cannot find the bundled Samples directory; set RHR_SAMPLES to it")
    }

    /// The sample files the demo imports, in order.
    static func demoFiles(in samples: String) throws -> [String] {
        let dir = samples + "/batches"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.sorted()
        return names.map { dir + "/" + $0 }
    }
}
