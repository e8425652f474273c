import Foundation

// The JSON parser against Foundation's `JSONSerialization` (the baseline) on one whole document: the Health Auto Export
// file the import section generates (100 MB unless `--hae-size` says otherwise), or FILE, held in memory and parsed
// whole by each in turn.
//
//   rhr-bench json [FILE] [--hae-size MB] [--runs N] [--seed N] [--dir DIR] [--fresh]
enum JSONBench {
    static func run(_ arguments: [String]) throws {
        let options = try ImportBench.Options(arguments)
        let path: String
        if let file = arguments.first, !file.hasPrefix("--") {
            path = file
        } else {
            guard let (file, summary) = try ImportBench.prepareHealthAutoExport(options: options) else { return }
            print("json: \(file): \(summary)")
            path = file
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let (oursMedian, foundationMedian) = try StoreBench.parseTimes(data, runs: options.runs)
        print(String(format: "json: parse %.1f MB whole  median of %d: JSONParser %.3f s; JSONSerialization %.3f s (baseline); "
                     + "rhr's parser takes %.2f × baseline", Double(data.count) / 1_048_576, options.runs, oursMedian,
                     foundationMedian, oursMedian / max(foundationMedian, 0.000_001)))
    }
}
