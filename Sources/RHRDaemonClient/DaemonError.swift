import Foundation

/// The daemon cannot start or go on: a socket path in use, a directory with the wrong owner, a store that
/// will not open. The message says what and where, in words.
public struct DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Another daemon holds the socket: the one refusal a caller may wait out (a test restarting on one path).
    public var anotherDaemonListens = false

    public init(_ message: String) { self.message = message }

    package static func anotherDaemon(on path: String) -> DaemonError {
        var error = DaemonError("another rhr daemon is already listening on \(path); stop it first (or use --socket for another path)")
        error.anotherDaemonListens = true
        return error
    }

    public var description: String { message }
}
