// Where a drawn report goes: its file, or a PNG per page, each written whole and readable by its owner only.
import Foundation
import RHRCore
import RHRSystem

/// A report's files (docs/design.md sections 6 and 8): health data, so each is 0600, written to a temporary file
/// beside it and renamed over it, so a failure never leaves half a page. A PDF or SVG is one file; a PNG report of
/// several pages is `trend.png`, `trend-2.png`, … .
public enum ReportFiles {
    /// The paths `rendered` goes to for `path`.
    public static func paths(for path: String, pages: Int, format: ReportFormat) -> [String] {
        guard format == .png, pages > 1 else { return [path] }
        let dot = path.lastIndex(of: ".")!
        return [path] + (2...pages).map { "\(path[..<dot])-\($0)\(path[dot...])" }
    }

    /// Writes the files; their paths.
    @discardableResult
    public static func write(_ rendered: RenderedReport, to path: String) throws(PrivateFiles.Failure) -> [String] {
        let paths = paths(for: path, pages: rendered.files.count, format: rendered.format)
        for (file, bytes) in zip(paths, rendered.files) {
            let temporary = PathText.join(PathText.parent(file), ".\(PathText.lastComponent(file)).\(getpid()).tmp")
            do {
                try PrivateFiles.replace(file, with: bytes, temporary: temporary)
            } catch {
                // Said of the file asked for, not of the temporary one beside it.
                var failure = error
                failure.path = file
                throw failure
            }
        }
        return paths
    }
}
