import RHRJSON
import Foundation

/// One client of the daemon, as the event loop sees it. Used from the loop's thread only.
final class ClientConnection {
    let id: Int
    let fd: Int32
    var framer: JSONLineFramer
    var output = OutputQueue()
    /// A request is with the store (or being parsed off the loop); lines after it wait, so replies keep order.
    var busy = false
    var subscribed = false
    /// The client closed its side: no more input; the connection ends once its work is done.
    var inputEnded = false
    /// The client is gone (hang-up): nothing more can be written.
    var peerGone = false
    /// Close once the output is written (after `too_large`), by this time at the latest.
    var closeDeadline: Date?

    init(id: Int, fd: Int32, maxLineLength: Int) {
        self.id = id
        self.fd = fd
        self.framer = JSONLineFramer(maxLineLength: maxLineLength)
    }
}
