/// The small `key = value` format of rhr's config and view state files: one setting a line, `#` starts a
/// comment line, blank lines are skipped, spaces around the key and the value do not count.
enum KeyValueLines {
    struct Entry: Equatable {
        /// 1-based, for messages that name the line.
        var line: Int
        var key: String
        var value: String
    }

    /// The entries of `text`, or the number of the first line that is neither blank, a comment nor
    /// `key = value`.
    static func parse(_ text: String) -> Result<[Entry], LineError> {
        var entries: [Entry] = []
        // "\r\n" is one Character in Swift: split on it too, so a file from Windows reads the same.
        let rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (i, raw) in rows.enumerated() {
            let line = raw.trimmed([" ", "\t", "\r"])
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else { return .failure(LineError(line: i + 1)) }
            let key = line[..<equals].trimmed([" ", "\t"])
            let value = line[line.index(after: equals)...].trimmed([" ", "\t"])
            guard !key.isEmpty else { return .failure(LineError(line: i + 1)) }
            entries.append(Entry(line: i + 1, key: key, value: value))
        }
        return .success(entries)
    }

    struct LineError: Error, Equatable {
        var line: Int
    }

    /// A value on one line: backslashes and line breaks escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r")
    }

    static func unescape(_ value: String) -> String {
        var out = ""
        var escaped = false
        for c in value {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}

extension StringProtocol {
    /// Without the characters of `set` at either end.
    func trimmed(_ set: Set<Character>) -> String {
        var s = Substring(self)
        while let first = s.first, set.contains(first) { s = s.dropFirst() }
        while let last = s.last, set.contains(last) { s = s.dropLast() }
        return String(s)
    }
}
