import RHRCore

/// Why the store refused or failed. The daemon turns `code` into its protocol's codes (`ProtocolError.init(_:)`).
public typealias StoreError = CodedError<StoreErrorCode>

public enum StoreErrorCode: Sendable, Hashable {
    /// The batch breaks a rule of its format (R1, units, empty stream).
    case invalidBatch
    /// The batch does not continue from the stream's stored cursor.
    case cursorMismatch
    /// SQLite failed, or the file is not an rhr store.
    case database
    /// Another process held the store's write lock past the wait (an import): nothing was applied; try again.
    case busy
}
