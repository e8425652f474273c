import Foundation

/// What rhr does to every descriptor it polls: the wake-up pipe's ends, sockets the daemon accepts or connects.
public enum FileDescriptors {
    /// Non-blocking and close-on-exec (Glibc's `accept4` and `pipe2` are not visible from Swift).
    public static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }
}

/// A system call failed where no file is to blame (a pipe, a socket): what failed, in words.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `strerror(errno)` as a Swift string.
package func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
