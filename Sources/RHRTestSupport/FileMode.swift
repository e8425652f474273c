import Foundation

/// What the tests check of a file's mode: health data is 0600 in 0700 directories (docs/design.md section 8).
public enum FileMode {
    /// The permission bits of `path` (`0o600`), not following a last symbolic link; nil when there is nothing there.
    public static func permissions(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }
}
