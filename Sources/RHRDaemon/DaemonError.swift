import Foundation

/// The daemon cannot start or go on: a socket path in use, a directory with the wrong owner, a store that
/// will not open. The message says what and where, in words.
public struct DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// `strerror(errno)` as a Swift string.
func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
