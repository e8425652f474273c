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
/// one thread so tags and entities fall across block boundaries everywhere; then in pieces on several threads
/// (`AppleHealthPieces`), split where Apple's records start and where the input's last byte says, which must
/// read exactly the same, error included.
enum AppleExportTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let path = FuzzScratch.file("export.xml", bytes)
        let whole = outcome(path, AppleHealthReader.Tuning(blockSize: 1000, blocks: 2, threadedXML: false, pieces: 1))
        guard bytes.count > 2 else { return }
        let split = 1 + Int64(bytes[bytes.count - 1]) * Int64(bytes.count - 2) / 255
        for tuning in [AppleHealthReader.Tuning(blockSize: 333, pieces: 3, piecesFrom: 0),
                       AppleHealthReader.Tuning(blockSize: 1000, pieceStarts: [0, split])] {
            let pieces = outcome(path, tuning)
            if pieces != whole { fatalError("in pieces \(tuning): \(pieces)\nin one: \(whole)") }
        }
    }

    /// The batches read, or the error, as text.
    private static func outcome(_ path: String, _ tuning: AppleHealthReader.Tuning) -> String {
        do {
            return AppleHealthReader.comparableText(
                try AppleHealthReader.read(path: path, options: fuzzOptions, progress: nil, tuning: tuning))
        } catch {
            return "error at \(error.offset.map(String.init) ?? "-"): \(error.message)"
        }
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
