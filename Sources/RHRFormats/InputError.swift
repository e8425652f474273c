/// A file rhr cannot read, with the place that is wrong: a byte offset, a line, or a JSON path.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var offset: Int64?
    public var message: String

    public init(path: String, line: Int? = nil, offset: Int64? = nil, message: String) {
        self.path = path
        self.line = line
        self.offset = offset
        self.message = message
    }

    /// `export.xml: byte 1234: truncated`, `batches.jsonl:3: upserted[0].start: not an ISO-8601 date`.
    public var description: String {
        var place = path
        if let line { place += ":\(line)" }
        if let offset { place += ": byte \(offset)" }
        return "\(place): \(message)"
    }
}
