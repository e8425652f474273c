import Foundation
import RHRCore

/// Picks the reader for a file by its content (`InputKind`) and runs it.
public enum FileImporter {
    public static func read(path: String, options: ImportOptions = ImportOptions(),
                            progress: ImportProgress? = nil) throws(InputError) -> ImportedFile {
        let kind = try InputKind.detect(path: path)
        do throws(InputError) {
            return try read(kind, path: path, options: options, progress: progress)
        } catch {
            var error = error
            error.readAs = kind.readAs
            throw error
        }
    }

    private static func read(_ kind: InputKind, path: String, options: ImportOptions,
                             progress: ImportProgress?) throws(InputError) -> ImportedFile {
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
