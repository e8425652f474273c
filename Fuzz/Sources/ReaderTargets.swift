import Foundation
import RHRCore
@testable import RHRFormats

/// The options every reader gets: a fixed zone (R5), and temporary copies held small, so a zip bomb costs
/// the fuzzer a moment rather than its disk.
let fuzzOptions: ImportOptions = {
    var options = ImportOptions(machineZone: TimeZone(identifier: "Europe/Berlin")!)
    options.temporaryCopyLimit = 8 << 20
    return options
}()

/// The Apple Health export scanner, through its reader: the input is an `export.xml`, read in small blocks on
/// one thread so tags and entities fall across block boundaries everywhere.
enum AppleExportTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = FuzzScratch.file("export.xml", bytes)
        let tuning = AppleHealthReader.Tuning(blockSize: 1000, blocks: 2, threadedXML: false)
        _ = try? AppleHealthReader.read(path: path, options: fuzzOptions, progress: nil, tuning: tuning)
    }
}

/// Whatever a zip holds, as `rhr import` takes it: the survey of its members, an Apple export inside, a Health
/// Connect database copied out (bounded), both, or neither.
enum ZipTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = FuzzScratch.file("export.zip", bytes)
        _ = try? FileImporter.read(path: path, options: fuzzOptions)
    }
}

/// The Health Connect reader on a database image: the input is written to a private file and opened as the
/// user's `health_connect_export.db` is, read-only and immutable.
enum HealthConnectTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = FuzzScratch.file("health_connect_export.db", bytes)
        _ = try? HealthConnectReader.read(path: path, options: fuzzOptions, progress: nil)
    }
}

/// The Health Auto Export reader on a JSON file.
enum HealthAutoExportTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = FuzzScratch.file("HealthAutoExport.json", bytes)
        _ = try? HealthAutoExportReader.read(path: path, options: fuzzOptions, progress: nil)
    }
}
