import Foundation

/// A file rhr cannot read, with the place that is wrong: a byte offset, a line, or a JSON path. Only the readers
/// make one: the compiler's memberwise initializer is theirs.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var offset: Int64?
    public var message: String
    /// What the file was read as, once its kind was known ("a sync batch file (JSON lines)"): a file the user
    /// meant as something else then says so.
    public var readAs: String?
    /// The bytes break the format's syntax (JSON that does not parse), as against a well-formed file that holds
    /// something of the wrong shape or value: over HTTP the first is `bad_json`, the second `invalid_payload`
    /// (docs/design.md section 4b). Both may have a place in the bytes.
    public var isSyntaxError = false

    /// `export.xml: byte 1234: truncated`, `batches.jsonl:3: upserted[0].start: not an ISO-8601 date`; with
    /// `readAs`, `foo.json: read as a sync batch file (JSON lines): line 1: store: missing`.
    public var description: String {
        if let readAs {
            return "\(path): read as \(readAs): " + (line.map { "line \($0): " } ?? "") + (offset.map { "byte \($0): " } ?? "") + message
        }
        var place = path
        if let line { place += ":\(line)" }
        if let offset { place += ": byte \(offset)" }
        return "\(place): \(message)"
    }
}

extension InputError {
    /// Why `path` could not be opened, in the words every command uses (`rhr import` and `rhr push` alike).
    public static func cannotOpen(_ path: String, code: Int32) -> InputError {
        switch code {
        case ENOENT: InputError(path: path, message: "no such file")
        case EACCES: InputError(path: path, message: "cannot be read (permission denied)")
        case EISDIR: InputError(path: path, message: "is a directory")
        default: InputError(path: path, message: "cannot be opened: \(String(cString: strerror(code)))")
        }
    }
}
