import Foundation
import RHRCore
import RHRJSON

/// A file rhr cannot read, with the place that is wrong (a line, a column, a byte offset, a JSON path: `InputPlace`).
/// Only the readers make one: the compiler's memberwise initializer is theirs.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var place = InputPlace()
    public var message: String
    /// What the file was read as, once its kind was known ("a sync batch file (JSON lines)"): a file the user
    /// meant as something else then says so.
    public var readAs: String?
    /// The bytes break the format's syntax (JSON that does not parse), as against a well-formed file that holds
    /// something of the wrong shape or value: over HTTP the first is `bad_json`, the second `invalid_payload`
    /// (docs/design.md section 4b). Both may have a place in the bytes.
    public var isSyntaxError = false
    /// The system failed, not the file: it could not be opened or read now, or there was no room for its temporary
    /// copy, or the import was stopped. What it holds was never judged, so the folder watch tries it again
    /// (docs/design.md section 4, the folder watch); a refusal of its content is remembered.
    public var isTransient = false

    public var line: Int? {
        get { place.line }
        set { place.line = newValue }
    }

    public var offset: Int64? {
        get { place.byte }
        set { place.byte = newValue }
    }

    /// `export.xml: byte 1234: truncated`, `batches.jsonl: line 3, upserted[0].start: not an ISO-8601 date`; with
    /// `readAs`, `foo.json: read as a sync batch file (JSON lines): line 1, store: missing`.
    public var description: String {
        "\(path): " + (readAs.map { "read as \($0): " } ?? "") + place.words(message)
    }
}

extension InputError {
    /// A place given by its line (and byte).
    init(path: String, line: Int?, offset: Int64? = nil, message: String) {
        self.init(path: path, place: InputPlace(line: line, byte: offset), message: message)
    }

    /// A place given by its byte.
    init(path: String, offset: Int64?, message: String) {
        self.init(path: path, place: InputPlace(byte: offset), message: message)
    }

    /// JSON that does not parse, at the place the lexer names.
    init(path: String, syntax error: JSONSyntaxError) {
        self.init(path: path, place: error.place, message: error.message, isSyntaxError: true)
    }
}

extension InputError {
    /// Why `path` could not be opened, in the words every command uses (`rhr import` and `rhr push` alike).
    public static func cannotOpen(_ path: String, code: Int32) -> InputError {
        switch code {
        case ENOENT: transient(path, "no such file")
        case EACCES: transient(path, "cannot be read (permission denied)")
        case EISDIR: InputError(path: path, message: "is a directory")
        default: transient(path, "cannot be opened: \(String(cString: strerror(code)))")
        }
    }

    /// A failure of the system rather than of the file's content (`isTransient`).
    static func transient(_ path: String, _ message: String) -> InputError {
        var error = InputError(path: path, message: message)
        error.isTransient = true
        return error
    }

    /// `read(2)` failed with `code`.
    static func cannotRead(_ path: String, code: Int32) -> InputError {
        transient(path, "cannot be read: \(String(cString: strerror(code)))")
    }
}
