/// An error that is a code a program acts on and a message a person reads; it prints as the message. The store
/// (`StoreError`) and the daemon's client (`DaemonClientError`) fail this way, each with its own codes.
public struct CodedError<Code: Sendable & Hashable>: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Code
    public var message: String
    /// What the library that failed said in its own words (`SQLite: database or disk is full`): for a log, never
    /// for the message.
    public var detail: String?

    public init(_ code: Code, _ message: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.detail = detail
    }

    public var description: String { message }
}
