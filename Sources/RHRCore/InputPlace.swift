/// Where in an input a thing is, written one way by every reader's error and every passed-over record (R14):
/// `line 3, column 14, byte 40, upserted[2].start`. Each part only when known, always in this order: the line
/// (1-based), the column (1-based, in characters), the byte offset (0-based), then the record's own name for its
/// place: a JSON path (`upserted[2].start`), a CSV column (`Resting Heart Rate (count/min)`), a database row
/// (`heart_rate_record_table row_id 6`).
public struct InputPlace: Sendable, Hashable, CustomStringConvertible {
    public var line: Int?
    public var column: Int?
    public var byte: Int64?
    /// The JSON path, the CSV column or the database row; empty when there is none (the document itself).
    public var path: String

    public init(line: Int? = nil, column: Int? = nil, byte: Int64? = nil, path: String = "") {
        self.line = line
        self.column = column
        self.byte = byte
        self.path = path
    }

    /// A row of a database table: `heart_rate_record_table row_id 6`.
    public static func row(_ id: Int64, of table: String) -> InputPlace {
        InputPlace(path: "\(table) row_id \(id)")
    }

    public var isEmpty: Bool { line == nil && column == nil && byte == nil && path.isEmpty }

    /// `line 3, column 14, byte 40, upserted[2]`; empty when nothing is known.
    public var description: String {
        var parts: [String] = []
        if let line { parts.append("line \(line)") }
        if let column { parts.append("column \(column)") }
        if let byte { parts.append("byte \(byte)") }
        if !path.isEmpty { parts.append(path) }
        return parts.joined(separator: ", ")
    }

    /// `line 3, upserted[2]: not an ISO-8601 date`, or the message alone where nothing is known.
    public func words(_ message: String) -> String { isEmpty ? message : "\(description): \(message)" }

    /// A place already written (a passed-over record's), inside this one: this place's parts come first, as
    /// `description` orders them (a batch file's line before the upsert's path: `line 3, upserted[2]`).
    public func around(_ written: String) -> String {
        written.isEmpty ? description : isEmpty ? written : description + ", " + written
    }

    /// This place with `inner`, a JSON path read from the value at `path`, after it (`data.metrics[0]` and `name`).
    public func appending(path inner: String) -> InputPlace {
        var place = self
        place.path = InputPlace.join(path, inner)
        return place
    }

    /// Two JSON paths as one: `upserted[2]` and `start` → `upserted[2].start`; `data` and `[0]` → `data[0]`.
    public static func join(_ outer: String, _ inner: String) -> String {
        if inner.isEmpty { return outer }
        if outer.isEmpty { return inner }
        return inner.hasPrefix("[") ? outer + inner : outer + "." + inner
    }
}
