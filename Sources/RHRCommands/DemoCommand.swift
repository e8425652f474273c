import Foundation
import RHRCore
import RHRFormats
import RHRStore

/// `rhr demo`: the bundled samples in a temporary store.
enum DemoCommand {
    static let command = Command(
        name: "demo", arguments: "[--socket PATH]", summary: "show rhr on the bundled samples (a temporary store)",
        options: [DaemonCommand.socketOption], run: run)

    static func run(_ invocation: Invocation) throws -> Int32 {
        let samples = try SamplesDirectory.locate(environment: invocation.environment)
        let options = try ImportCommand.importOptions(invocation)
        let temporary = try TemporaryStore()
        let store = try temporary.open(machineZone: invocation.machineZone)
        for path in try SamplesDirectory.demoFiles(in: samples) {
            _ = try ImportCommand.importFile(path, into: store, options: options, output: invocation.output)
        }
        return try DashboardCommand.show(storePath: temporary.path, source: "the bundled samples (a temporary store)",
                                         invocation: invocation)
    }
}

/// Where the bundled `Samples/` are: `$RHR_SAMPLES`, else beside the package the binary was built in.
enum SamplesDirectory {
    static func locate(environment: [String: String]) throws -> String {
        var candidates: [String] = []
        if let explicit = environment["RHR_SAMPLES"] { candidates.append(explicit) }
        // .build/<config>/rhr → the package root is three levels up from the binary.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = binary.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("Samples").path)
            dir = dir.deletingLastPathComponent()
        }
        // The source tree this binary was built from.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(source.appendingPathComponent("Samples").path)
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
