import Foundation

/// What the tests check of a file's mode: health data is 0600 in 0700 directories (docs/design.md section 8).
public enum FileMode {
    /// `lstat(2)` of `path`, or with `following` `stat(2)` (through a last symbolic link); nil when there is
    /// nothing there.
    public static func status(_ path: String, following: Bool = false) -> stat? {
        var info = stat()
        return (following ? stat(path, &info) : lstat(path, &info)) == 0 ? info : nil
    }

    /// The permission bits of `path` (`0o600`), not following a last symbolic link; nil when there is nothing there.
    public static func permissions(_ path: String) -> Int? {
        status(path).map { Int($0.st_mode & 0o777) }
    }

    /// The permission, set-id and sticky bits (`0o1777`), through a last symbolic link; nil when there is nothing.
    public static func modeBits(_ path: String) -> Int? {
        status(path, following: true).map { Int($0.st_mode & 0o7777) }
    }

    /// The size in bytes, through a last symbolic link; nil when there is nothing there.
    public static func size(_ path: String) -> Int64? {
        status(path, following: true).map { Int64($0.st_size) }
    }
}

/// A file's mode bits and its whole content: equal before and after means nothing wrote to it or changed its mode.
public struct FileFingerprint: Equatable, Sendable {
    public let modeBits: Int?
    public let content: Data?

    public init(_ path: String) {
        modeBits = FileMode.modeBits(path)
        content = FileManager.default.contents(atPath: path)
    }
}
