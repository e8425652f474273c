import RHRDaemonClient
import RHRStore

extension ProtocolError {
    /// The store's refusals in the protocol's words.
    public init(_ error: StoreError) {
        switch error.code {
        case .invalidBatch: self.init(.invalidBatch, error.message)
        case .cursorMismatch: self.init(.cursorMismatch, error.message)
        case .database, .busy: self.init(.internalError, error.message)
        }
    }
}
