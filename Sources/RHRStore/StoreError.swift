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

extension StoreErrorCode {
    /// The store refused the batches for what they say (a rule of their format, a cursor they do not continue from):
    /// sent again as they are, they are refused again. The other failures are the store's or the system's (another
    /// process writing, a full disk, a store that cannot be written) and may pass.
    public var refusesContent: Bool { self == .invalidBatch || self == .cursorMismatch }
}
