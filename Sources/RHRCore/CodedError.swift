/// An error that is a code a program acts on and a message a person reads; it prints as the message. The store
/// (`StoreError`) and the daemon's client (`DaemonClientError`) fail this way, each with its own codes.
public struct CodedError<Code: Sendable & Hashable>: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
