// rhr-bench: the measurements behind scripts/bench (docs/design.md section 7). Each section lives in its own
// file and prints its figures as ratios against a baseline measured in the same run.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let sections: [String: ([String]) throws -> Void] = [
    "daemon": DaemonBench.run,
    "http": HTTPBench.run,
    "import": ImportBench.run,
    "json": JSONBench.run,
    "store": StoreBench.run,
    "dashboard": DashboardBench.run,
    "live": LiveDashboardBench.run,
    "report": ReportBench.run,
]
guard let name = arguments.first, let section = sections[name] else {
    let names = sections.keys.sorted().joined(separator: "|")
    // The throwing write: FileHandle.write(Data) traps on a closed stream.
    try? FileHandle.standardError.write(contentsOf: Data("usage: rhr-bench \(names) [options]\n".utf8))
    exit(2)
}
do {
    try section(Array(arguments.dropFirst()))
} catch {
    try? FileHandle.standardError.write(contentsOf: Data("rhr-bench \(name): \(error)\n".utf8))
    exit(1)
}
