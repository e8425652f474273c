/// Why the store refused or failed. `code` matches the daemon's error codes where one applies.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The batch breaks a rule of its format (R1, units, empty stream).
        case invalidBatch = "invalid_batch"
        /// The batch does not continue from the stream's stored cursor.
        case cursorMismatch = "cursor_mismatch"
        /// An export older than the newest one of its stream, not forced.
        case olderSnapshot = "older_snapshot"
        /// SQLite failed, or the file is not an rhr store.
        case database = "internal"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
