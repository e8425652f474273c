// A file the folder watch will try again: what `rhr status` lists under the watch, and why it waits.
import Foundation
import RHRCore
import RHRJSON

/// A file the folder watch found and has not imported yet because something other than its content stood in the way
/// (a store another process holds, a full disk, a store that cannot be written, a file that cannot be read now): it
/// is tried again, later each time, and is not remembered as imported (docs/design.md section 4, the folder watch).
public struct WatchWaiting: Sendable, Equatable {
    /// The file, and why the last try did not import it (naming the file).
    public var file, reason: String
    /// When it was first tried, and when it is tried next.
    public var since, next: Date
    public var attempts: Int

    public init(file: String, reason: String, since: Date, attempts: Int, next: Date) {
        (self.file, self.reason, self.since, self.attempts, self.next) = (file, reason, since, attempts, next)
    }

    public var json: JSONObject {
        ["file": .string(file), "reason": .string(reason),
         "since": .string(Timestamp(date: since, offsetSeconds: 0).iso8601),
         "attempts": .number(JSONNumber(attempts)), "next": .string(Timestamp(date: next, offsetSeconds: 0).iso8601)]
    }

    public init(members: JSONMembers) throws(JSONPathError) {
        func date(_ key: String) throws(JSONPathError) -> Date {
            try members.requiredDecode(key, "an ISO-8601 date") { $0.string.flatMap(Timestamp.parse) }.date
        }
        self.init(file: try members.requiredString("file"), reason: try members.requiredString("reason"),
                  since: try date("since"), attempts: Int(try members.requiredInteger("attempts")), next: try date("next"))
    }
}
