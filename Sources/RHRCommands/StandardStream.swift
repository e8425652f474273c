import Foundation

/// Writes to a descriptor with `write(2)`, where Foundation's `FileHandle.write` traps (a `try!` inside it) on a
/// closed stream or a pipe whose reader is gone: here a failed write is an answer, `false`, and the caller decides.
enum StandardStream {
    /// Writes all of `text` to `fd`; false when the descriptor is closed (EBADF), its reader gone (EPIPE, with SIGPIPE
    /// ignored), its terminal hung up (EIO), or it stayed full for `patience` seconds (a non-blocking descriptor).
    static func write(_ text: String, to fd: Int32, patience: Double = 5) -> Bool {
        var bytes = Array(text.utf8)[...]
        let deadline = Date().addingTimeInterval(patience)
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes = bytes.dropFirst(n)
                continue
            }
            switch n < 0 ? errno : 0 {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // Someone made the descriptor non-blocking (it is shared with the shell): wait until it drains.
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
                guard wait > 0, poll(&ready, 1, min(wait, 1000)) >= 0 || errno == EINTR else { return false }
            default:
                return false
            }
        }
        return true
    }
}
