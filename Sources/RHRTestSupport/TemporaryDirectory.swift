import Foundation
import RHRCore

/// A fresh private directory (0700, from `mkdtemp`) for one test, removed with everything in it when the value
/// goes away. Its path is short, so a socket fits inside (a socket path holds at most 107 bytes).
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// `prefix` names the directory after what uses it, which helps when one is left behind by a crash.
    public init(prefix: String = "rhr-test") throws {
        var template = Array((TemporaryDirectory.base + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("cannot make a temporary directory: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `$TMPDIR` when it leaves room for a socket path inside, else `/tmp`.
    static var base: String {
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        guard let tmp, tmp.hasPrefix("/"), tmp.utf8.count <= 48 else { return "/tmp" }
        return tmp
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A store at the top of the directory.
    public var storePath: String { file("rhr.sqlite") }
    /// A daemon socket in a directory of its own (the daemon makes it 0700).
    public var socketPath: String { file("run/rhr.sock") }

    /// Writes `bytes` to `name`, making the directories it names, and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = file(name)
        try FileManager.default.createDirectory(atPath: PathText.parent(file),
                                                withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Entries of a subdirectory (or of the directory itself), sorted.
    public func entries(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sub.isEmpty ? path : file(sub))) ?? []).sorted()
    }

    /// Zips `members` (paths relative to the directory, in that order) into `name` with Info-ZIP's `zip`.
    @discardableResult
    public func zip(_ name: String, _ members: [String], extraOptions: [String] = []) throws -> String {
        guard let zip = Subprocess.which("zip") else { throw TestFailure("zip is not installed; scripts/setup installs it") }
        let result = try Subprocess.run(zip, ["-q", "-X"] + extraOptions + [name] + members, directory: path)
        guard result.status == 0 else {
            throw TestFailure("zip failed with status \(result.status): \(result.stderr)")
        }
        return file(name)
    }
}
