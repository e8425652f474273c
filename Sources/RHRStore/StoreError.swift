/// Why the store refused or failed. The daemon turns `code` into its protocol's codes (`ProtocolError.init(_:)`).
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable {
        /// The batch breaks a rule of its format (R1, units, empty stream).
        case invalidBatch
        /// The batch does not continue from the stream's stored cursor.
        case cursorMismatch
        /// SQLite failed, or the file is not an rhr store.
        case database
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
