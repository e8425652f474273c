import RHRDaemonClient
import RHRSystem

/// The daemon's event loop hears from the store thread, the folder watch and parsers through this mailbox.
typealias Inbox = WakeupMailbox<InboxMessage>

/// What the other threads tell the daemon's event loop.
enum InboxMessage: Sendable {
    /// A long request line, parsed off the loop.
    case decoded(connection: Int, RequestDecoder.Decoded)
    /// A store request's reply, and what it changed.
    case answered(connection: Int, StoreAnswer)
    /// The folder watch imported (or skipped) a file.
    case imported(WatchImport, StoreNotice)
    /// The store's revision moved without the daemon.
    case externalChange(revision: Int64)
    /// A phone's HTTP request was applied: what subscribers must hear of it.
    case fedOverHTTP(StoreNotice)
}
