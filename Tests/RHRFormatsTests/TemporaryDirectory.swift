import Foundation

/// A fresh private directory (0700, from `mkdtemp`) for one test, removed when dropped.
final class TemporaryDirectory {
    let path: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/rhr-formats-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "mkdtemp failed")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name`, making the directories it names, and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = file(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Entries of a subdirectory (or of the directory itself), sorted.
    func entries(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sub.isEmpty ? path : file(sub))) ?? []).sorted()
    }

    /// Zips `members` (paths relative to the directory, in that order) into `name` with Info-ZIP's `zip`.
    @discardableResult
    func zip(_ name: String, _ members: [String], extraOptions: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["zip", "-q", "-X"] + extraOptions + [name] + members
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "zip failed with status \(process.terminationStatus); scripts/setup installs it")
        }
        return file(name)
    }
}
