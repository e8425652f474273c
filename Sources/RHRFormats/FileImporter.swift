import Foundation
import RHRCore

/// Picks the reader for a file by its content (`InputKind`) and runs it.
public enum FileImporter {
    public static func read(path: String, options: ImportOptions = ImportOptions(),
                            progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        let kind = try InputKind.detect(path: path)
        switch kind {
        case .syncBatches:
            return try BatchFileReader.read(path: path, options: options, progress: progress)
        case .healthConnectDatabase, .healthConnectZip:
            return try HealthConnectReader.read(path: path, options: options, progress: progress)
        case .appleHealthXML, .appleHealthZip:
            return try AppleHealthReader.read(path: path, options: options, progress: progress)
        case .healthAutoExportJSON:
            return try HealthAutoExportReader.read(path: path, options: options, progress: progress)
        case .hcWebhookJSON:
            return try HCWebhookReader.read(path: path, options: options)
        }
    }
}
