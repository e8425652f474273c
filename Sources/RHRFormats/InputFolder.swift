// A folder given to `rhr import`: the inputs in it and one level down, and what it passes by, and why.
import Foundation
import RHRCore

/// A folder given to `rhr import` (or `rhr DIR`): what a Mac leaves after unzipping `export.zip`
/// (`apple_health_export/`, with `export.xml` under whatever name the phone's language gave it, `export_cda.xml`
/// beside it, `workout-routes/`), a download folder holding that, or `Samples/`, whose subfolders hold the files. It
/// is looked into one level down (docs/design.md section 2): every regular file there is told by its content as an
/// input is (`InputKind`, zips by their survey), and each that rhr reads is imported on its own; what is passed by
/// is named with why (not a file rhr reads, empty, an rhr store, a link, a folder deeper down), so nothing is left
/// out without a word. Hidden files (`.DS_Store`) are passed by silently.
public struct InputFolder: Sendable {
    /// The folder as given.
    public let path: String
    /// The files rhr reads, by their path below the folder, in name order.
    public private(set) var inputs: [String] = []
    /// What was passed by, below the folder, with why.
    public private(set) var passedBy: [(name: String, reason: String)] = []
    /// The folders in it that were looked into.
    public private(set) var subfolders = 0

    /// The folder at `path`, looked into; nil when `path` is not a folder (nor a link to one).
    public static func survey(_ path: String) throws(InputError) -> InputFolder? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        var folder = InputFolder(path: path)
        try folder.look(in: "", depth: 0)
        return folder
    }

    private init(path: String) { self.path = path }

    /// Each input's path as `rhr import` names it: the folder as given, joined with its path below it.
    public var inputPaths: [String] { inputs.map { PathText.join(path, $0) } }

    private mutating func look(in relative: String, depth: Int) throws(InputError) {
        let directory = relative.isEmpty ? path : PathText.join(path, relative)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            if depth == 0 { throw InputError(path: path, message: "is a folder that cannot be read (permission denied)") }
            passedBy.append((relative + "/", "a folder that cannot be read"))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let below = relative.isEmpty ? name : relative + "/" + name
            let file = PathText.join(directory, name)
            var entry = stat()
            guard lstat(file, &entry) == 0 else { continue }
            switch entry.st_mode & S_IFMT {
            case S_IFDIR where depth == 0:
                subfolders += 1
                try look(in: below, depth: 1)
            case S_IFDIR:
                passedBy.append((below + "/", "a folder two levels down, not looked into"))
            case S_IFLNK:
                passedBy.append((below, "a symbolic link, not followed"))
            case S_IFREG:
                if let reason = InputFolder.reasonToPass(file) { passedBy.append((below, reason)) } else { inputs.append(below) }
            default:
                passedBy.append((below, "not a regular file"))
            }
        }
    }

    /// Why a file is passed by; nil for a file rhr reads.
    static func reasonToPass(_ file: String) -> String? {
        guard let head = try? ReadOnlyFile.head(path: file, count: InputKind.headSize) else { return "cannot be read" }
        if head.isEmpty { return "empty" }
        if RHRStoreInput.refusal(path: file) != nil { return "an rhr store" }
        if ArchiveReader.looksLikeZip(head) {
            return (try? ZipSurvey(path: file).kind(path: file)) == nil ? "a zip without an export in it" : nil
        }
        return InputKind.detect(head: head) == nil ? "not a file rhr reads" : nil
    }

    /// What `rhr import` says of the folder before the files' own lines: what it looked at, what it imports, what
    /// it passes by and why ("…: passes by a.txt, b.pdf (not a file rhr reads); empty.json (empty)").
    public var lines: [String] {
        var lines = ["\(path): a folder; rhr looked in it" + (subfolders > 0 ? " and its \(Wording.count(subfolders, "subfolder"))" : "")
            + ": imports \(Wording.count(inputs.count, "file")), passes by \(passedBy.count)"]
        lines.append("\(path): imports " + InputFolder.names(inputs))
        if !passedBy.isEmpty { lines.append("\(path): passes by " + passedByWords) }
        return lines
    }

    /// Why a folder with nothing to import is refused.
    public var refusal: InputError {
        InputError(path: path, message: (subfolders == 0 ? "a folder holding no file rhr reads"
                                         : "a folder, and neither it nor its \(Wording.count(subfolders, "subfolder")) holds a file rhr reads")
            + (passedBy.isEmpty ? "" : "; passes by " + passedByWords))
    }

    /// The names passed by, grouped by why, in the order each why first came.
    private var passedByWords: String {
        var reasons: [String] = []
        var names: [String: [String]] = [:]
        for (name, reason) in passedBy {
            if names[reason] == nil { reasons.append(reason) }
            names[reason, default: []].append(name)
        }
        return reasons.map { InputFolder.names(names[$0]!) + " (\($0))" }.joined(separator: "; ")
    }

    /// "a, b, c", or the first twelve and how many more.
    private static func names(_ names: [String]) -> String {
        let shown = 12
        guard names.count > shown else { return names.joined(separator: ", ") }
        return names.prefix(shown).joined(separator: ", ") + " and \(names.count - shown) more"
    }
}
