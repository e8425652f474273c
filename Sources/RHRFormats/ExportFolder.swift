import Foundation
import RHRCore

/// A folder given to `rhr import`: what a Mac leaves after unzipping `export.zip` (`apple_health_export/`, with
/// `export.xml` under whatever name the phone's language gave it, `export_cda.xml` beside it, `workout-routes/`, …).
/// The export inside is found by its content, as in a zip (`InputKind.isAppleHealthXML`); a folder that holds none,
/// or more than one, is refused with the files it holds that rhr could read, so the user knows which to give.
enum ExportFolder {
    /// The Apple Health export in the folder at `path`; nil when `path` is not a folder.
    static func export(in path: String) throws(InputError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw InputError(path: path, message: "is a folder that cannot be read (permission denied)")
        }
        var exports: [String] = []
        var others: [String] = []
        for name in entries where !name.hasPrefix(".") {
            let file = PathText.join(path, name)
            var entry = stat()
            // Regular files only: a link is not followed, a subfolder (workout routes) is not an export.
            guard lstat(file, &entry) == 0, entry.st_mode & S_IFMT == S_IFREG else { continue }
            guard let head = try? ReadOnlyFile.head(path: file, count: InputKind.headSize) else { continue }
            if InputKind.isAppleHealthXML(head) {
                exports.append(file)
            } else if ArchiveReader.looksLikeZip(head) || InputKind.detect(head: head) != nil {
                others.append(name)
            }
        }
        if exports.count == 1 { return exports[0] }
        if exports.count > 1 {
            throw InputError(path: path, message: "is a folder holding \(exports.count) Apple Health exports ("
                + exports.map(PathText.lastComponent).joined(separator: ", ") + "); give the one to import")
        }
        let hint = others.isEmpty ? "it holds no file rhr reads"
            : "it holds no Apple Health export; give one of the files to import: " + others.joined(separator: ", ")
        throw InputError(path: path, message: "is a folder, and " + hint)
    }
}
