/// Paths as plain strings: the parent directory, the last component, and joining two parts, as POSIX `dirname`
/// and `basename` say. Every module uses these instead of `NSString`'s and `URL`'s path-component functions:
/// `NSString.deletingLastPathComponent` traps on a one-character string in the Foundation rhr is built with
/// (`rhr status --store a` ended with SIGILL). Pure string work: nothing here looks at the file system.
public enum PathText {
    /// "x/y" → "x", "/a/b/" → "/a", "/a" → "/", "a" → ".", "" → ".", "/" → "/".
    public static func parent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = withoutTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// "x/y" → "y", "/a/b/" → "b", "a" → "a", "/" → "/", "" → "".
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" || trimmed.isEmpty { return trimmed }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// "x" + "y" → "x/y", "x/" + "y" → "x/y", "" + "y" → "y"; an absolute `name` stands alone.
    public static func join(_ base: String, _ name: String) -> String {
        if base.isEmpty || name.hasPrefix("/") { return name }
        if name.isEmpty { return base }
        return base.hasSuffix("/") ? base + name : base + "/" + name
    }

    /// A path as one word for the shell: as it is when it holds only letters, digits and `/._-+,:@%`, else in single
    /// quotes (`/my store` → `'/my store'`), for a command rhr tells the user to run.
    public static func shellWord(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%")
        return !path.isEmpty && path.allSatisfy(plain.contains) ? path : singleQuoted(path)
    }

    /// In single quotes, for the shell: `it's` → `'it'\''s'`.
    public static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// "a//" → "a"; "/" and "//" stay "/"; "" stays "".
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var end = path.endIndex
        while end > path.startIndex && path[path.index(before: end)] == "/" { end = path.index(before: end) }
        if end == path.startIndex { return path.isEmpty ? "" : "/" }
        return String(path[..<end])
    }
}
