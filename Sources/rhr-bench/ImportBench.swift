import Foundation
import RHRCore
import RHRFormats

enum ImportBench {
    static func run(_ arguments: [String]) throws {
        if arguments.first == "read" {
            let path = arguments[1]
            let started = DispatchTime.now().uptimeNanoseconds
            let file = try AppleHealthReader.read(path: path, options: ImportOptions(), progress: nil)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let batch = file.batches[0]
            print("records \(file.recordsRead) resting \(batch.resting.count) hr-days \(batch.heartRate.count) "
                + "watch \(batch.watchWriters.sorted()) asOf \(batch.asOf) skipped \(file.skipped) \(String(format: "%.3f", seconds)) s")
            for s in batch.resting.prefix(3) { print(s) }
            for h in batch.heartRate.prefix(3) { print(h) }
            return
        }
    }
}
